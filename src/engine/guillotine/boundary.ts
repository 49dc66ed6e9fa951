// The guillotine engine's boundary (engine-as/guillotine, built to build/engine.wasm): a
// GuillotineProblem flattened into one Float64Array, run in a fresh WebAssembly instance (one
// per task, so memory never outlives the task), and the flat answer read back into
// EngineSolution trees; the same for one strip run of a roll. No packing logic lives here.

import type { EngineNode, GuillotineProblem, EngineSolution, EngineSheet, StopReason } from './types.js';
import { loadWasm, runFlat } from '../common/wasm.js';

// ---- flat layout; mirrors engine-as/guillotine/layout.ts (change both together) ----
const FORMAT_VERSION = 5;
const HEADER_LEN = 18;
const STOCK_STRIDE = 10;
const PART_STRIDE = 8;
const LIST_STRIDE = 2;
const OUT_HEADER = 13;
const STOP_RULES = { effort: 0, stall: 1, searchTime: 2 } as const;
const NODE_STRIDE = 8;
const KIND_CUT = 0;
const KIND_FREE = 2;

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
  const stockBase = HEADER_LEN;
  const partBase = stockBase + nS * STOCK_STRIDE;
  const listBase = partBase + nP * PART_STRIDE;
  const refBase = listBase + lists.length * LIST_STRIDE;
  const a = new Float64Array(refBase + nRefs);
  a[0] = FORMAT_VERSION;
  a[1] = nS;
  a[2] = nP;
  a[3] = p.kerf;
  a[4] = p.firstCut === 'y' ? 1 : 0;
  a[5] = p.maxPhase;
  a[6] = p.headCuts ? 1 : 0;
  a[7] = p.stockSelection === 'smallest' ? 1 : 0;
  a[8] = p.strategy === 'time' ? 1 : 0;
  a[9] = p.seed;
  a[10] = p.budgetMs;
  a[11] = lists.length;
  a[12] = nRefs;
  a[13] = p.effort ?? 1;
  a[14] = (p.repeatPatterns ?? p.strategy === 'time') ? 1 : 0;
  a[15] = p.stripBands ? 1 : 0;
  a[16] = STOP_RULES[p.stopRule ?? 'effort'];
  a[17] = p.stopRule && p.stopRule !== 'effort' ? Math.max(0, p.searchMs ?? 0) : 0;
  p.stock.forEach((s, i) => {
    const b = stockBase + i * STOCK_STRIDE;
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
    const b = partBase + i * PART_STRIDE;
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
    a[listBase + i * LIST_STRIDE] = off;
    a[listBase + i * LIST_STRIDE + 1] = l.length;
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
    pos += NODE_STRIDE;
    const x = out[b + 2]! + dx;
    const y = out[b + 3]! + dy;
    const l = out[b + 4]!;
    const w = out[b + 5]!;
    if (out[b] === KIND_CUT || out[b] === KIND_FREE) {
      const n = out[b + 7]!;
      const children: EngineNode[] = [];
      for (let i = 0; i < n; i++) children.push(read());
      if (out[b] === KIND_FREE) return { kind: 'free', x, y, l, w, children: children.filter((c) => c.kind === 'part') };
      return { kind: 'cut', along: out[b + 1] === 1 ? 'y' : 'x', x, y, l, w, children };
    }
    return { kind: 'part', x, y, l, w, part: out[b + 6]!, rot: out[b + 1] === 1 ? 1 : 0 };
  };
  const node = read();
  return { node, next: pos };
}

/** The engine's STOP_* code (engine-as/guillotine/sheet-search.ts) as a reason; its soft clock is searchTime's or the ceiling's. */
function stopReason(code: number, rule: GuillotineProblem['stopRule']): StopReason {
  const soft: StopReason = rule === 'searchTime' ? 'searchTime' : 'ceiling';
  return (['lower-bound', 'stalled', 'effort', soft, 'budget'] as const)[code] ?? 'budget';
}

function decodeSolution(out: Float64Array, startedAt: number, calledAt: number, rule: GuillotineProblem['stopRule']): EngineSolution {
  if (out.length < OUT_HEADER || out[0] !== 0) {
    throw new Error(`kerf engine: input rejected (status ${out.length ? out[0] : 'none'})`);
  }
  const nSheets = out[1]!;
  const nParts = out[7]!;
  const unplaced = Array.from(out.subarray(OUT_HEADER, OUT_HEADER + nParts));
  let pos = OUT_HEADER + nParts;

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
    lowerBound: out[2]!,
    stats: {
      iterations: out[3]!,
      elapsedMs: performance.now() - startedAt,
      timeToBestMs: out[5]! + offset,
      stoppedByDeadline: out[6] === 1,
      greedy: { sheets: out[8]!, stockArea: out[9]!, placedArea: out[10]! },
      stopReason: stopReason(out[11]!, rule),
      effort: out[12]!,
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

const STRIP_HEADER = 6;

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
}

/** One strip packing run in a fresh instance of `module`. */
export function runStrip(run: StripRun, parts: StripPart[], x0: number, y0: number, module: WebAssembly.Module): StripAnswer {
  const input: number[] = [run.width, run.kerf, run.maxPhase, run.seed, run.budgetMs, run.effort, parts.length];
  for (const p of parts) input.push(p.l, p.w, p.q, p.mask);
  const { out } = runFlat<EngineExports>(module, 'strip packer', Float64Array.from(input), (engine) => engine.solveStrip());
  if (out.length < STRIP_HEADER || out[0] !== 0) throw new Error(`kerf engine: strip input rejected (status ${out.length ? out[0] : 'none'})`);
  return { tree: decodeTree(out, STRIP_HEADER, x0, y0).node, used: out[1]!, iterations: out[2]!, firstUsed: out[3]!, lowerBound: out[5]! };
}
