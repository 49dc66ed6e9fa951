// The guillotine engine's boundary (engine-as/guillotine, built to build/engine.wasm): a
// GuillotineProblem flattened into one Float64Array, run in a fresh WebAssembly instance (one
// per task, so memory never outlives the task), and the flat answer read back into
// EngineSolution trees; the same for one strip run of a roll. No packing logic lives here.

import type { EngineNode, GuillotineProblem, EngineSolution, EngineSheet } from './types.js';
import type { StopReason } from '../common/stop-reason.js';
import { loadWasm, runFlat } from '../common/wasm.js';
// The flat format, declared once for the engine and this boundary.
import * as F from '../../../engine-as/sheets/format.js';

/** The engine's stop rule code (H_MODE) of each stop rule. */
const STOP_RULES = { effort: F.MODE_EFFORT, stall: F.MODE_STALL, searchTime: F.MODE_SEARCH_TIME } as const;

interface EngineExports {
  memory: WebAssembly.Memory;
  inputPtr(n: number): number;
  solveGuillotine(): number;
  solveFree(): number;
  solveStrip(): number;
  outputPtr(): number;
}

/** build/engine.wasm, compiled once per thread. */
export function loadEngineModule(): WebAssembly.Module {
  return loadWasm('engine');
}

/** Flattens the problem. Parts share stock lists (one per distinct `stock` array). */
function encodeProblem(p: GuillotineProblem): Float64Array {
  // Parts of one material usually share the very same array: look that up before joining.
  const byArray = new Map<readonly number[], number>();
  const byKey = new Map<string, number>();
  const lists: number[][] = [];
  const partList: number[] = [];
  for (const part of p.parts) {
    let id = byArray.get(part.stock);
    if (id === undefined) {
      const key = part.stock.join(',');
      id = byKey.get(key);
      if (id === undefined) {
        id = lists.length;
        byKey.set(key, id);
        lists.push(part.stock);
      }
      byArray.set(part.stock, id);
    }
    partList.push(id);
  }
  let nRefs = 0;
  for (const l of lists) nRefs += l.length;
  const nS = p.stock.length;
  const nP = p.parts.length;
  const stockBase = F.HEADER_LEN;
  const partBase = stockBase + nS * F.STOCK_STRIDE;
  const listBase = partBase + nP * F.PART_STRIDE;
  const refBase = listBase + lists.length * F.LIST_STRIDE;
  const a = new Float64Array(refBase + nRefs);
  a[F.H_VERSION] = F.FORMAT_VERSION;
  a[F.H_NSTOCK] = nS;
  a[F.H_NPARTS] = nP;
  a[F.H_KERF] = p.kerf;
  a[F.H_FIRSTCUT] = p.firstCut === 'y' ? 1 : 0;
  a[F.H_MAXPHASE] = p.maxPhase;
  a[F.H_HEADCUTS] = p.headCuts ? 1 : 0;
  a[F.H_SELECTION] = p.stockSelection === 'smallest' ? 1 : 0;
  a[F.H_STRATEGY] = p.strategy === 'time' ? 1 : 0;
  a[F.H_SEED] = p.seed;
  a[F.H_BUDGET] = p.budgetMs;
  a[F.H_NLISTS] = lists.length;
  a[F.H_NREFS] = nRefs;
  a[F.H_EFFORT] = p.effort ?? 1;
  a[F.H_REPEAT] = (p.repeatPatterns ?? p.strategy === 'time') ? 1 : 0;
  a[F.H_STRIP] = p.stripBands ? 1 : 0;
  a[F.H_MODE] = STOP_RULES[p.stopRule ?? 'effort'];
  a[F.H_SOFT] = p.stopRule && p.stopRule !== 'effort' ? Math.max(0, p.searchMs ?? 0) : 0;
  p.stock.forEach((s, i) => {
    const b = stockBase + i * F.STOCK_STRIDE;
    a[b] = s.l;
    a[b + 1] = s.w;
    a[b + 2] = s.q;
    a[b + 3] = s.cost;
    a[b + 4] = s.trim.l1;
    a[b + 5] = s.trim.l2;
    a[b + 6] = s.trim.w1;
    a[b + 7] = s.trim.w2;
    a[b + 8] = s.grain;
    a[b + 9] = s.offcut ? 1 : 0;
  });
  p.parts.forEach((part, i) => {
    const b = partBase + i * F.PART_STRIDE;
    a[b] = part.l;
    a[b + 1] = part.w;
    a[b + 2] = part.q;
    a[b + 3] = part.rotMask[0];
    a[b + 4] = part.rotMask[1];
    a[b + 5] = part.rotMask[2];
    a[b + 6] = partList[i]!;
  });
  let off = 0;
  lists.forEach((l, i) => {
    a[listBase + i * F.LIST_STRIDE] = off;
    a[listBase + i * F.LIST_STRIDE + 1] = l.length;
    for (const s of l) a[refBase + off++] = s;
  });
  return a;
}

/**
 * One pre-order node tree of the engine's output, starting at `at` (NODE_STRIDE values per
 * node), moved by (dx, dy); returns it and the position after it.
 */
function decodeTree(out: Float64Array, at: number, dx = 0, dy = 0): { node: EngineNode; next: number } {
  let pos = at;
  const read = (): EngineNode => {
    const b = pos;
    pos += F.NODE_STRIDE;
    const x = out[b + F.ON_X]! + dx;
    const y = out[b + F.ON_Y]! + dy;
    const l = out[b + F.ON_L]!;
    const w = out[b + F.ON_W]!;
    const kind = out[b + F.ON_KIND];
    if (kind === F.KIND_CUT || kind === F.KIND_FREE) {
      const n = out[b + F.ON_CHILDREN]!;
      const children: EngineNode[] = [];
      for (let i = 0; i < n; i++) children.push(read());
      if (kind === F.KIND_FREE) return { kind: 'free', x, y, l, w, children: children.filter((c) => c.kind === 'part') };
      return { kind: 'cut', along: out[b + F.ON_DIR] === 1 ? 'y' : 'x', x, y, l, w, children };
    }
    return { kind: 'part', x, y, l, w, part: out[b + F.ON_PART]!, rot: out[b + F.ON_DIR] === 1 ? 1 : 0 };
  };
  const node = read();
  return { node, next: pos };
}

