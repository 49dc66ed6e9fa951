// pdfkit plumbing shared by the report and the label sheets: a document that collects into a
// Buffer, one embedded font for every script a shop writes part names in, single-line text
// placed by its centre or left end.
// The font is WenQuanYi Micro Hei (Debian fonts-wqy-microhei, Apache 2.0 or GPLv3 with the
// font exception; `make` installs it): Latin with its accents, Greek, Cyrillic and CJK in one
// face. pdfkit embeds only the glyphs a document uses. It has no bold, so bold is drawn by
// stroking the letters as well. KERF_PDF_FONT names another file (a .ttf, or a .ttc whose
// first face is used); without a font file the PDFs fall back to Helvetica, which prints
// only Western European letters (the others as '?').
import fs from 'node:fs';
import PDFDocument from 'pdfkit';

export type Doc = PDFKit.PDFDocument;

export const A4 = { long: 841.89, short: 595.28 };

export interface PagedDoc {
  doc: Doc;
  /** A new page, footed "page i of n" (n is known up front, so no page is held back for it). */
  addPage(layout: 'portrait' | 'landscape'): void;
  done: Promise<Buffer>;
}

export const DEFAULT_FONT_FILE = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';
const FONT = 'kerf-text';

let fontFile: { bytes: Buffer; face?: string } | null | undefined;

/** The font file's bytes, read once; null when it is missing. */
export function unicodeFont(): { bytes: Buffer; face?: string } | null {
  if (fontFile === undefined) {
    const file = process.env.KERF_PDF_FONT || DEFAULT_FONT_FILE;
    try {
      const bytes = fs.readFileSync(file);
      fontFile = { bytes, face: file === DEFAULT_FONT_FILE ? 'WenQuanYiMicroHei' : undefined };
    } catch {
      fontFile = null;
    }
  }
  return fontFile;
}

const embedded = new WeakSet<Doc>();

export function newDoc(title: string, pages: number, footer: (page: number, pages: number) => string): PagedDoc {
  // Margins stay 0 and pages are added by hand: pdfkit adds a page by itself when text runs
  // past the bottom margin, which would break the page layout.
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0, info: { Title: title, Creator: 'kerf', Producer: 'kerf' } });
  const font = unicodeFont();
  if (font) {
    if (font.face) doc.registerFont(FONT, font.bytes, font.face);
    else doc.registerFont(FONT, font.bytes);
    embedded.add(doc);
  }
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  let page = 0;
  const addPage = (layout: 'portrait' | 'landscape') => {
    doc.addPage({ size: 'A4', layout, margin: 0 });
    page++;
    const { width, height } = doc.page;
    line(doc, footer(page, pages), width / 2, height - 18, { size: 7, color: '#666666', align: 'center' });
  };
  return { doc, addPage, done };
}

// Helvetica (the fallback) uses WinAnsi: Latin-1 plus these. Anything else would print as junk.
const WIN_ANSI_EXTRA = new Set([...'€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ']);

export function printable(text: string, unicode: boolean): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += ' ';
    else if (unicode || code <= 0x7e || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else out += '?';
  }
  return out;
}

export interface TextOptions {
  size: number;
  bold?: boolean;
  color?: string;
  /** Where x is: the left end (default), the middle or the right end of the line. */
  align?: 'left' | 'center' | 'right';
  /** Longest the line may be; longer text is cut with an ellipsis. */
  maxWidth?: number;
}

/** Selects the text font at `size`; returns pdfkit's text options for (faux) bold. */
function useFont(doc: Doc, size: number, bold: boolean | undefined, color: string): PDFKit.Mixins.TextOptions {
  const unicode = embedded.has(doc);
  doc.font(unicode ? FONT : bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size).fillColor(color);
  if (!(unicode && bold)) return { lineBreak: false };
  doc.lineWidth(size * 0.045).strokeColor(color);
  return { lineBreak: false, fill: true, stroke: true };
}

/** One line of text whose capital letters are centred on y. Returns the width printed. */
export function line(doc: Doc, text: string, x: number, y: number, o: TextOptions): number {
  const options = useFont(doc, o.size, o.bold, o.color ?? '#111111');
  let s = printable(text, embedded.has(doc));
  if (o.maxWidth !== undefined && doc.widthOfString(s) > o.maxWidth) {
    // The longest prefix that fits with the ellipsis, found by halving.
    const chars = [...s];
    let lo = 0, hi = chars.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (doc.widthOfString(`${chars.slice(0, mid).join('')}…`) <= o.maxWidth) lo = mid;
      else hi = mid - 1;
    }
    s = `${chars.slice(0, lo).join('')}…`;
  }
  const width = doc.widthOfString(s);
  const left = o.align === 'center' ? x - width / 2 : o.align === 'right' ? x - width : x;
  // pdfkit places the top of the line box, the baseline one ascender under it: put the middle of the capitals on y.
  const font = (doc as unknown as { _font: { ascender: number; capHeight: number } })._font;
  const top = y + ((font.capHeight / 2 - font.ascender) / 1000) * o.size;
  doc.text(s, left, top, options);
  return width;
}

/** A table row of cells at fixed column lefts; numeric columns right-aligned. */
export interface Column { title: string; width: number; align?: 'left' | 'right' }

export function tableRow(doc: Doc, columns: Column[], cells: string[], x: number, y: number, o: { size: number; bold?: boolean; color?: string }): void {
  let left = x;
  columns.forEach((c, i) => {
    const cell = cells[i] ?? '';
    // Right-aligned cells end short of their column, left-aligned ones start a little into it.
    if (c.align === 'right') line(doc, cell, left + c.width - 8, y, { ...o, align: 'right', maxWidth: c.width - 10 });
    else line(doc, cell, left + (i === 0 ? 0 : 4), y, { ...o, maxWidth: c.width - 8 });
    left += c.width;
  });
}

