// TS facade of the guillotine engine (engine-as/guillotine, built to build/engine.wasm).
// It flattens a GuillotineProblem into one Float64Array, runs it in a fresh WebAssembly
// instance (one per task, so memory never outlives the task) and turns the flat answer back
// into EngineSolution trees. No packing logic lives here: the engine owns the algorithms.

import { laterStop, type EngineNode, type EnginePart, type EngineSheet, type EngineSolution, type GreedyStart, type GuillotineProblem, type StopReason } from './types.js';
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

/**
 * Solves one guillotine problem in a fresh instance of `module` (see loadEngineModule).
 * The engine stops by itself within problem.budgetMs (it keeps a small reserve for this
 * decoding) and always returns a complete solution.
 */
export function solveGuillotine(problem: GuillotineProblem, module: WebAssembly.Module): EngineSolution {
  if (problem.placement === 'free') return solveFreeBest(problem, module);
  if (problem.stock.some((s) => s.open)) return solveOpenLength(problem, module);
  return solveOnce(problem, module);
}

function solveOnce(problem: GuillotineProblem, module: WebAssembly.Module): EngineSolution {
  const startedAt = performance.now();
  const input = encodeProblem(problem);
  const free = problem.placement === 'free';
  const { out, calledAt } = runFlat<EngineExports>(module, free ? 'free packer' : 'guillotine engine', input, (engine) =>
    free ? engine.solveFree() : engine.solveGuillotine(),
  );
  return decodeSolution(out, startedAt, calledAt, problem.stopRule);
}

// ---- open-length stock (rolls) ----
// The engine packs fixed sheets. A roll is first solved as a row of bands (see
// solveRollBands, half the budget); then, as a sequence of one-sheet problems whose length is
// bisected between the area bound and the best length found so far. A probe that places
// everything ends at once (one sheet meets the engine's bound), so the budget goes to the
// infeasible probes, where the search tries hardest. The shorter piece wins.

/** Length used by a one-sheet solution: end of its last first-stage band along x. */
function usedLength(root: EngineNode): number {
  if (root.kind === 'free') return partsEnd(root) - root.x;
  if (root.kind === 'part' || root.along === 'x') return root.l;
  const last = root.children[root.children.length - 1];
  return last ? last.x + last.l - root.x : 0;
}

function solveOpenLength(asked: GuillotineProblem, module: WebAssembly.Module): EngineSolution {
  const startedAt = performance.now();
  // Many engine runs share a roll's time, so each keeps the fixed effort; a searchTime becomes
  // their clock instead (no effort limit), the budget's shares then taken from it.
  // The default policy's ceiling still caps their clock.
  const rule = asked.stopRule ?? 'effort';
  const limitMs = rule !== 'effort' && asked.searchMs !== undefined ? Math.min(asked.budgetMs, asked.searchMs) : asked.budgetMs;
  const timed = rule === 'searchTime';
  const problem: GuillotineProblem = { ...asked, stopRule: 'effort', budgetMs: limitMs, ...(timed ? { effort: 0 } : {}) };
  const clockStop: StopReason = limitMs < asked.budgetMs ? (timed ? 'searchTime' : 'ceiling') : 'budget';
  const deadline = startedAt + problem.budgetMs;
  const left = problem.parts.map((p) => p.q);
  // Offcut rolls (remnants the shop owns) are cut first; otherwise rolls go in row order.
  const rolls = problem.stock.map((s, i) => (s.open ? i : -1)).filter((i) => i >= 0)
    .sort((a, b) => Number(problem.stock[b]!.offcut ?? false) - Number(problem.stock[a]!.offcut ?? false));
  const sheets: EngineSheet[] = [];
  let bound = 0;
  let iterations = 0;
  let effort = 0;
  let timeToBest = 0;
  let stopped = false;
  const greedy: GreedyStart = { sheets: 0, stockArea: 0, placedArea: 0 };
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
    effort += one.effort;
    stopped ||= one.stopped;
    timeToBest = t0 + one.timeToBest;
    bound += one.bound;
    if (one.greedy) {
      greedy.sheets += 1;
      greedy.stockArea += one.greedy.length * problem.stock[r]!.w;
      greedy.placedArea += one.greedy.placedArea;
    }
    if (one.sheet) {
      sheets.push(one.sheet);
      one.unplaced.forEach((u, i) => {
        if (parts[i]!.q > 0) left[i] = u;
      });
    }
  }
  let used = 0;
  for (const sh of sheets) used += sh.length! - problem.stock[sh.stock]!.trim.w1 - problem.stock[sh.stock]!.trim.w2;
  const stopReason: StopReason = left.every((u) => u === 0) && used <= bound + 1e-9
    ? 'lower-bound'
    : stopped ? clockStop : 'effort';
  return {
    sheets,
    unplaced: left,
    lowerBound: sheets.length,
    lengthBound: bound,
    stats: { iterations, elapsedMs: performance.now() - startedAt, timeToBestMs: timeToBest, stoppedByDeadline: stopped, greedy, stopReason, effort },
  };
}