/** The engine's STOP_* code as a reason; its soft clock is searchTime's or the ceiling's. */
function stopReason(code: number, rule: GuillotineProblem['stopRule']): StopReason {
  switch (code) {
    case F.STOP_BOUND: return 'lower-bound';
    case F.STOP_STALLED: return 'stalled';
    case F.STOP_EFFORT: return 'effort';
    case F.STOP_SOFT: return rule === 'searchTime' ? 'searchTime' : 'ceiling';
    default: return 'budget';
  }
}

function decodeSolution(out: Float64Array, startedAt: number, calledAt: number, rule: GuillotineProblem['stopRule']): EngineSolution {
  if (out.length < F.OUT_HEADER || out[F.O_STATUS] !== 0) {
    throw new Error(`kerf engine: input rejected (status ${out.length ? out[F.O_STATUS] : 'none'})`);
  }
  const nSheets = out[F.O_NSHEETS]!;
  const nParts = out[F.O_NPARTS]!;
  const unplaced = Array.from(out.subarray(F.OUT_HEADER, F.OUT_HEADER + nParts));
  let pos = F.OUT_HEADER + nParts;

  const sheets: EngineSheet[] = [];
  for (let s = 0; s < nSheets; s++) {
    const stock = out[pos]!;
    pos += 2; // stock row, node count (the tree is self-delimiting)
    const tree = decodeTree(out, pos);
    pos = tree.next;
    sheets.push({ stock, root: tree.node });
  }
  const offset = calledAt - startedAt;
  return {
    sheets,
    unplaced,
    lowerBound: out[F.O_LOWER_BOUND]!,
    stats: {
      iterations: out[F.O_ITERATIONS]!,
      elapsedMs: performance.now() - startedAt,
      timeToBestMs: out[F.O_TIME_TO_BEST]! + offset,
      stoppedByDeadline: out[F.O_DEADLINE] === 1,
      greedy: { sheets: out[F.O_GREEDY_SHEETS]!, stockArea: out[F.O_GREEDY_STOCK_AREA]!, placedArea: out[F.O_GREEDY_PLACED]! },
      stopReason: stopReason(out[F.O_STOP]!, rule),
      effort: out[F.O_WORK]!,
    },
  };
}


/** Runs one fixed-sheet problem as it is: the sheet search, or the free packer for free placement. */
export function solveOnce(problem: GuillotineProblem, module: WebAssembly.Module): EngineSolution {
  const startedAt = performance.now();
  const input = encodeProblem(problem);
  const free = problem.placement === 'free';
  const { out, calledAt } = runFlat<EngineExports>(module, free ? 'free packer' : 'guillotine engine', input, (engine) =>
    free ? engine.solveFree() : engine.solveGuillotine(),
  );
  return decodeSolution(out, startedAt, calledAt, problem.stopRule);
}

// ---- one strip run of a roll (engine-as/guillotine/strip.ts) ----

/** A part row of a strip run: its size, copies, and the turns that fit the roll's width (1: l along the roll, 2: turned). */
export interface StripPart {
  l: number;
  w: number;
  q: number;
  mask: number;
}

export interface StripRun {
  /** Usable width of the roll, kerf, stages (-1: free placement), seed, clock and effort of the run. */
  width: number;
  kerf: number;
  maxPhase: number;
  seed: number;
  budgetMs: number;
  effort: number;
}

export interface StripAnswer {
  /** The layout from the usable corner moved to (x0, y0). */
  tree: EngineNode;
  used: number;
  iterations: number;
  /** Length of the first (noise-free) strip. */
  firstUsed: number;
  lowerBound: number;
  /** A clock limit cut the run (its result then depends on the machine). */
  stoppedByDeadline: boolean;
}

/** One strip packing run in a fresh instance of `module`. */
export function runStrip(run: StripRun, parts: StripPart[], x0: number, y0: number, module: WebAssembly.Module): StripAnswer {
  const input = new Float64Array(F.S_HEADER_LEN + parts.length * F.S_PART_STRIDE);
  input[F.S_WIDTH] = run.width;
  input[F.S_KERF] = run.kerf;
  input[F.S_MAXPHASE] = run.maxPhase;
  input[F.S_SEED] = run.seed;
  input[F.S_BUDGET] = run.budgetMs;
  input[F.S_EFFORT] = run.effort;
  input[F.S_NPARTS] = parts.length;
  parts.forEach((p, i) => input.set([p.l, p.w, p.q, p.mask], F.S_HEADER_LEN + i * F.S_PART_STRIDE));
  const { out } = runFlat<EngineExports>(module, 'strip packer', input, (engine) => engine.solveStrip());
  if (out.length < F.SO_HEADER || out[F.SO_STATUS] !== 0) throw new Error(`kerf engine: strip input rejected (status ${out.length ? out[F.SO_STATUS] : 'none'})`);
  const answer = { used: out[F.SO_LENGTH]!, iterations: out[F.SO_ITERATIONS]!, firstUsed: out[F.SO_FIRST]!, lowerBound: out[F.SO_LOWER_BOUND]!, stoppedByDeadline: out[F.SO_DEADLINE] === 1 };
  return { tree: decodeTree(out, F.SO_HEADER, x0, y0).node, ...answer };
}
