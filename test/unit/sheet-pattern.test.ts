// The best-single-sheet search (engine-as/guillotine/sheet-pattern.ts), driven through a test
// entry compiled on its own (engine-as/guillotine/sheet-pattern-probe.ts): on generated part
// sets small enough for a brute force over every subset and every 3-stage arrangement, it
// finds a sheet of the brute force's part area; every pattern it writes is a valid 3-stage
// tree that uses no part more often than the demand allows.

import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../../bench/seeded.js';

interface Probe {
  addType(l: number, w: number, q: number, rotMask: number): void;
  solve(X: number, Y: number, alongIsX: number, kerf: number, nodeLimit: number): number;
  complete(): number;
  demandOf(t: number): number;
  nodeCount(): number;
  nodeValue(i: number): number;
}

interface PartType { l: number; w: number; q: number; mask: number }

const STRIDE = 8;
let module: WebAssembly.Module;

beforeAll(() => {
  const out = join(mkdtempSync(join(tmpdir(), 'kerf-sheet-pattern-')), 'probe.wasm');
  execFileSync('npx', ['asc', 'engine-as/guillotine/sheet-pattern-probe.ts', '--outFile', out, '--runtime', 'incremental', '--optimizeLevel', '1']);
  module = new WebAssembly.Module(readFileSync(out));
});

function probe(types: PartType[]): Probe {
  const env = { abort: () => { throw new Error('abort in the sheet pattern search'); }, now: () => 0 };
  const p = new WebAssembly.Instance(module, { env }).exports as unknown as Probe;
  for (const t of types) p.addType(t.l, t.w, t.q, t.mask);
  return p;
}

/** Orientations of a part as [along, across] extents (first cuts along x: along = x). */
function orientations(t: PartType, alongIsX: boolean): [number, number][] {
  const out: [number, number][] = [];
  for (const r of [0, 1]) {
    if (!(t.mask & (1 << r))) continue;
    const [x, y] = r === 0 ? [t.l, t.w] : [t.w, t.l];
    out.push(alongIsX ? [x, y] : [y, x]);
  }
  return out;
}

/** Set partitions of items[] into blocks (each block holds the first item still open). */
function* partitions<T>(items: T[]): Generator<T[][]> {
  if (items.length === 0) {
    yield [];
    return;
  }
  const [first, ...rest] = items;
  for (let m = 0; m < 1 << rest.length; m++) {
    const block = [first!, ...rest.filter((_, i) => m & (1 << i))];
    const others = rest.filter((_, i) => !(m & (1 << i)));
    for (const p of partitions(others)) yield [block, ...p];
  }
}

/** Every (width, height) a stack of these parts can take: widest part, heights and kerfs summed. */
function stackShapes(parts: [number, number][][], kerf: number): [number, number][] {
  let shapes: [number, number][] = [[0, -kerf]];
  for (const opts of parts) shapes = shapes.flatMap(([w, h]) => opts.map(([a, c]): [number, number] => [Math.max(w, a), h + kerf + c]));
  return shapes;
}

/** Least height of a strip of these parts no longer than A (Infinity when none). */
function stripHeight(parts: [number, number][][], A: number, kerf: number): number {
  let best = Infinity;
  for (const stacks of partitions(parts)) {
    const shapes = stacks.map((s) => stackShapes(s, kerf));
    const pick = (i: number, along: number, h: number): void => {
      if (along > A + 1e-9 || h >= best) return;
      if (i === shapes.length) {
        best = h;
        return;
      }
      for (const [w, sh] of shapes[i]!) pick(i + 1, along + (i > 0 ? kerf : 0) + w, Math.max(h, sh));
    };
    pick(0, 0, 0);
  }
  return best;
}

/** Whether these parts fit one sheet A x B in 3 stages: strips stacked across, each as high as its highest stack. */
function fitsSheet(parts: [number, number][][], A: number, B: number, kerf: number): boolean {
  for (const strips of partitions(parts)) {
    let across = -kerf;
    for (const s of strips) across += kerf + stripHeight(s, A, kerf);
    if (across <= B + 1e-9) return true;
  }
  return false;
}

/** Brute force: the most part area one sheet holds. */
function bruteForce(types: PartType[], X: number, Y: number, alongIsX: boolean, kerf: number): number {
  const items = types.flatMap((t) => Array.from({ length: t.q }, () => t));
  const [A, B] = alongIsX ? [X, Y] : [Y, X];
  let best = 0;
  for (let m = 1; m < 1 << items.length; m++) {
    const chosen = items.filter((_, i) => m & (1 << i));
    const area = chosen.reduce((s, t) => s + t.l * t.w, 0);
    if (area <= best) continue;
    if (fitsSheet(chosen.map((t) => orientations(t, alongIsX)), A, B, kerf)) best = area;
  }
  return best;
}