interface RollResult {
  sheet?: EngineSheet;
  unplaced: number[];
  bound: number;
  iterations: number;
  /** Work of the sheet-search runs (the strip search counts iterations only). */
  effort: number;
  timeToBest: number;
  stopped: boolean;
  /** The first complete piece (length with trims, part area): the band search's greedy start, else the first probe. */
  greedy?: { length: number; placedArea: number };
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
  // Every instance end to end at its shortest extent along the roll, a kerf between each two.
  const endToEnd = ub - k;
  ub = Math.min(Math.max(ub, 1), cap);
  // Kerf-inflated area bound on the length (see engine-as/guillotine/bounds.ts).
  let lo = Math.min(ub, Math.max(0, area / (Y + k) - k));
  if (integral) lo = Math.ceil(lo - 1e-9);
  const bound = lo;
  // Half the budget to the band search, the rest to bisection below the length it found.
  let banded: BandedRoll | undefined;
  let bandedUsed = Infinity;
  const free = problem.placement === 'free';
  if (problem.maxPhase !== 1 || free) {
    // Proven up front (a blade wider than the parts, say): when no two parts fit side by side
    // across the roll, no piece is shorter than endToEnd; the first strip of that length is
    // optimal, so a strip at the smallest effort is tried before any search.
    if (oneAcross(parts, roll.grain, Y, k) && endToEnd <= cap + 1e-9) {
      const quick = solveRollStrip({ ...problem, effort: PROVEN_EFFORT }, parts, r, budgetMs, module);
      const quickUsed = quick?.sheet && quick.unplaced.every((u) => u === 0) ? quick.length! - roll.trim.w1 - roll.trim.w2 : Infinity;
      if (quick?.sheet && quickUsed <= endToEnd + 1e-9) {
        const unplaced = quick.unplaced.map((u, i) => u + left[i]!);
        return { sheet: quick.sheet, unplaced, bound: endToEnd, iterations: quick.iterations, effort: 0, timeToBest: quick.timeToBest, stopped: false, greedy: quick.greedy };
      }
    }
    const unlimited = problem.maxPhase === 0;
    const strip = solveRollStrip(problem, parts, r, budgetMs * (free ? FREE_STRIP_SHARE : unlimited ? STRIP_SHARE : STRIP_SHARE_STAGED), module);
    const complete = (b?: BandedRoll): b is BandedRoll => !!b?.sheet && b.unplaced.every((u) => u === 0);
    // A strip at its lower bound is optimal: nothing left to search.
    const stripUsed = complete(strip) ? strip.length! - roll.trim.w1 - roll.trim.w2 : Infinity;
    if (complete(strip) && stripUsed <= strip.lowerBound! + 1e-9 && stripUsed <= cap + 1e-9) {
      const unplaced = strip.unplaced.map((u, i) => u + left[i]!);
      return { sheet: strip.sheet, unplaced, bound: Math.max(bound, strip.lowerBound!), iterations: strip.iterations, effort: 0, timeToBest: strip.timeToBest, stopped: false, greedy: strip.greedy };
    }
    // Free placement goes on with free probes only (bands are guillotine).
    if (!free) banded = solveRollBands(problem, parts, r, extent, budgetMs * (unlimited ? BAND_SHARE : BAND_SHARE_STAGED), module);
    // The shorter complete piece of the two band-wise searches goes on (ties: the band search).
    if (complete(strip) && !(complete(banded) && (banded.length ?? Infinity) <= strip.length!)) banded = strip;
    const used = (banded?.length ?? Infinity) - roll.trim.w1 - roll.trim.w2;
    if (banded?.sheet && banded.unplaced.every((u) => u === 0) && used <= cap + 1e-9) bandedUsed = used;
  }
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
  let hi = best.sheets[0] ? Math.min(usedLength(best.sheets[0].root), bandedUsed) : 0;
  const trims = roll.trim.w1 + roll.trim.w2;
  const greedy = Number.isFinite(bandedUsed) && banded?.greedy
    ? banded.greedy
    : best.sheets[0] ? { length: usedLength(best.sheets[0].root) + trims, placedArea: partsArea(best.sheets[0].root) } : undefined;
  let timeToBest = performance.now() - startedAt;
  let iterations = best.stats.iterations + (banded?.iterations ?? 0);
  let effort = best.stats.effort + (banded?.effort ?? 0);
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
    effort += sol.stats.effort;
    if (placedAll(sol)) {
      best = sol;
      hi = Math.min(mid, usedLength(sol.sheets[0]!.root));
      timeToBest = performance.now() - startedAt;
    } else {
      lo = integral ? mid + 1 : mid;
    }
  }
  if (banded?.sheet && Number.isFinite(bandedUsed) && bandedUsed <= (placedAll(best) ? usedLength(best.sheets[0]!.root) : Infinity)) {
    const unplaced = banded.unplaced.map((u, i) => u + left[i]!);
    return { sheet: banded.sheet, unplaced, bound, iterations, effort, timeToBest: Math.min(timeToBest, banded.timeToBest), stopped: stopped || banded.stopped, greedy };
  }
  const unplaced = best.unplaced.map((u, i) => u + left[i]!);
  const sh = best.sheets[0];
  if (!sh) return { unplaced, bound, iterations, effort, timeToBest, stopped, greedy };
  const used = usedLength(sh.root);
  const root = { ...sh.root, l: used } as EngineNode;
  return {
    sheet: { stock: r, root, length: used + roll.trim.w1 + roll.trim.w2 },
    unplaced,
    bound,
    iterations,
    effort,
    timeToBest,
    stopped,
    greedy,
  };
}

