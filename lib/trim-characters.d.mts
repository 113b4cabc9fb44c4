export function trimEnd(value: string, character: string): string;
export function trimBoth(value: string, character: string): string;
export function trimTrailingSlashes(value: string): string;
