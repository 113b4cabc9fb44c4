// Writes a file whole or not at all: under a temporary name beside it, then renamed into place, so a
// reader (the server, a backup, a mail client) never sees half a file and a crash leaves the old one.
// Plain JavaScript without 'server-only', so the scripts and their fixtures (run by plain tsx) use it too.
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';

/**
 * Puts `data` at `file`. `data` is what fs.writeFile takes (a string, bytes, a stream), or a function
 * that makes the file under the temporary name it is given (sharp's toFile, a copy). The temporary name
 * is unique to the call, so writers racing for one file each land whole and the last rename wins. On a
 * failure the temporary file is removed and `file` is left as it was. `mode` applies when the file is made.
 * @param {string} file
 * @param {Parameters<typeof writeFile>[1] | ((temporary: string) => Promise<unknown>)} data
 * @param {{ mode?: number }} [options]
 * @returns {Promise<void>}
 */
export async function writeFileAtomic(file, data, options = {}) {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    if (typeof data === 'function') await data(temporary);
    else await writeFile(temporary, data, { flag: 'wx', ...(options.mode === undefined ? {} : { mode: options.mode }) });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
