import 'server-only';
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { armor, Decrypter } from 'age-encryption';
import {
  BackupError,
  DATABASE_ENTRY,
  DATABASE_FOLDER,
  FOLDERS,
  isFolderEntry,
  MANIFEST_ENTRY,
  manifestSchema,
  type BackupManifest,
} from './format';

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const TYPE_NAMES: Record<string, string> = {
  SymbolicLink: 'a symbolic link',
  Link: 'a hard link',
  CharacterDevice: 'a device',
  BlockDevice: 'a device',
  FIFO: 'a named pipe',
};

/** Why an entry may not be restored (one sentence), or null when it is a file or folder where backups put them. */
export function refusalOf(archive: string, entry: { path: string; type: string; linkpath?: string }, first: boolean): string | null {
  const name = JSON.stringify(entry.path);
  const directory = entry.type === 'Directory';
  if (!directory && !FILE_TYPES.has(entry.type)) {
    const what = TYPE_NAMES[entry.type] ?? `an entry of type ${entry.type}`;
    const target = entry.linkpath ? ` to ${JSON.stringify(entry.linkpath)}` : '';
    return `${archive} holds ${what}, ${name}${target}: a backup holds only files and folders, so it is not restored.`;
  }
  if (entry.path.startsWith('/') || /^[A-Za-z]:/.test(entry.path) || entry.path.includes('\\') || entry.path.includes('\0'))
    return `${archive} holds ${name}, an absolute path: a backup holds only paths inside its own folders, so it is not restored.`;
  const parts = entry.path.split('/');
  if (directory && parts.at(-1) === '') parts.pop();
  if (parts.some((part) => part === '..')) return `${archive} holds ${name}, a path that climbs out of the archive: it is not restored.`;
  if (parts.some((part) => part === '' || part === '.'))
    return `${archive} holds ${name}, a path no backup of this site makes: it is not restored.`;
  const [top, ...rest] = parts;
  const isManifest = top === MANIFEST_ENTRY && rest.length === 0 && !directory;
  if (first && !isManifest)
    return `${archive} does not begin with ${MANIFEST_ENTRY} (it begins with ${name}): it is not a backup of this site.`;
  if (isManifest) return first ? null : `${archive} holds a second ${MANIFEST_ENTRY}: it is not restored.`;
  const known =
    (top === DATABASE_FOLDER && ((directory && rest.length === 0) || (!directory && parts.join('/') === DATABASE_ENTRY))) ||
    (top !== undefined && isFolderEntry(top));
  if (!known)
    return `${archive} holds ${name}, outside the folders a backup holds (${[MANIFEST_ENTRY, DATABASE_ENTRY, ...Object.keys(FOLDERS)].join(', ')}): it is not restored.`;
  return null;
}

const GZIP = Buffer.from([0x1f, 0x8b]);
const AGE_BINARY = Buffer.from('age-encryption.org/');
const AGE_ARMOR = Buffer.from('-----BEGIN AGE ENCRYPTED FILE-----');

/** The archive's gzip bytes: decrypted when it is an age file. */
export async function gzipBytesOf(archive: string, identities: readonly string[]): Promise<Readable> {
  let head: Buffer;
  try {
    const handle = await open(archive, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new BackupError(`Could not read ${archive} (${(error as NodeJS.ErrnoException).code ?? error}).`);
  }
  const starts = (magic: Buffer) => head.subarray(0, magic.length).equals(magic);
  if (starts(GZIP)) return createReadStream(archive);
  const binary = starts(AGE_BINARY);
  if (!binary && !starts(AGE_ARMOR))
    throw new BackupError(`${archive} is not a backup of this site: it is neither a .tar.gz archive nor an age-encrypted one.`);
  if (identities.length === 0)
    throw new BackupError(`${archive} is encrypted: give the private key that opens it with --identity KEYFILE.`);
  const decrypter = new Decrypter();
  for (const identity of identities) decrypter.addIdentity(identity);
  let input: ReadableStream<Uint8Array>;
  if (binary) input = Readable.toWeb(createReadStream(archive)) as ReadableStream<Uint8Array>;
  else {
    try {
      input = new Blob([Buffer.from(armor.decode(await readFile(archive, 'utf8')))]).stream();
    } catch {
      throw new BackupError(`${archive} is cut short or damaged: its armored (text) encryption does not decode.`);
    }
  }
  try {
    return Readable.fromWeb((await decrypter.decrypt(input)) as unknown as NodeReadableStream<Uint8Array>);
  } catch (error) {
    if (/no identity matched/i.test(String(error)))
      throw new BackupError(`None of the private keys given with --identity opens ${archive}: it was encrypted to other public keys.`);
    throw new BackupError(`${archive} is cut short or damaged: its encryption header does not read (${(error as Error).message}).`);
  }
}

/** The archive's manifest read from its text, or the sentence refusing it (not JSON, or not a manifest this site knows). */
export function manifestOf(archive: string, text: string): { manifest: BackupManifest } | { refusal: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { refusal: `${archive} has a ${MANIFEST_ENTRY} that is not JSON: it is not a backup of this site.` };
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success) {
    const seen = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    return {
      refusal: `${archive} has a ${MANIFEST_ENTRY} this site does not know (format ${JSON.stringify(seen.format ?? null)}, version ${JSON.stringify(seen.version ?? null)}): it is not restored.`,
    };
  }
  return { manifest: result.data };
}