// ---- rolls as a sequence of bands ----
// Cut across first, a roll is a row of bands, each as wide as the roll and as long as the
// part that opens it. Its length is the sum of the band lengths, so the roll is a bin
// packing problem over bins of every possible band length, each worth its area: the
// engine's sheet search then minimises the total length directly, freeing and re-packing a
// few bands at a time. Each bin is cut like a band (its first cuts along the roll, one
// stage less); the bins are then shortened to what they hold and joined in a row.

/** Shares of a roll's budget given to the recursive strip fill and to the band search (the rest bisects below the shorter length). */
const STRIP_SHARE = 0.6;
const BAND_SHARE = 0.2;
/** With few stages the recursive fill has little room: the band search keeps most of its share. */
const STRIP_SHARE_STAGED = 0.1;
const BAND_SHARE_STAGED = 0.45;
/** Free placement: the strip search (its backtracking places parts anywhere) before free-packer probes. */
const FREE_STRIP_SHARE = 0.85;

interface BandedRoll {
  sheet?: EngineSheet;
  length?: number;
  unplaced: number[];
  iterations: number;
  effort: number;
  timeToBest: number;
  stopped: boolean;
  /** The engine's greedy start as one piece: its bands end to end, not yet shortened. */
  greedy?: { length: number; placedArea: number };
  /** No piece can be shorter than this (trims excluded). */
  lowerBound?: number;
}

