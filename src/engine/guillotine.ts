// TS facade of the guillotine engine (engine-as/guillotine, built to build/engine.wasm).
// It flattens a GuillotineProblem into one Float64Array, runs it in a fresh WebAssembly
// instance (one per task, so memory never outlives the task) and turns the flat answer back
// into EngineSolution trees. No packing logic lives here: the engine owns the algorithms.

import type { EngineNode, EnginePart, EngineSheet, EngineSolution, GuillotineProblem } from './types.js';
import { loadWasm, runFlat } from './wasm.js';

// ---- flat layout; mirrors engine-as/guillotine/layout.ts (change both together) ----
const FORMAT_VERSION = 3;
const HEADER_LEN = 15;
const STOCK_STRIDE = 10;
const PART_STRIDE = 8;
const LIST_STRIDE = 2;
const OUT_HEADER = 8;
const NODE_STRIDE = 8;
const KIND_CUT = 0;

interface EngineExports {
  memory: WebAssembly.Memory;
  inputPtr(n: number): number;
  solveGuillotine(): number;
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

function decodeSolution(out: Float64Array, startedAt: number, calledAt: number): EngineSolution {
  if (out.length < OUT_HEADER || out[0] !== 0) {
    throw new Error(`kerf engine: input rejected (status ${out.length ? out[0] : 'none'})`);
  }
  const nSheets = out[1]!;
  const nParts = out[7]!;
  const unplaced = Array.from(out.subarray(OUT_HEADER, OUT_HEADER + nParts));
  let pos = OUT_HEADER + nParts;

  const readNode = (): EngineNode => {
    const b = pos;
    pos += NODE_STRIDE;
    const x = out[b + 2]!;
    const y = out[b + 3]!;
    const l = out[b + 4]!;
    const w = out[b + 5]!;
    if (out[b] === KIND_CUT) {
      const n = out[b + 7]!;
      const children: EngineNode[] = [];
      for (let i = 0; i < n; i++) children.push(readNode());
      return { kind: 'cut', along: out[b + 1] === 1 ? 'y' : 'x', x, y, l, w, children };
    }
    return { kind: 'part', x, y, l, w, part: out[b + 6]!, rot: out[b + 1] === 1 ? 1 : 0 };
  };

  const sheets: EngineSheet[] = [];
  for (let s = 0; s < nSheets; s++) {
    const stock = out[pos]!;
    pos += 2; // stock row, node count (the tree is self-delimiting)
    sheets.push({ stock, root: readNode() });
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
    },
  };
}

/**
 * Solves one guillotine problem in a fresh instance of `module` (see loadEngineModule).
 * The engine stops by itself within problem.budgetMs (it keeps a small reserve for this
 * decoding) and always returns a complete solution.
 */
export function solveGuillotine(problem: GuillotineProblem, module: WebAssembly.Module): EngineSolution {
  if (problem.stock.some((s) => s.open)) return solveOpenLength(problem, module);
  return solveOnce(problem, module);
}

function solveOnce(problem: GuillotineProblem, module: WebAssembly.Module): EngineSolution {
  const startedAt = performance.now();
  const input = encodeProblem(problem);
  const { out, calledAt } = runFlat<EngineExports>(module, 'guillotine engine', input, (engine) => engine.solveGuillotine());
  return decodeSolution(out, startedAt, calledAt);
}

// ---- open-length stock (rolls) ----
// The engine packs fixed sheets; a roll is solved as a sequence of one-sheet problems whose
// length is bisected between the area bound and the best length found so far. A probe that
// places everything ends at once (one sheet meets the engine's bound), so the budget goes
// to the infeasible probes, where the search tries hardest.

/** Length used by a one-sheet solution: end of its last first-stage band along x. */
function usedLength(root: EngineNode): number {
  if (root.kind === 'part' || root.along === 'x') return root.l;
  const last = root.children[root.children.length - 1];
  return last ? last.x + last.l - root.x : 0;
}

function solveOpenLength(problem: GuillotineProblem, module: WebAssembly.Module): EngineSolution {
  const startedAt = performance.now();
  const deadline = startedAt + problem.budgetMs;
  const left = problem.parts.map((p) => p.q);
  const rolls = problem.stock.map((s, i) => (s.open ? i : -1)).filter((i) => i >= 0);
  const sheets: EngineSheet[] = [];
  let bound = 0;
  let iterations = 0;
  let timeToBest = 0;
  let stopped = false;
  // One piece per roll row, in row order; a part another roll can take waits for that roll
  // only when this one cannot hold it. The budget is shared in proportion to the parts.
  for (let k = 0; k < rolls.length; k++) {
    const r = rolls[k]!;
    let mine = 0;
    let rest = 0;
    problem.parts.forEach((p, i) => {
      if (p.stock.includes(r)) mine += left[i]!;
      else if (rolls.slice(k + 1).some((o) => p.stock.includes(o))) rest += left[i]!;
    });
    if (mine === 0) continue;
    const share = ((deadline - performance.now()) * mine) / (mine + rest);
    const parts = problem.parts.map((p, i) => (p.stock.includes(r) ? { ...p, q: left[i]! } : { ...p, q: 0 }));
    const t0 = performance.now() - startedAt;
    const one = solveRoll(problem, parts, r, Math.max(1, share), module);
    iterations += one.iterations;
    stopped ||= one.stopped;
    timeToBest = t0 + one.timeToBest;
    bound += one.bound;
    if (one.sheet) {
      sheets.push(one.sheet);
      one.unplaced.forEach((u, i) => {
        if (parts[i]!.q > 0) left[i] = u;
      });
    }
  }
  return {
    sheets,
    unplaced: left,
    lowerBound: sheets.length,
    lengthBound: bound,
    stats: { iterations, elapsedMs: performance.now() - startedAt, timeToBestMs: timeToBest, stoppedByDeadline: stopped },
  };
}

