// bench/layout-fingerprint: one hash per stock and cut type over the layouts of seeded jobs,
// run through calculate() as a pool thread runs them (effort-limited default search, the
// layout check included). A change meant to keep behaviour (a move, a renamed boundary field)
// must print the same hashes before and after: build and run it on both commits and compare.
// The hash covers what a client reads as the layout: each part's id, stock, x, y, rot (and
// nesting's rotation and mirror), each stock entry's id, size and stack, the cuts, offcuts and
// unplaced parts; not the timings.
//
//   FINGERPRINT_JOBS   jobs per kind (default 8; 8 kinds)
//   FINGERPRINT_KINDS  only these kinds, comma-separated (sheet/guillotine,linear,...)
//   FINGERPRINT_EACH=1 a hash per job too
//   node dist/bench/layout-fingerprint.js
import { createHash } from 'node:crypto';
import { calculate } from '../src/engine/calculate.js';
import { calculationRequest, normalizeRequest, type CalcRequest } from '../src/schema/request.js';
import type { ResultRecord } from '../src/schema/result.js';
import { seededRandom } from './seeded.js';

const PER_KIND = Number(process.env.FINGERPRINT_JOBS ?? 8);
const ONLY = process.env.FINGERPRINT_KINDS?.split(',');
const EACH = process.env.FINGERPRINT_EACH === '1';
const trim = { l1: 5, l2: 5, w1: 5, w2: 5 };

