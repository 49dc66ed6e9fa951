// `make bench-docs`: the tables in docs/ between `<!-- bench:<name> -->` and `<!-- /bench:<name> -->`
// are rewritten from bench/results/<name>.json, so the docs show what a recorded run printed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { docsSection, ROOT, type BenchRecording } from './recording.js';

export function recordings(root = ROOT): Map<string, BenchRecording> {
  const dir = path.join(root, 'bench/results');
  const found = new Map<string, BenchRecording>();
  if (!fs.existsSync(dir)) return found;
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const r = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as BenchRecording;
    found.set(r.bench, r);
  }
  return found;
}

export function docsPages(root = ROOT): string[] {
  const pages: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) pages.push(full);
    }
  };
  walk(path.join(root, 'docs'));
  return pages.sort();
}

const MARKED = /(<!-- bench:([\w-]+) -->)([\s\S]*?)(<!-- \/bench:\2 -->)/g;

/** A page with every marked section replaced by its recording's (unknown names left alone). */
export function withRecordings(page: string, found: Map<string, BenchRecording>): string {
  return page.replace(MARKED, (whole, open: string, name: string, _body: string, close: string) => {
    const r = found.get(name);
    return r ? `${open}\n${docsSection(r)}\n${close}` : whole;
  });
}

function main(): void {
  const found = recordings();
  const used = new Set<string>();
  for (const page of docsPages()) {
    const text = fs.readFileSync(page, 'utf8');
    for (const m of text.matchAll(MARKED)) used.add(m[2]);
    const updated = withRecordings(text, found);
    if (updated !== text) {
      fs.writeFileSync(page, updated);
      console.log(`updated ${path.relative(ROOT, page)}`);
    }
  }
  for (const name of found.keys()) if (!used.has(name)) console.log(`bench/results/${name}.json has no <!-- bench:${name} --> section in docs/`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