interface RollResult {
  sheet?: EngineSheet;
  unplaced: number[];
  bound: number;
  iterations: number;
  timeToBest: number;
  stopped: boolean;
}

/** Shortest piece of roll row r that takes `parts` (bisection over one-sheet probes). */
function solveRoll(problem: GuillotineProblem, given: EnginePart[], r: number, budgetMs: number, module: WebAssembly.Module): RollResult {
  const startedAt = performance.now();
  const roll = problem.stock[r]!;
  const Y = roll.w - roll.trim.l1 - roll.trim.l2;
  const k = problem.kerf;
  const cap = roll.l > 0 && Number.isFinite(roll.l) ? roll.l - roll.trim.w1 - roll.trim.w2 : Infinity;
  // Parts too wide for the roll (or too long for its cap) stay out, so every probe can place all the rest.
  const extent = (p: EnginePart): number => {
    const m = p.rotMask[roll.grain];
    const ext = Math.min((m & 1) && p.w <= Y ? p.l : Infinity, (m & 2) && p.l <= Y ? p.w : Infinity);
    return ext <= cap ? ext : Infinity;
  };
  const parts = given.map((p) => (p.q > 0 && !Number.isFinite(extent(p)) ? { ...p, q: 0 } : p));
  const left = given.map((p, i) => p.q - parts[i]!.q);
  let ub = 0;
  let area = 0;
  let integral = Number.isInteger(k) && Number.isInteger(Y);
  for (const p of parts) {
    if (p.q <= 0) continue;
    const ext = extent(p);
    ub += p.q * (ext + k);
    area += p.q * (p.l + k) * (p.w + k);
    integral &&= Number.isInteger(p.l) && Number.isInteger(p.w);
  }
  ub = Math.min(Math.max(ub, 1), cap);
  // Kerf-inflated area bound on the length (see engine-as/guillotine/bounds.ts).
  let lo = Math.min(ub, Math.max(0, area / (Y + k) - k));
  if (integral) lo = Math.ceil(lo - 1e-9);
  const bound = lo;
  const deadline = startedAt + budgetMs;
  const probe = (len: number, ms: number): EngineSolution => {
    const stock = problem.stock.map((s, i) =>
      i === r ? { ...s, open: false, q: 1, l: len + s.trim.w1 + s.trim.w2 } : { ...s, q: 0, open: false },
    );
    // A head cut on a roll would rip it lengthwise before the cross cuts: not offered.
    return solveOnce({ ...problem, stock, parts, firstCut: 'y', headCuts: false, budgetMs: ms }, module);
  };
  const placedAll = (sol: EngineSolution) => sol.sheets.length === 1 && sol.unplaced.every((u, i) => u === 0 || parts[i]!.q === 0);

  // First probe: at ub everything that fits the width fits; its greedy length is the first upper bound.
  let best = probe(ub, Math.max(1, budgetMs * 0.2));
  let hi = best.sheets[0] ? usedLength(best.sheets[0].root) : 0;
  let timeToBest = performance.now() - startedAt;
  let iterations = best.stats.iterations;
  let stopped = best.stats.stoppedByDeadline;
  const res = integral ? 1 : Math.max(1e-6, 1e-4 * hi);
  while (placedAll(best) && hi - lo >= res - 1e-9) {
    const left = deadline - performance.now();
    if (left < 5) {
      stopped = true;
      break;
    }
    const probesLeft = Math.max(1, Math.ceil(Math.log2((hi - lo) / res + 1)));
    let mid = integral ? Math.floor((lo + hi - 1) / 2) : (lo + hi) / 2;
    if (mid < lo) mid = lo;
    const sol = probe(mid, left / probesLeft);
    iterations += sol.stats.iterations;
    if (placedAll(sol)) {
      best = sol;
      hi = Math.min(mid, usedLength(sol.sheets[0]!.root));
      timeToBest = performance.now() - startedAt;
    } else {
      lo = integral ? mid + 1 : mid;
    }
  }
  const unplaced = best.unplaced.map((u, i) => u + left[i]!);
  const sh = best.sheets[0];
  if (!sh) return { unplaced, bound, iterations, timeToBest, stopped };
  const used = usedLength(sh.root);
  const root = { ...sh.root, l: used } as EngineNode;
  return {
    sheet: { stock: r, root, length: used + roll.trim.w1 + roll.trim.w2 },
    unplaced,
    bound,
    iterations,
    timeToBest,
    stopped,
  };
}
