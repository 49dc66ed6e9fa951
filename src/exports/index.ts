// The export formats: content type, file extension, the options each takes, and how it is
// made from the stored result record. `layout` (the default) is accepted by every format.
import { renderCsv } from './csv.js';
import { renderDxf } from './dxf.js';
import type { ExportRecord } from './model.js';
import { renderPdf } from './pdf.js';
import { renderPtx } from './ptx.js';
import { renderSvg } from './svg.js';

export interface ExportFormat {
  contentType: string;
  extension: string;
  options: readonly string[];
  render(record: ExportRecord, option: string): Promise<Buffer | string> | Buffer | string;
}

export const DEFAULT_OPTION = 'layout';

export type FormatName = 'pdf' | 'csv' | 'dxf' | 'svg' | 'ptx';

export const FORMATS: Record<FormatName, ExportFormat> = {
  pdf: { contentType: 'application/pdf', extension: 'pdf', options: ['layout', 'labels'], render: renderPdf },
  csv: { contentType: 'text/csv; charset=utf-8; header=present', extension: 'csv', options: ['layout', 'parts', 'cuts', 'machining'], render: renderCsv },
  dxf: { contentType: 'image/vnd.dxf', extension: 'dxf', options: ['layout'], render: renderDxf },
  svg: { contentType: 'image/svg+xml; charset=utf-8', extension: 'svg', options: ['layout'], render: renderSvg },
  ptx: { contentType: 'text/plain; charset=us-ascii', extension: 'ptx', options: ['layout'], render: renderPtx },
};

export const formatNames = Object.keys(FORMATS) as FormatName[];

export function isFormat(name: string): name is FormatName {
  return Object.hasOwn(FORMATS, name);
}

export { parseRecord } from './model.js';
