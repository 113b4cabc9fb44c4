// The settings a production build fixes: every page is prerendered, so SITE_URL is written into its
// canonical and Open Graph URLs, JSON-LD, sitemap.xml and robots.txt, and Next inlines each
// NEXT_PUBLIC_* value into the browser bundle. The build records them (scripts/site/csp-hashes.ts, in the
// CSP manifest); `npm start` rebuilds and `node server.mjs` refuses to start when the environment
// asks for other values. Which variables these are, the configuration's schema says (server/base/config.mjs).
// Plain JavaScript so server.mjs runs it with no compile step.
import { BUILD_TIME_VARIABLES } from './config.mjs';

/**
 * A value as the build and the server read it: unset and empty alike, no surrounding spaces or trailing slashes.
 * @param {string | undefined} value
 */
function normalised(value) {
  let text = (value ?? '').trim();
  while (text.endsWith('/')) text = text.slice(0, -1);
  return text;
}

/** @typedef {Record<string, string | undefined>} Environment */
/** @typedef {{ name: string; built: string | undefined; now: string }} ChangedSetting */

/**
 * The build-time settings of an environment, as a build records them.
 * @param {Environment} env
 * @returns {Record<string, string>}
 */
export function buildSettingsOf(env) {
  return Object.fromEntries(BUILD_TIME_VARIABLES.map((name) => [name, normalised(env[name])]));
}

/**
 * The build-time settings whose value in `env` differs from the one the build recorded, each with both
 * values. A build that recorded none (made before builds recorded them) differs in every one.
 * @param {Record<string, string> | undefined} recorded
 * @param {Environment} env
 * @returns {ChangedSetting[]}
 */
export function changedBuildSettings(recorded, env) {
  const now = buildSettingsOf(env);
  return BUILD_TIME_VARIABLES.filter((name) => !recorded || normalised(recorded[name]) !== now[name]).map((name) => ({
    name,
    built: recorded ? normalised(recorded[name]) : undefined,
    now: now[name] ?? '',
  }));
}

/**
 * One line per changed setting, for the messages of server.mjs and `npm start`.
 * @param {ChangedSetting[]} changes
 */
export function describeChanges(changes) {
  const shown = (/** @type {string | undefined} */ value) => (value === undefined ? 'not recorded' : value === '' ? '(empty)' : value);
  return changes.map((change) => `  ${change.name}: built with ${shown(change.built)}, now ${shown(change.now)}`).join('\n');
}
