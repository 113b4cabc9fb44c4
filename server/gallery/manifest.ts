import 'server-only';
import { z } from 'zod';

const text = z.string().trim().min(1);

/** One entry of a gallery manifest, in the CRM's gallery item contract (_id, title, category, description, tags, mimeType, imageUrl, s3Key, filename). */
export const manifestItemSchema = z
  .object({
    _id: text.max(100).regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only'),
    title: text.max(200),
    category: text.max(100),
    description: z.string().trim().max(2_000).default(''),
    tags: z.array(text.max(50)).max(30).default([]),
    mimeType: z.string().trim().default(''),
    imageUrl: z.string().trim().startsWith('/').optional(),
    s3Key: text.optional(),
    filename: text.optional(),
    createdAt: z.iso.datetime().optional(),
    /** The display sizes `npm run gallery add` stored (bookkeeping, not part of the CRM contract). */
    displayWidths: z.array(z.number().int().positive()).max(20).optional(),
    /** A video's still frame, stored at its display sizes (`--poster`); listed as `posterUrl`. */
    posterKey: text.optional(),
    posterWidths: z.array(z.number().int().positive()).max(20).optional(),
  })
  .refine((item) => item.imageUrl || item.s3Key || item.filename, 'needs imageUrl, s3Key or filename');

export type ManifestItem = z.infer<typeof manifestItemSchema>;

export const manifestSchema = z.object({
  version: z.literal(1),
  items: z.array(manifestItemSchema),
  /** Ids of shipped sample items the operator removed (only read from the data manifest). */
  hidden: z.array(z.string()).default([]),
});

export type Manifest = z.infer<typeof manifestSchema>;

export const emptyManifest = (): Manifest => ({ version: 1, items: [], hidden: [] });
