// The .eml files the site's outbox worker wrote to a folder (the embedded mail transport). Only finished
// messages: a message is written under a temporary name and renamed, so a file seen while listing may
// be gone by the time it is read.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The raw text of every finished message in `folder`, oldest name first. */
export function outboxMessages(folder: string): string[] {
  const outbox = path.resolve(folder);
  if (!existsSync(outbox)) return [];
  return (
    readdirSync(outbox)
      .filter((name) => name.endsWith('.eml'))
      // Numbers in names compare as numbers: stage-10.9 before stage-10.10.
      .sort(new Intl.Collator('en', { numeric: true }).compare)
      .flatMap((name) => {
        try {
          return [readFileSync(path.join(outbox, name), 'utf8')];
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
          throw error;
        }
      })
  );
}
