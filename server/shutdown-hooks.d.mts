export function onShutdown(name: string, hook: () => Promise<void> | void): void;
export function runShutdownHooks(timeoutMs: number, log?: (line: string) => void): Promise<boolean>;
