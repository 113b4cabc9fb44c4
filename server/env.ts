import 'server-only';
import { z } from 'zod';
import { trimTrailingSlashes } from '@/lib/trim-characters.mjs';

const serverEnvSchema = z.object({
  SITE_URL: z
    .url({ protocol: /^https?$/ })
    .default('http://localhost:3000')
    .transform((value) => trimTrailingSlashes(value)),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z.string().trim().min(1).default('file:data/site.db'),
  DATABASE_AUTH_TOKEN: z.string().trim().optional(),
  // Folder of the built-in gallery's added items (manifest.json + media/), managed by `npm run gallery`.
  GALLERY_DIR: z.string().trim().min(1).default('data/gallery'),
});

export type ServerEnv = z.infer<typeof serverEnvSchema>;

function loadServerEnv(): ServerEnv {
  const parsed = serverEnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
    throw new Error(`Invalid environment configuration:\n${problems}`);
  }
  return parsed.data;
}

export const serverEnv = loadServerEnv();
