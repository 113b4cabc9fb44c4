import 'server-only';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, type PDFFont, type PDFPage } from 'pdf-lib';
import { documentFontkit, documentText, loadFont, type FontName } from '@/server/claims/drying/pdf-fonts';

/**
 * A document laid out on A4 pages: a letterhead on the first page, then blocks (a title, facts as
 * label and value, headings, paragraphs, tables) flowing down the pages, and a footer on every page
 * with "Page n of m". A table's rows are never cut: a row that does not fit starts the next page, which
 * repeats the table's heading and column headings. Text is printed as typed where the font has it
 * (printableText). Same input, same bytes: nothing random, every date given.
 */

export type Column = { heading: string; /** Share of the text width. */ width: number; align?: 'left' | 'right' };

export type Block =
  | { kind: 'title'; text: string }
  | { kind: 'facts'; rows: readonly (readonly [label: string, value: string])[] }
  | { kind: 'heading'; text: string }
  | { kind: 'text'; text: string; style?: 'body' | 'small' | 'strong' }
  | { kind: 'table'; heading: string; columns: readonly Column[]; rows: readonly (readonly string[])[] };

export type DocumentLayout = {
  /** The PDF's metadata. */
  info: { title: string; subject: string; author: string; creator: string; date: Date };
  letterhead: { name: string; lines: readonly string[] };
  blocks: readonly Block[];
  footer: { lines: readonly string[]; page: (page: number, pages: number) => string };
  /** A table's heading on the pages after its first. */
  continued: (heading: string) => string;
};

const PAGE = { width: 595.28, height: 841.89 } as const;
const MARGIN = { x: 48, top: 46, bottom: 78 } as const;
const WIDTH = PAGE.width - 2 * MARGIN.x;
const FOOTER_TOP = 58;

/** A colour as the content stream's operands, "r g b". */
type Colour = string;
const hex = (value: string): Colour => [1, 3, 5].map((at) => num(parseInt(value.slice(at, at + 2), 16) / 255)).join(' ');
/** A number as a content stream writes it: at most three decimals, no trailing zeros. */
const num = (value: number) => String(Math.round(value * 1000) / 1000);
const INK = hex('#0f172a');
const MUTED = hex('#475569');
const BRAND = hex('#0a2c47');
const HEADER_FILL = hex('#eef5fb');
const STRIPE_FILL = hex('#f6f7f9');
const RULE = hex('#cbd5e1');

const TYPE = {
  letterhead: { font: 'bold', size: 15, leading: 18 },
  address: { font: 'regular', size: 8, leading: 10.5 },
  title: { font: 'bold', size: 17, leading: 22 },
  heading: { font: 'bold', size: 11, leading: 15 },
  body: { font: 'regular', size: 9.5, leading: 13 },
  strong: { font: 'bold', size: 9.5, leading: 13 },
  small: { font: 'regular', size: 8.5, leading: 11.5 },
  label: { font: 'bold', size: 9, leading: 12.5 },
  cell: { font: 'regular', size: 8, leading: 9.6 },
  headCell: { font: 'bold', size: 8, leading: 9.6 },
  footer: { font: 'regular', size: 7, leading: 9.5 },
  pageLabel: { font: 'bold', size: 8, leading: 10 },
} as const satisfies Record<string, { font: FontName; size: number; leading: number }>;
type Type = { font: FontName; size: number; leading: number };

const CELL_PAD = { x: 4, y: 2.6 } as const;

/** Width of already printable text, from the font's advance widths. */
function widthOf(text: string, type: Type): number {
  const { advance } = loadFont(type.font);
  let width = 0;
  for (const char of text) width += advance(char.codePointAt(0)!);
  return (width * type.size) / 1000;
}

const wrapped = new Map<string, Map<string, string[]>>();
let wrappedCount = 0;

