import 'server-only';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SERVICE_WORKER_FILE } from '@/lib/offline/protocol';
import { config } from '@/server/base/config.mjs';

let script: Promise<string | null> | undefined;

/** The service worker this build made (null where there is none: the development server, a build without the step). */
export function serviceWorkerScript(): Promise<string | null> {
  script ??= readFile(path.join(config().distDir, SERVICE_WORKER_FILE), 'utf8').catch(() => null);
  return script;
}
