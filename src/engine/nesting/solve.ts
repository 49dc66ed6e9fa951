// TS facade of the nesting (true-shape) engine (engine-as/nesting, built to build/nesting.wasm).
// It flattens a NestingProblem into one Float64Array, runs it in a fresh WebAssembly instance
// and reads the placements back. The geometry and the search live in the engine.

import { loadWasm, runFlat } from '../common/wasm.js';
// The flat format, declared once for the engine and this boundary.
import * as F from '../../../engine-as/nesting/format.js';

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
  /**
   * 'effort' (default): stop at the effort limit. 'stall': the service's default policy, past
   * the effort limit while the search still improves, until as much work again as the last
   * improvement took finds nothing, at most 8 effort limits (engine-as/nesting/search/work-limit.ts).
   */
  stopRule?: 'effort' | 'stall';
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

/** What ended a nesting search: its effort limit, the clock (deadline), or the stall rule. */
export type NestingStop = 'effort' | 'clock' | 'stalled';

export interface NestingSolution {
  sheets: { stock: number; usedLength: number }[];
  /** Type by type, copies in order. */
  items: NestedItem[];
  /**
   * iterations: over every run of the job; stop: what ended the search (stalled: the stall
   * rule, before its hard stop and the clock); runs: searches of the job (runs.ts), 1 when absent.
   */
  stats: { iterations: number; elapsedMs: number; timeToBestMs: number; stop: NestingStop; runs?: number };
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
  const values: number[] = new Array<number>(F.HEADER_LEN).fill(0);
  values[F.H_VERSION] = F.FORMAT_VERSION;
  values[F.H_NSTOCK] = p.stock.length;
  values[F.H_NTYPES] = p.types.length;
  values[F.H_GAP_PARTS] = p.gap;
  values[F.H_GAP_EDGE] = p.edge;
  values[F.H_SEED] = p.seed;
  values[F.H_BUDGET] = p.budgetMs;
  values[F.H_EFFORT] = p.effort;
  values[F.H_ROLL] = p.roll ? 1 : 0;
  values[F.H_NO_SHEET_COMPACTION] = p.sheetCompaction === false ? 1 : 0;
  values[F.H_STOP_RULE] = p.stopRule === 'stall' ? 1 : 0;
  for (const s of p.stock) {
    const row = new Array<number>(F.STOCK_STRIDE).fill(0);
    row[F.S_X0] = s.x0;
    row[F.S_Y0] = s.y0;
    row[F.S_X1] = s.x1;
    row[F.S_Y1] = s.y1;
    row[F.S_Q] = s.q;
    row[F.S_AREA] = s.area;
    values.push(...row);
  }
  for (const t of p.types) {
    const head = new Array<number>(F.TYPE_HEADER).fill(0);
    head[F.T_Q] = t.q;
    head[F.T_NANGLES] = t.angles.length;
    head[F.T_MIRROR] = t.mirror ? 1 : 0;
    head[F.T_NALLOWED] = t.stock.length;
    values.push(...head, ...t.stock, ...t.angles, t.rings.length);
    for (const ring of t.rings) values.push(ring.length / 2, ...ring);
  }
  return Float64Array.from(values);
}

function decodeNesting(out: Float64Array, startedAt: number, calledAt: number, memoryBytes: number): NestingSolution {
  if (out.length < F.OUT_HEADER || out[F.O_STATUS] !== 0) {
    throw new Error(`kerf nesting engine: input rejected (status ${out.length ? out[F.O_STATUS] : 'none'})`);
  }
  const nSheets = out[F.O_NSHEETS]!;
  const nItems = out[F.O_NITEMS]!;
  const sheets: NestingSolution['sheets'] = [];
  let p = F.OUT_HEADER;
  for (let s = 0; s < nSheets; s++, p += F.SHEET_STRIDE) sheets.push({ stock: out[p + F.SH_STOCK]!, usedLength: out[p + F.SH_USED]! });
  const items: NestedItem[] = [];
  for (let i = 0; i < nItems; i++, p += F.ITEM_STRIDE) {
    items.push({
      type: out[p + F.I_TYPE]!, sheet: out[p + F.I_SHEET]!, angle: out[p + F.I_ANGLE]!, mirror: out[p + F.I_MIRROR] === 1,
      cos: out[p + F.I_COS]!, sin: out[p + F.I_SIN]!, dx: out[p + F.I_DX]!, dy: out[p + F.I_DY]!,
    });
  }
  return {
    sheets,
    items,
    stats: {
      iterations: out[F.O_EVALUATIONS]!,
      elapsedMs: performance.now() - startedAt,
      timeToBestMs: out[F.O_TIME_TO_BEST]! + (calledAt - startedAt),
      stop: out[F.O_STOP] === F.STOP_CLOCK ? 'clock' : out[F.O_STOP] === F.STOP_STALLED ? 'stalled' : 'effort',
    },
    compaction: { improved: out[F.O_COMPACTIONS]!, attempts: out[F.O_COMPACTION_ATTEMPTS]! },
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
