export type BuildSettings = Record<string, string>;
export type BuildSettingChange = { name: string; built: string | undefined; now: string };
export const BUILD_TIME_VARIABLES: readonly string[];
export function buildSettingsOf(env: Record<string, string | undefined>): BuildSettings;
export function changedBuildSettings(recorded: BuildSettings | undefined, env: Record<string, string | undefined>): BuildSettingChange[];
export function describeChanges(changes: BuildSettingChange[]): string;