function solveRollBands(
  problem: GuillotineProblem,
  parts: EnginePart[],
  r: number,
  extent: (p: EnginePart) => number,
  budgetMs: number,
  module: WebAssembly.Module,
): BandedRoll | undefined {
  const roll = problem.stock[r]!;
  const k = problem.kerf;
  const Y = roll.w - roll.trim.l1 - roll.trim.l2;
  const lengths = new Set<number>();
  for (const p of parts) {
    if (p.q <= 0 || !Number.isFinite(extent(p))) continue;
    const m = p.rotMask[roll.grain];
    if (m & 1 && p.w <= Y) lengths.add(p.l);
    if (m & 2 && p.l <= Y) lengths.add(p.w);
  }
  if (lengths.size === 0) return undefined;
  const bands = [...lengths].sort((a, b) => b - a);
  // The kerf after each band is a trim of its bin, so a bin's area counts it.
  const stock = bands.map((len) => ({ l: len + k, w: roll.w, q: -1, cost: 0, trim: { l1: roll.trim.l1, l2: roll.trim.l2, w1: 0, w2: k }, grain: roll.grain }));
  const all = bands.map((_, i) => i);
  const sol = solveOnce(
    {
      ...problem,
      stock,
      parts: parts.map((p) => ({ ...p, stock: all })),
      firstCut: 'x',
      maxPhase: problem.maxPhase > 1 ? problem.maxPhase - 1 : 0,
      headCuts: false,
      stripBands: true,
      budgetMs,
    },
    module,
  );
  const g = sol.stats.greedy;
  const stats = {
    iterations: sol.stats.iterations,
    effort: sol.stats.effort,
    timeToBest: sol.stats.timeToBestMs,
    stopped: sol.stats.stoppedByDeadline,
    // Each bin is its band plus one kerf: the bands end to end, less the last kerf, plus the end trims.
    ...(g && g.sheets > 0 ? { greedy: { length: g.stockArea / roll.w - k + roll.trim.w1 + roll.trim.w2, placedArea: g.placedArea } } : {}),
  };
  if (sol.sheets.length === 0) return { unplaced: sol.unplaced, ...stats };
  // Fullest bands first: the roll then ends with its emptiest band.
  const filled = sol.sheets.map((sh) => ({ root: sh.root, used: partsEnd(sh.root) - sh.root.x, area: partsArea(sh.root) }));
  filled.sort((a, b) => b.area / b.used - a.area / a.used);
  const x0 = roll.trim.w1;
  let at = x0;
  const children: EngineNode[] = [];
  for (const b of filled) {
    children.push(shiftClamp(b.root, at - b.root.x, at + b.used));
    at += b.used + k;
  }
  const used = at - k - x0;
  const root: EngineNode = { kind: 'cut', along: 'y', x: x0, y: roll.trim.l1, l: used, w: Y, children };
  return { sheet: { stock: r, root, length: used + roll.trim.w1 + roll.trim.w2 }, length: used + roll.trim.w1 + roll.trim.w2, unplaced: sol.unplaced, ...stats };
}

/** Effort of the strip run that only has to reach a length proven optimal up front (its first strip always finishes). */
const PROVEN_EFFORT = 0.001;

/**
 * Whether no two part instances fit side by side across a roll of usable width Y with kerf k,
 * in any orientation that fits the width: then each stretch of the roll holds one part.
 */
function oneAcross(parts: EnginePart[], grain: number, Y: number, k: number): boolean {
  const narrow: number[] = [];
  for (const p of parts) {
    if (p.q <= 0) continue;
    const m = p.rotMask[grain as 0 | 1 | 2]!;
    const across = Math.min((m & 1) && p.w <= Y ? p.w : Infinity, (m & 2) && p.l <= Y ? p.l : Infinity);
    if (!Number.isFinite(across)) continue;
    for (let c = 0; c < Math.min(p.q, 2); c++) narrow.push(across);
  }
  narrow.sort((a, b) => a - b);
  return narrow.length >= 2 && narrow[0]! + k + narrow[1]! > Y + 1e-9;
}

// ---- rolls by recursive best fit and backtracking (engine-as/guillotine/strip.ts) ----
// Bands cut across the roll, each filled recursively with the part that fits the space best
// and then the leftovers beside and above it, so a band combines different parts; then a
// backtracking search for shorter pieces (free placement: parts anywhere). Every part with
// q > 0 fits the roll's width here (solveRoll leaves the others out).

