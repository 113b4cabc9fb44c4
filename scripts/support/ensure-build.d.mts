export function ensureBuild(distDir?: string, env?: NodeJS.ProcessEnv): void;