/** Printable text broken into lines no wider than `max` (cached: a record's dates, materials and figures repeat). */
function wrapText(text: string, type: Type, max: number): string[] {
  const measure = `${type.font} ${type.size} ${max}`;
  let texts = wrapped.get(measure);
  if (texts === undefined) wrapped.set(measure, (texts = new Map()));
  let lines = texts.get(text);
  if (lines === undefined) {
    // Bounded: a process renders many records, each with its own names.
    if (wrappedCount >= 50_000) {
      wrapped.clear();
      wrapped.set(measure, (texts = new Map()));
      wrappedCount = 0;
    }
    lines = wrapWords(text, type, max);
    texts.set(text, lines);
    wrappedCount += 1;
  }
  return lines;
}

/** Printable text broken into lines no wider than `max`; a word wider than a line is broken between characters. */
function wrapWords(text: string, type: Type, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (widthOf(next, type) <= max) {
      line = next;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    if (widthOf(word, type) <= max) {
      line = word;
      continue;
    }
    for (const char of word) {
      // An accent stays with its letter.
      if (line && !/^\p{M}$/u.test(char) && widthOf(line + char, type) > max) {
        lines.push(line);
        line = '';
      }
      line += char;
    }
  }
  lines.push(line);
  return lines;
}

export async function renderLayout(layout: DocumentLayout): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(documentFontkit);
  pdf.setTitle(layout.info.title);
  pdf.setSubject(layout.info.subject);
  pdf.setAuthor(layout.info.author);
  pdf.setCreator(layout.info.creator);
  pdf.setProducer(layout.info.creator);
  pdf.setCreationDate(layout.info.date);
  pdf.setModificationDate(layout.info.date);
  // A subset's name starts with a tag of six capitals; fixed here (pdf-lib's own is random) so the bytes are.
  const fonts: Record<FontName, PDFFont> = {
    regular: await pdf.embedFont(loadFont('regular').bytes, { subset: true, customName: 'HCDOCR+DejaVuSans' }),
    bold: await pdf.embedFont(loadFont('bold').bytes, { subset: true, customName: 'HCDOCB+DejaVuSans-Bold' }),
  };
  const writer = new PageWriter(pdf, fonts);
  writer.letterhead(layout.letterhead);
  for (const block of layout.blocks) writer.block(block, layout.continued);
  writer.footers(layout.footer);
  writer.finish();
  return pdf.save();
}

/**
 * Writes each page's content stream itself, as text: pdf-lib's drawing calls build objects for every
 * operator (about half a millisecond a cell, seconds for a long record); the fonts, the pages and the
 * file are still pdf-lib's.
 */
class PageWriter {
  private page!: PDFPage;
  private ops: string[] = [];
  private readonly streams = new Map<PDFPage, string[]>();
  private y = 0;
  /** The page's current font and fill colour. */
  private state = { font: '', fill: '' };
  private readonly printed = new Map<string, string>();
  private readonly encoded: Record<FontName, Map<string, string>> = { regular: new Map(), bold: new Map() };

  constructor(
    private readonly pdf: PDFDocument,
    private readonly fonts: Record<FontName, PDFFont>,
  ) {
    this.newPage();
  }

  private newPage() {
    this.page = this.pdf.addPage([PAGE.width, PAGE.height]);
    this.page.node.setFontDictionary(PDFName.of('F1'), this.fonts.regular.ref);
    this.page.node.setFontDictionary(PDFName.of('F2'), this.fonts.bold.ref);
    this.ops = [];
    this.state = { font: '', fill: '' };
    this.streams.set(this.page, this.ops);
    this.y = PAGE.height - MARGIN.top;
  }

  /** Whether `height` more fits above the footer. */
  private fits(height: number) {
    return this.y - height >= MARGIN.bottom;
  }

  private text(text: string) {
    let out = this.printed.get(text);
    if (out === undefined) {
      out = documentText(text);
      this.printed.set(text, out);
    }
    return out;
  }

