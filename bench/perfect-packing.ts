// bench/perfect-packing: which zero-waste instances have a guillotine perfect packing at all.
// The zero-waste sets give the optimum of a strip as the height of a perfect packing; with
// guillotine cuts that height is reachable only when some guillotine cut tree tiles the strip
// exactly. This decides it by exhaustive search (no engine involved), so the guillotine rows
// of bench/engine can be read against what guillotine cuts can reach.
//
// Exact method: a set S of items tiles a w x h rectangle with guillotine cuts when it is one
// item of that size (either way round) or some cut splits it into two subsets that tile the
// two pieces; the piece sizes follow from the subset's area. Memoised over (subset, width);
// every subset split is tried with the lowest item in the first part (the other order is
// the mirror image). Feasible for up to about 20 items.
//
// Environment:
//   BENCH_PERFECT_GROUPS  comma list of zero-waste groups (default hopper2000,hopper2001a)
//   BENCH_PERFECT_MATCH   regular expression on instance names (default all)
//   BENCH_PERFECT_MAX     largest item count tried (default 20)
//   BENCH_ENGINE_DIR      instance root, default /work/shared/bench/instances
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const DIR = process.env.BENCH_ENGINE_DIR ?? '/work/shared/bench/instances';
const GROUPS = (process.env.BENCH_PERFECT_GROUPS ?? 'hopper2000,hopper2001a').split(',');
const MATCH = new RegExp(process.env.BENCH_PERFECT_MATCH ?? '');
const MAX_ITEMS = Number(process.env.BENCH_PERFECT_MAX ?? 20);

function rows(file: string): number[][] {
  const [, ...lines] = readFileSync(file, 'utf8').trim().split(/\r?\n/);
  return lines.map((l) => l.split(',').map(Number));
}

/** Whether the items (w x h each, rotation allowed) tile W x H exactly with guillotine cuts. */
export function guillotineTiles(items: [number, number][], W: number, H: number): { tiles: boolean; states: number } {
  const n = items.length;
  const area = items.map(([w, h]) => w * h);
  const memo = new Map<number, boolean>();
  const areaOf = (S: number): number => {
    let a = 0;
    for (let i = 0; i < n; i++) if ((S >> i) & 1) a += area[i]!;
    return a;
  };
  const fits = (i: number, w: number, h: number): boolean => {
    const [a, b] = items[i]!;
    return (a <= w && b <= h) || (b <= w && a <= h);
  };
  const tile = (S: number, w: number, h: number): boolean => {
    const key = S * 65536 + w;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let ok = false;
    if ((S & (S - 1)) === 0) {
      const [a, b] = items[31 - Math.clz32(S)]!;
      ok = (a === w && b === h) || (a === h && b === w);
    } else {
      let allFit = true;
      for (let i = 0; i < n && allFit; i++) if ((S >> i) & 1) allFit = fits(i, w, h);
      const low = S & -S;
      const rest = S ^ low;
      for (let sub = rest; allFit && !ok; sub = (sub - 1) & rest) {
        const T = sub | low;
        if (T !== S) {
          const a = areaOf(T);
          if (a % h === 0 && a / h < w && tile(T, a / h, h) && tile(S ^ T, w - a / h, h)) ok = true;
          else if (a % w === 0 && a / w < h && tile(T, w, a / w) && tile(S ^ T, w, h - a / w)) ok = true;
        }
        if (sub === 0) break;
      }
    }
    memo.set(key, ok);
    return ok;
  };
  const total = areaOf(2 ** n - 1);
  const tiles = total === W * H && tile(2 ** n - 1, W, H);
  return { tiles, states: memo.size };
}

function main(): void {
  console.log('### Guillotine perfect packings of the zero-waste instances (exhaustive)\n');
  console.log('| instance | items | strip | guillotine perfect packing | states | ms |');
  console.log('|---|---|---|---|---|---|');
  let yes = 0;
  let no = 0;
  for (const g of GROUPS) {
    const root = join(DIR, 'rect-strip-zero-waste', g);
    const names = readdirSync(root).filter((f) => f.endsWith('_items.csv')).map((f) => f.slice(0, -10)).filter((n) => MATCH.test(n));
    names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    for (const name of names) {
      const items = rows(join(root, `${name}_items.csv`)).map((r) => [r[1]!, r[2]!] as [number, number]);
      if (items.length > MAX_ITEMS) continue;
      const bin = rows(join(root, `${name}_bins.csv`))[0]!;
      const started = performance.now();
      const { tiles, states } = guillotineTiles(items, bin[1]!, bin[2]!);
      if (tiles) yes++;
      else no++;
      console.log(`| ${g}/${name} | ${items.length} | ${bin[1]} x ${bin[2]} | ${tiles ? 'yes' : 'no'} | ${states} | ${(performance.now() - started).toFixed(0)} |`);
    }
  }
  console.log(`\n${yes} with a guillotine perfect packing, ${no} without (up to ${MAX_ITEMS} items).`);
}

main();