/** Checks the written pattern: a 3-stage tree over X x Y, kerfs between children, parts as the types say; returns part area and parts per type. */
function checkPattern(p: Probe, types: PartType[], X: number, Y: number, alongIsX: boolean, kerf: number): { area: number; used: number[] } {
  const n = p.nodeCount();
  const node = (i: number) => Array.from({ length: STRIDE }, (_, k) => p.nodeValue(i * STRIDE + k));
  const used = types.map(() => 0);
  let area = 0;
  let next = 0;
  const visit = (stage: number, x: number, y: number, l: number, w: number): void => {
    const [kind, dir, item, nx, ny, nl, nw, children] = node(next++) as [number, number, number, number, number, number, number, number];
    expect(nx).toBeCloseTo(x, 9);
    expect(ny).toBeCloseTo(y, 9);
    if (kind === 1) {
      const t = types[item]!;
      expect(t.mask & (1 << dir)).not.toBe(0);
      expect([nl, nw]).toEqual(dir === 0 ? [t.l, t.w] : [t.w, t.l]);
      expect(nl).toBeLessThanOrEqual(l + 1e-9);
      expect(nw).toBeLessThanOrEqual(w + 1e-9);
      used[item]!++;
      area += nl * nw;
      return;
    }
    expect(stage).toBeLessThanOrEqual(3);
    // Stage 1 runs along the first cuts, then the directions alternate.
    expect(dir).toBe((stage % 2 === 1) === alongIsX ? 0 : 1);
    expect([nl, nw]).toEqual([l, w]);
    expect(children).toBeGreaterThan(0);
    let pos = dir === 0 ? y : x;
    for (let c = 0; c < children; c++) {
      const [ckind, , , cx, cy, cl, cw] = node(next) as [number, number, number, number, number, number, number];
      // A cut child spans its band; a part may be shorter along it (a trim cut takes it to size).
      const span = dir === 0 ? l : w;
      if (ckind === 0) expect(dir === 0 ? cl : cw).toBeCloseTo(span, 9);
      if (dir === 0) visit(stage + 1, x, pos, ckind === 0 ? l : cl, cw);
      else visit(stage + 1, pos, y, cl, ckind === 0 ? w : cw);
      pos = (dir === 0 ? cy + cw : cx + cl) + kerf;
      void cx;
    }
    expect(pos - kerf).toBeLessThanOrEqual((dir === 0 ? y + w : x + l) + 1e-9);
  };
  if (n > 0) visit(1, 0, 0, X, Y);
  expect(next).toBe(n);
  return { area, used };
}

function randomTypes(seed: number): { types: PartType[]; X: number; Y: number; kerf: number; alongIsX: boolean } {
  const r = seededRandom(seed);
  const X = 20 + Math.floor(r() * 10);
  const Y = 15 + Math.floor(r() * 10);
  const kerf = r() < 0.5 ? 0 : 1;
  const types: PartType[] = [];
  let items = 0;
  while (items < 7) {
    const q = Math.min(7 - items, r() < 0.3 ? 2 : 1);
    const k = r();
    types.push({ l: 3 + Math.floor(r() * 12), w: 3 + Math.floor(r() * 10), q, mask: k < 0.6 ? 1 : k < 0.8 ? 3 : 2 });
    items += q;
  }
  return { types, X, Y, kerf, alongIsX: r() < 0.7 };
}

describe('best single sheet (3 stages, each part once)', () => {
  it('finds the part area a brute force over every subset finds, in a valid pattern within the demand', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { types, X, Y, kerf, alongIsX } = randomTypes(seed);
      const p = probe(types);
      const area = p.solve(X, Y, alongIsX ? 1 : 0, kerf, 1_000_000);
      expect(p.complete()).toBe(1);
      const check = checkPattern(p, types, X, Y, alongIsX, kerf);
      expect(check.area).toBe(area);
      types.forEach((t, i) => {
        expect(check.used[i]).toBeLessThanOrEqual(t.q);
        expect(p.demandOf(i)).toBe(t.q - check.used[i]!);
      });
      expect(area, `seed ${seed}`).toBe(bruteForce(types, X, Y, alongIsX, kerf));
    }
  });

  it('stops at its node limit with a valid pattern, and the next sheet takes only what is left', () => {
    const types: PartType[] = Array.from({ length: 12 }, (_, i) => ({ l: 4 + (i % 5), w: 3 + ((i * 7) % 6), q: 2, mask: 3 }));
    const p = probe(types);
    const first = p.solve(30, 20, 1, 1, 50);
    expect(p.complete()).toBe(0);
    const a = checkPattern(p, types, 30, 20, true, 1);
    expect(a.area).toBe(first);
    const second = p.solve(30, 20, 1, 1, 50);
    const b = checkPattern(p, types, 30, 20, true, 1);
    expect(b.area).toBe(second);
    types.forEach((t, i) => expect(a.used[i]! + b.used[i]! + p.demandOf(i)).toBe(t.q));
  });
});