  /** One line of printable text with its baseline `size` below `top`. */
  private draw(line: string, x: number, top: number, type: Type, colour: Colour = INK) {
    if (!line) return;
    const glyphs = this.glyphs(line, type.font);
    const font = `/${type.font === 'bold' ? 'F2' : 'F1'} ${num(type.size)} Tf `;
    this.ops.push(
      `BT ${font === this.state.font ? '' : font}${this.fillColour(colour)}${num(x)} ${num(top - type.size)} Td ${glyphs} Tj ET`,
    );
    this.state.font = font;
  }

  /**
   * A line as the font's glyph ids in hex, `<0012002A…>`. Each character is given to pdf-lib once a
   * document (which adds its glyph to the subset and answers its id); a line is then its characters' ids.
   */
  private glyphs(line: string, font: FontName) {
    const ids = this.encoded[font];
    let hex = '<';
    for (const char of line) {
      let id = ids.get(char);
      if (id === undefined) {
        id = this.fonts[font].encodeText(char).toString().slice(1, -1);
        ids.set(char, id);
      }
      hex += id;
    }
    return `${hex}>`;
  }

  /** The operator setting the fill colour, when it changes (the font and colour carry on from one text to the next). */
  private fillColour(colour: Colour) {
    if (colour === this.state.fill) return '';
    this.state.fill = colour;
    return `${colour} rg `;
  }

  private fill(x: number, top: number, width: number, height: number, colour: Colour) {
    this.ops.push(`${this.fillColour(colour)}${num(x)} ${num(top - height)} ${num(width)} ${num(height)} re f`);
  }

  private rule(top: number, colour: Colour = RULE, thickness = 0.6) {
    this.ops.push(`${colour} RG ${num(thickness)} w ${num(MARGIN.x)} ${num(top)} m ${num(PAGE.width - MARGIN.x)} ${num(top)} l S`);
  }

  /** Each page's content, compressed (zlib's, native), into the file. */
  finish() {
    const context = this.pdf.context;
    for (const [page, ops] of this.streams) {
      const stream = context.stream(deflateSync(ops.join('\n'), { level: 3 }), { Filter: 'FlateDecode' });
      page.node.addContentStream(context.register(stream));
    }
  }

  /** Wrapped lines from the current position, starting a page when the next line does not fit. */
  private paragraph(text: string, type: Type, colour: Colour = INK) {
    for (const line of wrapText(this.text(text), type, WIDTH)) {
      if (!this.fits(type.leading)) this.newPage();
      this.draw(line, MARGIN.x, this.y, type, colour);
      this.y -= type.leading;
    }
  }

  letterhead({ name, lines }: DocumentLayout['letterhead']) {
    const top = this.y;
    this.draw(this.text(name), MARGIN.x, top, TYPE.letterhead, BRAND);
    let y = top;
    for (const line of lines) {
      const text = this.text(line);
      this.draw(text, PAGE.width - MARGIN.x - widthOf(text, TYPE.address), y, TYPE.address, MUTED);
      y -= TYPE.address.leading;
    }
    this.y = Math.min(top - TYPE.letterhead.leading, y) - 6;
    this.rule(this.y, BRAND, 1.2);
    this.y -= 18;
  }

  block(block: Block, continued: DocumentLayout['continued']) {
    switch (block.kind) {
      case 'title':
        this.paragraph(block.text, TYPE.title, BRAND);
        this.y -= 8;
        return;
      case 'facts':
        return this.facts(block.rows);
      case 'heading':
        this.heading(block.text, TYPE.body.leading * 2);
        return;
      case 'text': {
        const type = block.style === 'small' ? TYPE.small : block.style === 'strong' ? TYPE.strong : TYPE.body;
        this.paragraph(block.text, type, block.style === 'small' ? MUTED : INK);
        this.y -= 5;
        return;
      }
      case 'table':
        return this.table(block, continued);
    }
  }

  /** A heading kept with at least `next` of what follows it. */
  private heading(text: string, next: number) {
    this.y -= 10;
    const lines = wrapText(this.text(text), TYPE.heading, WIDTH);
    if (!this.fits(lines.length * TYPE.heading.leading + next)) this.newPage();
    this.paragraph(text, TYPE.heading, BRAND);
    this.y -= 3;
  }

