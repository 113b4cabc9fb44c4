import { PDFParse } from 'pdf-parse';

/** A PDF's text as a reader's extractor gets it, its runs of white space made one space. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const parser = new PDFParse({ data: bytes });
  try {
    return (await parser.getText()).text.replace(/\s+/g, ' ').trim();
  } finally {
    await parser.destroy();
  }
}