const STRIP_HEADER = 6;

function solveRollStrip(problem: GuillotineProblem, parts: EnginePart[], r: number, budgetMs: number, module: WebAssembly.Module): BandedRoll | undefined {
  const roll = problem.stock[r]!;
  const Y = roll.w - roll.trim.l1 - roll.trim.l2;
  const input: number[] = [Y, problem.kerf, problem.placement === 'free' ? -1 : problem.maxPhase, problem.seed, budgetMs, problem.effort ?? 1, parts.length];
  let any = false;
  for (const p of parts) {
    const m = p.rotMask[roll.grain]!;
    const mask = (m & 1 && p.w <= Y ? 1 : 0) | (m & 2 && p.l <= Y ? 2 : 0);
    const q = mask ? Math.max(0, p.q) : 0;
    any ||= q > 0;
    input.push(p.l, p.w, q, mask);
  }
  if (!any) return undefined;
  const startedAt = performance.now();
  const { out } = runFlat<EngineExports>(module, 'strip packer', Float64Array.from(input), (engine) => engine.solveStrip());
  if (out.length < STRIP_HEADER || out[0] !== 0) throw new Error(`kerf engine: strip input rejected (status ${out.length ? out[0] : 'none'})`);
  const x0 = roll.trim.w1;
  const y0 = roll.trim.l1;
  const tree = decodeTree(out, STRIP_HEADER, x0, y0).node;
  const used = out[1]!;
  const root: EngineNode = tree.kind === 'free' || (tree.kind === 'cut' && tree.along === 'y') ? tree : { kind: 'cut', along: 'y', x: x0, y: y0, l: used, w: Y, children: [tree] };
  const trims = roll.trim.w1 + roll.trim.w2;
  const placed = partsArea(root);
  return {
    sheet: { stock: r, root, length: used + trims },
    length: used + trims,
    unplaced: unplacedOf(parts, root),
    iterations: out[2]!,
    effort: 0,
    timeToBest: performance.now() - startedAt,
    stopped: false,
    greedy: { length: out[3]! + trims, placedArea: placed },
    lowerBound: out[5]!,
  };
}

/** Largest x any part of the tree reaches. */
function partsEnd(n: EngineNode): number {
  return n.kind === 'part' ? n.x + n.l : (n.children as EngineNode[]).reduce((m, c) => Math.max(m, partsEnd(c)), n.x);
}

function partsArea(n: EngineNode): number {
  return n.kind === 'part' ? n.l * n.w : (n.children as EngineNode[]).reduce((s, c) => s + partsArea(c), 0);
}

/** Copies of each part the tree does not hold (one pass: jobs come with thousands of lines). */
function unplacedOf(parts: EnginePart[], root: EngineNode): number[] {
  const left = parts.map((p) => Math.max(0, p.q));
  for (const n of partsOf(root)) left[n.part]!--;
  return left;
}

function partsOf(n: EngineNode): Extract<EngineNode, { kind: 'part' }>[] {
  return n.kind === 'part' ? [n] : (n.children as EngineNode[]).flatMap(partsOf);
}

/** The tree moved by dx along x, every node cut off at x = end (no part reaches past it). */
function shiftClamp(n: EngineNode, dx: number, end: number): EngineNode {
  const x = n.x + dx;
  if (n.kind === 'part') return { ...n, x };
  if (n.kind === 'free') return { ...n, x, l: Math.min(n.l, end - x), children: n.children.map((c) => ({ ...c, x: c.x + dx })) };
  return { ...n, x, l: Math.min(n.l, end - x), children: n.children.map((c) => shiftClamp(c, dx, end)) };
}

// ---- free placement (cutType efficiency) ----
// The free packer gets the first share of the budget; a guillotine layout, which is a valid
// free layout too, gets the rest, and the better of the two is returned as free roots. So a
// CNC job is never cut worse than the same job on a panel saw.

/** Share of the budget given to the free packer (rolls: its strip search usually ends at the length bound). */
const FREE_SHARE = 0.5;
const FREE_SHARE_OPEN = 0.7;

