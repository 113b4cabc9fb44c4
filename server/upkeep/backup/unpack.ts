import 'server-only';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@/server/base/private-files';
import { BackupError, DATABASE_ENTRY, exists, MANIFEST_ENTRY, type BackupManifest } from './format';
import { gzipBytesOf, manifestOf, refusalOf } from './verify';

/** Past this, a manifest is not one of ours (ours is a few hundred bytes). */
const MANIFEST_MAX_BYTES = 64 * 1024;

/** One reading of an archive into its stage: what it has found so far, and the first refusal. */
type Unpacking = {
  archive: string;
  stage: string;
  parser: tar.Parser;
  refusal: string | null;
  manifestText: string | null;
  manifest: BackupManifest | null;
  /** The entry being read, named when the archive turns out cut short. */
  current: string | null;
  entries: number;
  writes: Promise<void>[];
  sinks: Set<Writable>;
};

/** Keeps the first refusal: the one the operator is told. */
const refuse = (unpacking: Unpacking, sentence: string) => {
  unpacking.refusal ??= sentence;
};

/** Parses the manifest once its entry has been read whole. */
function readManifest(unpacking: Unpacking) {
  if (unpacking.manifest || unpacking.manifestText === null) return;
  const read = manifestOf(unpacking.archive, unpacking.manifestText);
  if ('refusal' in read) return refuse(unpacking, read.refusal);
  unpacking.manifest = read.manifest;
}

/** The first entry (the manifest) is kept in memory, never written to the stage. */
function keepManifestText(unpacking: Unpacking, entry: tar.ReadEntry) {
  let text = '';
  entry.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    if (text.length > MANIFEST_MAX_BYTES)
      refuse(unpacking, `${unpacking.archive} has a ${MANIFEST_ENTRY} far larger than any backup makes: it is not restored.`);
  });
  entry.on('end', () => {
    unpacking.manifestText = text;
  });
}

/** Writes a checked entry under the stage: a folder 0700, a file 0600 and never over one already written. */
function writeEntry(unpacking: Unpacking, entry: tar.ReadEntry) {
  const { archive, stage, sinks } = unpacking;
  const target = path.join(stage, ...entry.path.split('/').filter(Boolean));
  try {
    if (entry.type === 'Directory') {
      mkdirSync(target, { recursive: true, mode: PRIVATE_DIR_MODE });
      entry.resume();
      return;
    }
    mkdirSync(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch {
    refuse(unpacking, `${archive} holds ${JSON.stringify(entry.path)} where it also holds a file: it is not restored.`);
    entry.resume();
    return;
  }
  const sink = createWriteStream(target, { mode: PRIVATE_FILE_MODE, flags: 'wx' });
  sinks.add(sink);
  const name = entry.path;
  unpacking.writes.push(
    new Promise<void>((resolve) => {
      sink.on('close', () => {
        sinks.delete(sink);
        resolve();
      });
      sink.on('error', (error: NodeJS.ErrnoException) => {
        // Keep the archive flowing past this entry, so the refusal is reached rather than a stall.
        entry.unpipe(sink);
        entry.resume();
        refuse(
          unpacking,
          error.code === 'EEXIST'
            ? `${archive} holds ${JSON.stringify(name)} twice: it is not restored.`
            : `Could not unpack ${JSON.stringify(name)} of ${archive} (${error.code ?? error.message}).`,
        );
      });
    }),
  );
  entry.pipe(sink);
}

/** Each entry is checked before anything of it is written; the first refusal stops the reading. */
function onEntry(unpacking: Unpacking, entry: tar.ReadEntry) {
  if (unpacking.refusal) return entry.resume();
  const first = unpacking.entries === 0;
  unpacking.entries += 1;
  if (!first) readManifest(unpacking);
  unpacking.current = entry.path;
  const refused = unpacking.refusal ?? refusalOf(unpacking.archive, entry, first);
  if (refused) {
    refuse(unpacking, refused);
    entry.resume();
    unpacking.parser.abort(new Error(refused));
    return;
  }
  if (first) keepManifestText(unpacking, entry);
  else writeEntry(unpacking, entry);
}

/** Feeds the archive's bytes through gunzip to the parser; an archive that ends early or is damaged is refused as cut short. */
async function feedParser(unpacking: Unpacking, source: Readable) {
  const { archive, parser } = unpacking;
  let damage: string | null = null;
  parser.on('warn', (_code: string, message: string | Error) => {
    damage ??= String(message instanceof Error ? message.message : message);
  });
  parser.on('error', (error: Error) => {
    damage ??= error.message;
  });
  const parsed = new Promise<void>((resolve) => {
    parser.on('end', () => resolve());
    parser.on('close', () => resolve());
    parser.on('abort', () => resolve());
  });
  const cutShort = (detail: string) =>
    `${archive} is cut short or damaged: reading stopped ${unpacking.current ? `inside ${JSON.stringify(unpacking.current)}` : 'before its first entry'} (${detail}).`;
  try {
    const gunzip = createGunzip();
    const feed = pipeline(
      source,
      gunzip,
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          if (unpacking.refusal) return done();
          if (parser.write(chunk)) done();
          else parser.once('drain', () => done());
        },
        final(done) {
          parser.end();
          done();
        },
      }),
    );
    await feed;
    await parsed;
  } catch (error) {
    if (!unpacking.refusal)
      refuse(
        unpacking,
        cutShort(/unexpected end|invalid tag|final chunk|truncat/i.test(String(error)) ? 'it ends too soon' : (error as Error).message),
      );
  }
  // Read after the feed: the parser's handlers set it meanwhile.
  const damaged = damage as string | null;
  if (!unpacking.refusal && damaged) refuse(unpacking, /Truncated/i.test(damaged) ? cutShort('it ends too soon') : cutShort(damaged));
}

/**
 * Reads the archive once, checking every entry before it is written, into `stage` (a private folder,
 * never the places the site uses): files 0600, folders 0700, whatever modes the archive names. The
 * first refusal stops the reading; nothing else of the archive is written.
 */
export async function unpackChecked(archive: string, stage: string, identities: readonly string[]): Promise<BackupManifest> {
  const source = await gzipBytesOf(archive, identities);
  const unpacking: Unpacking = {
    archive,
    stage,
    parser: new tar.Parser({ strict: true, maxMetaEntrySize: MANIFEST_MAX_BYTES }),
    refusal: null,
    manifestText: null,
    manifest: null,
    current: null,
    entries: 0,
    writes: [],
    sinks: new Set(),
  };
  unpacking.parser.on('entry', (entry: tar.ReadEntry) => onEntry(unpacking, entry));
  await feedParser(unpacking, source);
  // A file the archive ended inside of, or one after a refusal, is closed where it stopped (the stage goes anyway).
  if (unpacking.refusal) for (const sink of unpacking.sinks) sink.destroy();
  await Promise.allSettled(unpacking.writes);
  if (!unpacking.refusal) readManifest(unpacking);
  if (unpacking.refusal) throw new BackupError(unpacking.refusal);
  const found = unpacking.manifest;
  if (!found) throw new BackupError(`${archive} holds no ${MANIFEST_ENTRY}: it is not a backup of this site.`);
  if (found.database && !(await exists(path.join(stage, DATABASE_ENTRY))))
    throw new BackupError(`${archive} is cut short: its ${MANIFEST_ENTRY} names a database but it holds no ${DATABASE_ENTRY}.`);
  return found;
}
