export function ensureBuild(distDir?: string, env?: Record<string, string | undefined>): void;
