// Renders every export of a few representative jobs (test/support/export-jobs.ts: a cabinet
// with drilling and banding on faces and edges, shaped parts nested, bars, a roll, names in
// several scripts) to PNG under out/exports/<job>/, with Debian's readers: pdftoppm (PDF),
// rsvg-convert (SVG), ezdxf draw (DXF, after ezdxf audit); CSV files as a table in Chromium;
// the PTX saw program replayed by the PTX reader and drawn; the result viewer's page as a
// screenshot. Run with `make render-exports` and look at the pictures.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXPORT_JOBS, type ExportJobName } from '../support/export-jobs.js';
import { submit, waitForResult } from '../support/client.js';
import { parsePtx, readPatterns } from '../support/ptx-reader.js';
import { DEV_KEY, ROOT, startServer, type KerfServer } from '../support/server.js';

const OUT = path.join(ROOT, 'out/exports');
const EXPORTS: [string, string][] = [['pdf', 'layout'], ['pdf', 'labels'], ['svg', 'layout'], ['dxf', 'layout'], ['csv', 'layout'], ['csv', 'parts'], ['csv', 'cuts'], ['csv', 'machining'], ['ptx', 'layout']];

let server: KerfServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The PTX as the saw would cut it: each pattern's landings (parts, offcuts) drawn from the reader's replay. */
function ptxSvg(text: string): string {
  const readings = readPatterns(parsePtx(text));
  const width = Math.max(1, ...readings.map((r) => r.length));
  let y = 0;
  const body: string[] = [];
  for (const r of readings) {
    body.push(`<text x="0" y="${y + width * 0.02}" font-size="${width * 0.018}" font-family="sans-serif">PTX pattern ${r.pattern}: ${r.length} x ${r.width}, type ${r.type}, x${r.qtyRun}, ${r.cutsMade} cuts</text>`);
    const top = y + width * 0.03;
    body.push(`<rect x="0" y="${top}" width="${r.length}" height="${r.width}" fill="#ddd" stroke="#222" stroke-width="${width / 800}"/>`);
    for (const l of r.landings) {
      // Record frame (y up) to picture frame (y down).
      const py = top + r.width - l.y - l.dy;
      body.push(`<rect x="${l.x}" y="${py}" width="${l.dx}" height="${l.dy}" fill="${l.kind === 'part' ? '#f6e7c8' : '#cde8c6'}" stroke="#333" stroke-width="${width / 1200}"/>`);
      body.push(`<text x="${l.x + l.dx / 2}" y="${py + l.dy / 2}" font-size="${Math.min(l.dy * 0.4, l.dx * 0.3, width * 0.02)}" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif">${l.kind === 'part' ? l.index : `X${l.index}`}</text>`);
    }
    y = top + r.width + width * 0.04;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${-width * 0.01} 0 ${width * 1.02} ${Math.max(y, 1)}"><rect x="${-width}" y="0" width="${width * 3}" height="${y}" fill="#fff"/>${body.join('')}</svg>`;
}

it('renders every export of the representative jobs to PNG', async () => {
  fs.rmSync(OUT, { recursive: true, force: true });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const link = /account page \(one-time sign-in link, 24 h\): (\S+)/.exec(server.output())![1];
  await page.goto(link);
  const written: string[] = [];
  try {
    for (const job of Object.keys(EXPORT_JOBS) as ExportJobName[]) {
      const dir = path.join(OUT, job);
      fs.mkdirSync(dir, { recursive: true });
      const id = await submit(server.url, DEV_KEY, EXPORT_JOBS[job]);
      expect((await waitForResult(server.url, DEV_KEY, id)).status).toBe(200);
      for (const [format, option] of EXPORTS) {
        const response = await fetch(`${server.url}/v3/result/export?id=${id}&format=${format}&option=${option}`, { headers: { authorization: DEV_KEY } });
        expect(response.status).toBe(200);
        const bytes = Buffer.from(await response.arrayBuffer());
        const base = path.join(dir, `${job}-${option}`);
        const file = `${base}.${format}`;
        fs.writeFileSync(file, bytes);
        if (format === 'pdf') run('pdftoppm', ['-r', '80', '-png', file, `${base}-pdf`]);
        if (format === 'svg') run('rsvg-convert', ['-w', '1800', '-b', 'white', file, '-o', `${base}-svg.png`]);
        if (format === 'dxf') {
          run('/usr/bin/python3', ['-m', 'ezdxf', 'audit', file]);
          run('/usr/bin/python3', ['-m', 'ezdxf', 'draw', '-o', `${base}-dxf.png`, file]);
        }
        if (format === 'ptx') {
          fs.writeFileSync(`${base}-ptx.svg`, ptxSvg(bytes.toString('utf8')));
          run('rsvg-convert', ['-w', '1800', '-b', 'white', `${base}-ptx.svg`, '-o', `${base}-ptx.png`]);
        }
        if (format === 'csv') {
          const rows: string[][] = parseCsv(bytes, { bom: true, relax_column_count: true });
          await page.setContent(`<style>body{font:12px sans-serif}td{border:1px solid #ccc;padding:2px 5px;white-space:pre}</style><table>${rows.slice(0, 60).map((r, i) => `<tr>${r.map((c) => `<${i ? 'td' : 'th'}>${esc(c)}</${i ? 'td' : 'th'}>`).join('')}</tr>`).join('')}</table>`);
          await page.screenshot({ path: `${base}-csv.png`, fullPage: true });
        }
      }
      await page.goto(`${server.url}/account/jobs/${id}`);
      await page.screenshot({ path: path.join(dir, `${job}-viewer.png`), fullPage: true });
      written.push(...fs.readdirSync(dir).filter((f) => f.endsWith('.png')).map((f) => path.join(dir, f)));
    }
  } finally {
    await browser.close();
  }
  console.log(`${written.length} pictures under ${OUT}:\n${written.map((f) => path.relative(ROOT, f)).join('\n')}`);
  expect(written.length).toBeGreaterThan(0);
});
