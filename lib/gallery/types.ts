/** A gallery item as the page uses it, after normalisation (lib/gallery/normalise.ts). */
export type GalleryItem = {
  _id: string;
  title: string;
  category: string;
  description: string;
  /** Always present once normalised. */
  tags: string[];
  mimeType: string;
  imageUrl?: string;
  s3Key?: string;
  filename?: string;
  /**
   * Beyond the CRM's item contract, optional: a still frame for a video, a path on the CRM like imageUrl
   * (the built-in gallery stores one when a video is added with --poster).
   */
  posterUrl?: string;
};

export type GalleryMedia =
  { kind: 'image'; src: string } | { kind: 'video'; src: string; type: string; poster?: string } | { kind: 'none' };