  private facts(rows: readonly (readonly [string, string])[]) {
    const labelWidth = Math.max(...rows.map(([label]) => widthOf(this.text(label), TYPE.label))) + 12;
    for (const [label, value] of rows) {
      const lines = wrapText(this.text(value), TYPE.body, WIDTH - labelWidth);
      if (!this.fits(lines.length * TYPE.body.leading)) this.newPage();
      this.draw(this.text(label), MARGIN.x, this.y - 0.5, TYPE.label, MUTED);
      for (const line of lines) {
        this.draw(line, MARGIN.x + labelWidth, this.y, TYPE.body);
        this.y -= TYPE.body.leading;
      }
    }
    this.y -= 6;
  }

  private table(table: Extract<Block, { kind: 'table' }>, continued: DocumentLayout['continued']) {
    const share = table.columns.reduce((sum, column) => sum + column.width, 0);
    let x = MARGIN.x;
    const columns = table.columns.map((column) => {
      const width = (column.width / share) * WIDTH;
      const placed = { ...column, x, width, inner: width - 2 * CELL_PAD.x };
      x += width;
      return placed;
    });
    const layoutRow = (cells: readonly string[], type: Type) => {
      const lines = columns.map((column, index) => wrapText(this.text(cells[index] ?? ''), type, column.inner));
      return { lines, height: Math.max(...lines.map((cell) => cell.length)) * type.leading + 2 * CELL_PAD.y };
    };
    const drawRow = (row: ReturnType<typeof layoutRow>, type: Type, fill: Colour | null) => {
      if (fill) this.fill(MARGIN.x, this.y, WIDTH, row.height, fill);
      columns.forEach((column, index) => {
        let top = this.y - CELL_PAD.y;
        for (const line of row.lines[index]!) {
          const left = column.align === 'right' ? column.x + column.width - CELL_PAD.x - widthOf(line, type) : column.x + CELL_PAD.x;
          this.draw(line, left, top - 0.5, type);
          top -= type.leading;
        }
      });
      this.y -= row.height;
    };
    const head = layoutRow(
      table.columns.map((column) => column.heading),
      TYPE.headCell,
    );
    const rows = table.rows.map((cells) => layoutRow(cells, TYPE.cell));
    const drawHead = () => {
      drawRow(head, TYPE.headCell, HEADER_FILL);
      this.rule(this.y, BRAND, 0.8);
    };

    this.heading(table.heading, head.height + (rows[0]?.height ?? 0));
    drawHead();
    rows.forEach((row, index) => {
      if (!this.fits(row.height)) {
        this.newPage();
        this.paragraph(continued(table.heading), TYPE.heading, BRAND);
        this.y -= 3;
        drawHead();
      }
      drawRow(row, TYPE.cell, index % 2 === 1 ? STRIPE_FILL : null);
    });
    this.rule(this.y);
    this.y -= 8;
  }

  footers(footer: DocumentLayout['footer']) {
    const pages = this.pdf.getPages();
    pages.forEach((page, index) => {
      this.ops = this.streams.get(page)!;
      // The footer is written after the page's content: its state is wherever that left it.
      this.state = { font: '', fill: '' };
      this.rule(FOOTER_TOP);
      const label = this.text(footer.page(index + 1, pages.length));
      const labelWidth = widthOf(label, TYPE.pageLabel);
      this.draw(label, PAGE.width - MARGIN.x - labelWidth, FOOTER_TOP - 6, TYPE.pageLabel, BRAND);
      let top = FOOTER_TOP - 6;
      for (const line of footer.lines) {
        const text = this.text(line);
        const room = WIDTH - labelWidth - 16;
        // A long address (the site's origin is the operator's) prints smaller rather than broken.
        const natural = widthOf(text, TYPE.footer);
        const type = natural > room ? { ...TYPE.footer, size: Math.max(5, (TYPE.footer.size * room) / natural) } : TYPE.footer;
        this.draw(text, MARGIN.x, top, type, MUTED);
        top -= TYPE.footer.leading;
      }
    });
  }
}
