// TS facade of the nesting (true-shape) engine (engine-as/nesting, built to build/nesting.wasm).
// It flattens a NestingProblem into one Float64Array, runs it in a fresh WebAssembly instance
// and reads the placements back. The geometry and the search live in the engine.

import { loadWasm, runFlat } from '../common/wasm.js';

// ---- flat layout; mirrors engine-as/nesting/instance.ts and output/encode.ts (change together) ----
const FORMAT_VERSION = 1;
const HEADER_LEN = 12;
const OUT_HEADER = 8;
const SHEET_STRIDE = 2;
const ITEM_STRIDE = 8;

export interface NestingStock {
  /** Usable region of one sheet (trims removed); for rolls x1 caps the length. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Sheets available; -1 = as many as needed. */
  q: number;
  /** Whole sheet area: what using one costs. */
  area: number;
}

export interface NestingType {
  q: number;
  /** Allowed turns in degrees, counter-clockwise. */
  angles: number[];
  /** Mirror images allowed too. */
  mirror: boolean;
  /** Stock rows this part may be cut from. */
  stock: number[];
  /** Ring 0 the outline, then the holes; each ring flat x, y pairs. */
  rings: number[][];
}

export interface NestingProblem {
  stock: NestingStock[];
  types: NestingType[];
  /** Least distance between two parts. */
  gap: number;
  /** Least distance between a part and the usable region's edge. */
  edge: number;
  /** Open-length stock: minimise the used length. */
  roll: boolean;
  seed: number;
  budgetMs: number;
  /** Evaluations before the search stops; 0 = the budget only. */
  effort: number;
  /** Sheets: fit the last sheet's parts into the earlier ones to free it (default true; false for before/after benches). */
  sheetCompaction?: boolean;
}

export interface NestedItem {
  type: number;
  /** Index into NestingSolution.sheets; -1 = not placed. */
  sheet: number;
  angle: number;
  mirror: boolean;
  /** Outline point (x, y) lands at (cos * x' - sin * y + dx, sin * x' + cos * y + dy), x' = mirror ? -x : x. */
  cos: number;
  sin: number;
  dx: number;
  dy: number;
}

export interface NestingSolution {
  sheets: { stock: number; usedLength: number }[];
  /** Type by type, copies in order. */
  items: NestedItem[];
  /** iterations: over every run of the job; runs: searches run side by side (runs.ts), 1 when absent. */
  stats: { iterations: number; elapsedMs: number; timeToBestMs: number; stoppedByDeadline: boolean; runs?: number };
  /** Compaction: on one roll, shorter layouts found and attempts; on sheets, sheets freed. */
  compaction: { improved: number; attempts: number };
  /** How large the engine's memory grew (it is never freed during a solve: engine-as/nesting/asconfig.json). */
  memoryBytes: number;
}

interface NestingExports {
  memory: WebAssembly.Memory;
  inputPtr(n: number): number;
  solveNesting(): number;
  outputPtr(): number;
}

/** build/nesting.wasm, compiled once per thread. */
export function loadNestingModule(): WebAssembly.Module {
  return loadWasm('nesting');
}

export function encodeNesting(p: NestingProblem): Float64Array {
  const values: number[] = [FORMAT_VERSION, p.stock.length, p.types.length, p.gap, p.edge, p.seed, p.budgetMs, p.effort, p.roll ? 1 : 0, p.sheetCompaction === false ? 1 : 0, 0, 0];
  for (const s of p.stock) values.push(s.x0, s.y0, s.x1, s.y1, s.q, s.area);
  for (const t of p.types) {
    values.push(t.q, t.angles.length, t.mirror ? 1 : 0, t.stock.length, ...t.stock, ...t.angles, t.rings.length);
    for (const ring of t.rings) values.push(ring.length / 2, ...ring);
  }
  if (values.length < HEADER_LEN) throw new Error('kerf nesting: bad header');
  return Float64Array.from(values);
}

function decodeNesting(out: Float64Array, startedAt: number, calledAt: number, memoryBytes: number): NestingSolution {
  if (out.length < OUT_HEADER || out[0] !== 0) {
    throw new Error(`kerf nesting engine: input rejected (status ${out.length ? out[0] : 'none'})`);
  }
  const nSheets = out[1]!;
  const nItems = out[2]!;
  const sheets: NestingSolution['sheets'] = [];
  let p = OUT_HEADER;
  for (let s = 0; s < nSheets; s++, p += SHEET_STRIDE) sheets.push({ stock: out[p]!, usedLength: out[p + 1]! });
  const items: NestedItem[] = [];
  for (let i = 0; i < nItems; i++, p += ITEM_STRIDE) {
    items.push({
      type: out[p]!, sheet: out[p + 1]!, angle: out[p + 2]!, mirror: out[p + 3] === 1,
      cos: out[p + 4]!, sin: out[p + 5]!, dx: out[p + 6]!, dy: out[p + 7]!,
    });
  }
  return {
    sheets,
    items,
    stats: {
      iterations: out[3]!,
      elapsedMs: performance.now() - startedAt,
      timeToBestMs: out[4]! + (calledAt - startedAt),
      stoppedByDeadline: out[5] === 1,
    },
    compaction: { improved: out[6]!, attempts: out[7]! },
    memoryBytes,
  };
}

/** Solves one nesting problem in a fresh instance of `module` (see loadNestingModule). */
export function solveNesting(problem: NestingProblem, module: WebAssembly.Module): NestingSolution {
  const startedAt = performance.now();
  const input = encodeNesting(problem);
  const { out, calledAt, memoryBytes } = runFlat<NestingExports>(module, 'nesting engine', input, (engine) => engine.solveNesting());
  return decodeNesting(out, startedAt, calledAt, memoryBytes);
}

/** Where a point of the part's own frame lands on the stock. */
export function placePoint(item: NestedItem, x: number, y: number): { x: number; y: number } {
  const xm = item.mirror ? -x : x;
  return { x: item.cos * xm - item.sin * y + item.dx, y: item.sin * xm + item.cos * y + item.dy };
}
