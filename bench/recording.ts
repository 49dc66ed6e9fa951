// The shape of a bench recording (bench/results/<name>.json) and the two ways it is read: the
// tables found in a bench's printed output, and the docs section made from a recording.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root, from bench/ (tests) or dist/bench/ (make): the nearest package.json up. */
export const ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
})();

export interface MarkdownTable {
  /** The line printed just before the table, when it was text (a bench's caption). */
  caption: string;
  header: string[];
  rows: string[][];
}

export interface BenchRecording {
  bench: string;
  command: string;
  settings: Record<string, string | undefined>;
  startedAt: string;
  seconds: number;
  build: { commit: string; uncommittedChanges: boolean };
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; loadAverage: { before: number; after: number } };
  tables: MarkdownTable[];
  output: string;
}

const cells = (line: string) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
const isRule = (line: string) => /^\|(\s*:?-+:?\s*\|)+\s*$/.test(line.trim());

/** Every markdown table in a bench's output: a header line, a rule line, then rows. */
export function markdownTables(output: string): MarkdownTable[] {
  const lines = output.split('\n');
  const tables: MarkdownTable[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i].trim().startsWith('|') || !isRule(lines[i + 1])) continue;
    let caption = '';
    for (let k = i - 1; k >= 0 && !caption; k--) {
      if (lines[k].trim().startsWith('|')) break;
      caption = lines[k].trim();
    }
    const table: MarkdownTable = { caption, header: cells(lines[i]), rows: [] };
    let j = i + 2;
    for (; j < lines.length && lines[j].trim().startsWith('|'); j++) table.rows.push(cells(lines[j]));
    tables.push(table);
    i = j - 1;
  }
  return tables;
}

/** A recording as markdown: where and when it was measured, then its tables as printed. */
export function docsSection(r: BenchRecording): string {
  const settings = Object.entries(r.settings).map(([k, v]) => `${k}=${v}`).join(' ');
  const build = `${r.build.commit}${r.build.uncommittedChanges ? ' with uncommitted changes' : ''}`;
  const head =
    `Recorded ${r.startedAt.slice(0, 16).replace('T', ' ')} UTC by \`${settings ? `${settings} ` : ''}${r.command}\` ` +
    `(${r.seconds} s), build ${build}, ${r.machine.cores} x ${r.machine.cpu}, ${r.machine.memoryGiB} GiB, Node ${r.machine.node}, ` +
    `one-minute load ${r.machine.loadAverage.before} before and ${r.machine.loadAverage.after} after.`;
  const tables = r.tables.map((t) => {
    const caption = t.caption ? `${t.caption}\n\n` : '';
    const rule = `|${t.header.map(() => '---').join('|')}|`;
    return `${caption}| ${t.header.join(' | ')} |\n${rule}\n${t.rows.map((row) => `| ${row.join(' | ')} |`).join('\n')}`;
  });
  return [head, ...tables].join('\n\n');
}