type Job = (seed: number, random: () => number) => unknown;
const int = (random: () => number, lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

/** Rectangular rows with a sprinkle of grain and orientation locks. */
function rows(random: () => number, n: number, max: number, materials = ['']) {
  return Array.from({ length: n }, () => {
    const l = int(random, 60, max);
    const w = int(random, 40, Math.round(max * 0.7));
    const lock = random();
    return {
      l, w, q: int(random, 1, 4), material: materials[int(random, 0, materials.length - 1)],
      ...(lock < 0.15 ? { grain: 'l' } : lock < 0.25 ? { orientationLock: 'w' } : {}),
    };
  });
}

/** Sheet stock: one to three sizes, some with trims, grain and an offcut on the rack. */
function sheets(random: () => number, materials = ['']) {
  const sizes = [{ l: 2440, w: 1220 }, { l: 2800, w: 2070 }, { l: 1830, w: 915 }];
  const n = int(random, 1, 3);
  const stock: Record<string, unknown>[] = sizes.slice(0, n).map((s, i) => ({ ...s, material: materials[i % materials.length], ...(i === 1 ? { trim, grain: 'l' } : {}) }));
  if (random() < 0.3) stock.push({ l: 1200, w: 600, q: 1, offcut: true, material: materials[0] });
  return stock;
}

function polygon(random: () => number) {
  const l = int(random, 80, 300);
  const w = int(random, 60, 200);
  const shape = int(random, 0, 2);
  const outline = shape === 0
    ? [{ x: 0, y: 0 }, { x: l, y: 0 }, { x: 0, y: w }]
    : shape === 1
      ? [{ x: 0, y: 0 }, { x: l, y: 0 }, { x: l, y: w / 3 }, { x: l / 3, y: w / 3 }, { x: l / 3, y: w }, { x: 0, y: w }]
      : [{ x: l / 4, y: 0 }, { x: (3 * l) / 4, y: 0 }, { x: l, y: w / 2 }, { x: (3 * l) / 4, y: w }, { x: l / 4, y: w }, { x: 0, y: w / 2 }];
  return { l, w, q: int(random, 1, 5), outline };
}

const KINDS: [string, Job][] = [
  ['sheet/guillotine', (seed, r) => {
    const materials = seed % 2 ? ['oak', 'birch'] : [''];
    return { saw: { bladeWidth: int(r, 0, 5), guillotineOptions: { maxPhase: int(r, 0, 4), headCuts: r() < 0.3 }, options: { seed, leftover: r() < 0.3 } }, stock: sheets(r, materials), parts: rows(r, int(r, 5, 25), 900, materials) };
  }],
  ['sheet/efficiency', (seed, r) => ({ saw: { cutType: 'efficiency', bladeWidth: int(r, 0, 8), options: { seed, leftover: r() < 0.3 } }, stock: sheets(r), parts: rows(r, int(r, 5, 20), 800) })],
  ['sheet/beam', (seed, r) => ({ saw: { cutType: 'beam', bladeWidth: 4.4, stackHeight: int(r, 2, 10), options: { seed } }, stock: sheets(r), parts: rows(r, int(r, 3, 15), 700).map((p) => ({ ...p, q: p.q * int(r, 1, 6) })) })],
  ['roll/guillotine', (seed, r) => ({ saw: { stockType: 'roll', bladeWidth: int(r, 0, 4), guillotineOptions: { maxPhase: int(r, 0, 3) }, options: { seed } }, stock: [{ l: 100000, w: int(r, 900, 1600), trim: r() < 0.5 ? trim : undefined }], parts: rows(r, int(r, 4, 15), 800) })],
  ['roll/efficiency', (seed, r) => ({ saw: { stockType: 'roll', cutType: 'efficiency', bladeWidth: int(r, 0, 4), options: { seed } }, stock: [{ l: 100000, w: int(r, 900, 1600) }], parts: rows(r, int(r, 4, 12), 800) })],
  ['linear', (seed, r) => ({
    saw: { stockType: 'linear', bladeWidth: int(r, 0, 5), options: { seed, leftover: r() < 0.3 } },
    stock: [{ l: 6000, w: 40 }, ...(r() < 0.5 ? [{ l: 4000, w: 40, cost: 1 }] : [])],
    parts: Array.from({ length: int(r, 5, 30) }, () => ({ l: int(r, 100, 2500), w: 40, q: int(r, 1, 8) })),
  })],
  ['sheet/nesting', (seed, r) => ({ saw: { cutType: 'nesting', bladeWidth: int(r, 0, 3), options: { seed } }, stock: [{ l: 1220, w: 610 }], parts: Array.from({ length: int(r, 2, 5) }, () => polygon(r)) })],
  ['roll/nesting', (seed, r) => ({ saw: { stockType: 'roll', cutType: 'nesting', bladeWidth: int(r, 0, 3), options: { seed } }, stock: [{ l: 100000, w: int(r, 500, 900) }], parts: Array.from({ length: int(r, 2, 4) }, () => polygon(r)) })],
];

function canonical(input: unknown): CalcRequest {
  const normalized = normalizeRequest(calculationRequest.parse(input));
  if ('issues' in normalized) throw new Error(JSON.stringify(normalized.issues));
  return normalized.request;
}

/** The layout as a client reads it, without timings. */
function layoutOf(record: ResultRecord): unknown {
  return {
    stock: record.stock.map((s) => [s.id, s.l, s.w, s.stack, s.used]),
    parts: record.parts.map((p) => [p.id, p.stock, p.x, p.y, p.rot, p.rotation, p.mirrored]),
    cuts: record.cuts,
    offcuts: record.offcuts,
    unusable: record.unusableParts,
  };
}

const all = createHash('sha256');
const refused: string[] = [];
/** Jobs the clock stopped: their layouts may differ from run to run (none is expected). */
const clocked: string[] = [];
for (const [kind, job] of KINDS.filter(([kind]) => !ONLY || ONLY.includes(kind))) {
  const hash = createHash('sha256');
  let placed = 0;
  for (let k = 0; k < PER_KIND; k++) {
    const seed = 1000 + k;
    const request = canonical(job(seed, seededRandom(seed * 7919 + kind.length)));
    try {
      // The operator's ceiling well above any of these jobs: the effort limit ends every search, so the layout depends on nothing but the request.
      const record = await calculate(request, { jobId: 1, budgetMs: 120_000, minOffcut: 0, defaultSearchMs: 120_000 });
      if (record.metadata.engine?.stoppedByDeadline) clocked.push(`${kind} seed ${seed}`);
      const layout = JSON.stringify(layoutOf(record));
      hash.update(layout);
      if (EACH) console.log(`  ${kind} seed ${seed}  ${createHash('sha256').update(layout).digest('hex').slice(0, 16)}  runs ${JSON.stringify(record.metadata.engine)}`);
      placed += record.parts.filter((p) => p.stock !== null).length;
    } catch (error) {
      // A refused job (its layout failed the service's check, say) is part of the behaviour too.
      const message = error instanceof Error ? error.message : String(error);
      hash.update(`refused: ${message}`);
      refused.push(`${kind} seed ${seed}: ${message}`);
    }
  }
  const digest = hash.digest('hex');
  all.update(digest);
  console.log(`${kind.padEnd(17)} ${PER_KIND} jobs  ${String(placed).padStart(5)} parts placed  ${digest.slice(0, 16)}`);
}
console.log(`${'all'.padEnd(17)} ${PER_KIND * KINDS.length} jobs  ${all.digest('hex').slice(0, 16)}`);
for (const line of refused) console.log(`refused: ${line}`);
for (const line of clocked) console.log(`stopped by the clock (not comparable): ${line}`);
