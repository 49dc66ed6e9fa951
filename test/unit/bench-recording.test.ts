// Bench figures in the docs come from committed recordings (bench/results/*.json): the tables a
// bench printed are read back as they were, and every marked docs section is what its recording
// makes (run `make bench-docs` after recording a bench).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { docsSection, markdownTables, type BenchRecording } from '../../bench/recording.js';
import { docsPages, recordings, withRecordings } from '../../bench/write-docs.js';

const printed = [
  'bench/x: 3 jobs, seed 1',
  '',
  '| case | ours | anchor | ratio |',
  '|---|---:|---:|---:|',
  '| a | 10 | 20 | 0.50 |',
  '| b | 7 | 7 | 1.00 |',
  '',
  'mean ratio 0.75',
  '| lone | table |',
  '|:-|-:|',
  '| 1 | 2 |',
].join('\n');

describe('bench recordings', () => {
  it('reads every table a bench printed, with its caption', () => {
    const tables = markdownTables(printed);
    expect(tables).toEqual([
      { caption: 'bench/x: 3 jobs, seed 1', header: ['case', 'ours', 'anchor', 'ratio'], rows: [['a', '10', '20', '0.50'], ['b', '7', '7', '1.00']] },
      { caption: 'mean ratio 0.75', header: ['lone', 'table'], rows: [['1', '2']] },
    ]);
  });

  it('writes a docs section that names the command, build and machine, and only touches marked sections', () => {
    const r: BenchRecording = {
      bench: 'x', command: 'make bench-x', settings: { BENCH_X_SEED: '1' }, startedAt: '2026-11-26T21:00:00.000Z', seconds: 12.5,
      build: { commit: 'abc123', uncommittedChanges: false },
      machine: { cpu: 'Some CPU', cores: 2, memoryGiB: 24, node: 'v20.20.2', loadAverage: { before: 0.5, after: 1.5 } },
      tables: markdownTables(printed), output: printed,
    };
    const section = docsSection(r);
    expect(section).toContain('`BENCH_X_SEED=1 make bench-x`');
    expect(section).toContain('build abc123');
    expect(section).toContain('| a | 10 | 20 | 0.50 |');
    const page = 'intro\n<!-- bench:x -->\nold table\n<!-- /bench:x -->\n<!-- bench:y -->\nkept\n<!-- /bench:y -->\n';
    expect(withRecordings(page, new Map([['x', r]]))).toBe(`intro\n<!-- bench:x -->\n${section}\n<!-- /bench:x -->\n<!-- bench:y -->\nkept\n<!-- /bench:y -->\n`);
  });

  it('the docs show the committed recordings as they are', () => {
    const found = recordings();
    for (const page of docsPages()) {
      const text = fs.readFileSync(page, 'utf8');
      expect(withRecordings(text, found), `${page}: run make bench-docs`).toBe(text);
    }
  });
});
