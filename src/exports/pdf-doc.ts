// pdfkit plumbing shared by the report and the label sheets: a document that collects into a
// Buffer, text the standard fonts can show, single-line text placed by its centre or left end.
import PDFDocument from 'pdfkit';

export type Doc = PDFKit.PDFDocument;

export const A4 = { long: 841.89, short: 595.28 };

export interface PagedDoc {
  doc: Doc;
  /** A new page, footed "page i of n" (n is known up front, so no page is held back for it). */
  addPage(layout: 'portrait' | 'landscape'): void;
  done: Promise<Buffer>;
}

export function newDoc(title: string, pages: number, footer: (page: number, pages: number) => string): PagedDoc {
  // Margins stay 0 and pages are added by hand: pdfkit adds a page by itself when text runs
  // past the bottom margin, which would break the page layout.
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0, info: { Title: title, Creator: 'kerf', Producer: 'kerf' } });
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

// The standard 14 fonts use WinAnsi: Latin-1 plus these. Anything else would print as junk.
const WIN_ANSI_EXTRA = new Set([...'€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ']);

export function printable(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (code < 0x20) out += ' ';
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

/** One line of text whose capital letters are centred on y. Returns the width printed. */
export function line(doc: Doc, text: string, x: number, y: number, o: TextOptions): number {
  doc.font(o.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(o.size).fillColor(o.color ?? '#111111');
  let s = printable(text);
  if (o.maxWidth !== undefined && doc.widthOfString(s) > o.maxWidth) {
    // The longest prefix that fits with the ellipsis, found by halving.
    let lo = 0, hi = s.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (doc.widthOfString(`${s.slice(0, mid)}…`) <= o.maxWidth) lo = mid;
      else hi = mid - 1;
    }
    s = `${s.slice(0, lo)}…`;
  }
  const width = doc.widthOfString(s);
  const left = o.align === 'center' ? x - width / 2 : o.align === 'right' ? x - width : x;
  // pdfkit places the top of the line box; Helvetica's caps run from 0.718 em under it to the baseline.
  doc.text(s, left, y - o.size * 0.359, { lineBreak: false });
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

