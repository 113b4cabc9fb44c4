import 'server-only';

/** A file or option `npm run gallery` refuses, with the words the command prints. */
export class GalleryInputError extends Error {}
