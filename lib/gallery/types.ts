/** A gallery item as the page uses it, after normalisation (SPEC section 3). */
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
};

export type GalleryMedia = { kind: 'image'; src: string } | { kind: 'video'; src: string; type: string } | { kind: 'none' };
