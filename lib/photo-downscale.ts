import { PHOTO_MAX_SIDE } from '@/lib/enquiry-rules.mjs';

/**
 * Makes a photo lighter to send from a phone with a weak signal: decoded by the browser, turned upright,
 * drawn at most PHOTO_MAX_SIDE px on its longest side and written as a JPEG (which also drops its
 * metadata before it leaves the phone). The server decodes and re-encodes whatever arrives in any case.
 * A file the browser cannot decode, or one already small enough, is sent as it is (the server then
 * explains what is wrong with it, naming it).
 */
export async function downscaleForUpload(file: File): Promise<File> {
  if (typeof createImageBitmap !== 'function' || typeof document === 'undefined') return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file;
  }
  try {
    const scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && file.type === 'image/jpeg' && file.size < 1_500_000) return file;
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
    if (!blob || blob.size >= file.size) return file;
    return new File([blob], file.name, { type: 'image/jpeg', lastModified: file.lastModified });
  } finally {
    bitmap.close();
  }
}