/** Every part placed and every roll piece at the roll's length bound. */
function atLengthBound(problem: GuillotineProblem, sol: EngineSolution): boolean {
  if (sol.lengthBound === undefined || sol.unplaced.some((u) => u > 0)) return false;
  let used = 0;
  for (const sh of sol.sheets) {
    const row = problem.stock[sh.stock]!;
    if (!row.open || sh.length === undefined) return false;
    used += sh.length - row.trim.w1 - row.trim.w2;
  }
  return used <= sol.lengthBound + 1e-9;
}

function solveFreeBest(problem: GuillotineProblem, module: WebAssembly.Module): EngineSolution {
  const startedAt = performance.now();
  const open = problem.stock.some((s) => s.open);
  const share = open ? FREE_SHARE_OPEN : FREE_SHARE;
  const freeProblem = { ...problem, budgetMs: problem.budgetMs * share, ...(problem.searchMs !== undefined ? { searchMs: problem.searchMs * share } : {}) };
  const free = open ? solveOpenLength(freeProblem, module) : solveOnce(freeProblem, module);
  const left = Math.max(1, problem.budgetMs - (performance.now() - startedAt));
  const secondAt = performance.now() - startedAt;
  // Rolls cut to their length bound cannot be beaten: no guillotine run.
  const searchLeft = problem.searchMs !== undefined ? { searchMs: Math.max(1, problem.searchMs - secondAt) } : {};
  const cut = open && atLengthBound(problem, free) ? free : solveGuillotine({ ...problem, placement: 'guillotine', budgetMs: left, ...searchLeft }, module);
  const useFree = compareSolutions(problem, free, cut) <= 0;
  const best = useFree ? free : cut;
  return {
    sheets: best.sheets.map((sh) => ({ ...sh, root: asFree(sh.root) })),
    unplaced: best.unplaced,
    lowerBound: Math.max(free.lowerBound, cut.lowerBound),
    ...(open ? { lengthBound: Math.max(free.lengthBound ?? 0, cut.lengthBound ?? 0) } : {}),
    stats: {
      iterations: free.stats.iterations + (cut === free ? 0 : cut.stats.iterations),
      elapsedMs: performance.now() - startedAt,
      timeToBestMs: useFree ? free.stats.timeToBestMs : secondAt + cut.stats.timeToBestMs,
      stoppedByDeadline: free.stats.stoppedByDeadline || cut.stats.stoppedByDeadline,
      stopReason: cut === free ? free.stats.stopReason : laterStop(free.stats.stopReason, cut.stats.stopReason),
      effort: free.stats.effort + (cut === free ? 0 : cut.stats.effort),
      // The free packer's start: the result is at least as good as the free packer's own final layout.
      ...(free.stats.greedy ? { greedy: free.stats.greedy } : {}),
    },
  };
}

/** Negative when a is better: more placed area, then less stock (roll length, sheet area), then cost. */
function compareSolutions(problem: GuillotineProblem, a: EngineSolution, b: EngineSolution): number {
  const measure = (sol: EngineSolution) => {
    let placed = 0;
    let stock = 0;
    let cost = 0;
    for (const sh of sol.sheets) {
      const row = problem.stock[sh.stock]!;
      placed += partsArea(sh.root);
      stock += (sh.length ?? row.l) * row.w;
      cost += row.cost;
    }
    return { placed, stock, cost };
  };
  const ma = measure(a);
  const mb = measure(b);
  const tol = 1e-9 * Math.max(1, ma.placed, mb.placed, ma.stock, mb.stock);
  if (Math.abs(ma.placed - mb.placed) > tol) return mb.placed - ma.placed;
  if (Math.abs(ma.stock - mb.stock) > tol) return ma.stock - mb.stock;
  return ma.cost - mb.cost;
}

/** A layout as a free root over its usable region (a guillotine tree keeps only its parts). */
function asFree(root: EngineNode): EngineNode {
  if (root.kind === 'free') return root;
  return { kind: 'free', x: root.x, y: root.y, l: root.l, w: root.w, children: partsOf(root) };
}
