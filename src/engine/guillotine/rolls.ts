// Open-length stock (rolls), solved around the engine, which packs fixed sheets: a strip run,
// a row of bands and a bisection of the roll's length over one-sheet probes, each with its
// share of the roll's budget (the *_SHARE constants below); the shortest piece wins.

import type { EngineNode, EnginePart, EngineSheet, EngineSolution, GreedyStart, GuillotineProblem } from './types.js';
import type { StopReason } from '../common/stop-reason.js';
import { runStrip, solveOnce, type StripPart } from './boundary.js';
import { compareSolutions, partsArea, partsEnd, shiftClamp, unplacedOf } from './tree.js';
import { atLeastDefault } from '../common/search-policy.js';

// ---- one roll after another ----
// A roll is first solved as a row of bands (see
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


export function solveOpenLength(asked: GuillotineProblem, module: WebAssembly.Module): EngineSolution {
  const startedAt = performance.now();
  // Many engine runs share a roll's time, each at the fixed effort (rule effort, the default's
  // stop): first as the default would, under its clock (the ceiling, or searchTime's when
  // longer); then, with searchTime and time left, a run with no effort limit until the time
  // asked, kept when it is better. So a searchTime never gives a longer roll than the default.
  const rule = asked.stopRule ?? 'effort';
  const budgetMs = asked.budgetMs;
  const searchMs = rule !== 'effort' && asked.searchMs !== undefined ? Math.min(budgetMs, asked.searchMs) : budgetMs;
  const ceilingMs = rule === 'searchTime' ? Math.min(budgetMs, asked.ceilingMs ?? budgetMs) : searchMs;
  const first = atLeastDefault({ budgetMs, rule: rule === 'searchTime' ? 'searchTime' : 'stall', searchMs, ceilingMs });
  const base: GuillotineProblem = { ...asked, stopRule: 'effort' };
  let best = solveRolls({ ...base, budgetMs: first.limitMs }, module);
  let clock: StopReason | undefined = best.stats.stoppedByDeadline ? first.clock : undefined;
  const leftMs = startedAt + searchMs - performance.now();
  if (rule === 'searchTime' && best.stats.stopReason !== 'lower-bound' && leftMs >= MIN_RUN_MS) {
    const more = solveRolls({ ...base, effort: 0, budgetMs: leftMs }, module);
    const t0 = performance.now() - startedAt - more.stats.elapsedMs;
    const kept = compareSolutions(asked, more, best) < 0 ? { ...more, stats: { ...more.stats, timeToBestMs: t0 + more.stats.timeToBestMs } } : best;
    // With no effort limit only the bound or the clock ends it.
    if (more.stats.stopReason !== 'lower-bound') clock = searchMs >= budgetMs ? 'budget' : 'searchTime';
    best = {
      ...kept,
      stats: {
        ...kept.stats,
        iterations: best.stats.iterations + more.stats.iterations,
        effort: best.stats.effort + more.stats.effort,
        stoppedByDeadline: best.stats.stoppedByDeadline || more.stats.stoppedByDeadline,
        ...(best.stats.greedy ? { greedy: best.stats.greedy } : {}),
      },
    };
  }
  const stopReason: StopReason = best.stats.stopReason === 'lower-bound' ? 'lower-bound' : clock ?? 'effort';
  return { ...best, stats: { ...best.stats, elapsedMs: performance.now() - startedAt, stopReason } };
}

/** A run of the rolls shorter than this is not started (too short to do anything useful). */
const MIN_RUN_MS = 5;

/** One pass over the roll rows within problem.budgetMs: 'lower-bound' when every piece meets its bound, else 'effort' (the caller names the clock when stoppedByDeadline). */
function solveRolls(problem: GuillotineProblem, module: WebAssembly.Module): EngineSolution {
  const startedAt = performance.now();
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
  const stopReason: StopReason = left.every((u) => u === 0) && used <= bound + 1e-9 ? 'lower-bound' : 'effort';
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
  // Kerf-inflated area bound on the length (see engine-as/sheets/bounds.ts).
  let lo = Math.min(ub, Math.max(0, area / (Y + k) - k));
  if (integral) lo = Math.ceil(lo - 1e-9);
  const bound = lo;
  // Half the budget to the band search, the rest to bisection below the length it found.
  let banded: BandedRoll | undefined;
  let bandedUsed = Infinity;
  // Whether any run on this roll met a clock limit (a piece at its bound is proven all the same).
  let clocked = false;
  const free = problem.placement === 'free';
  if (problem.maxPhase !== 1 || free) {
    // Proven up front (a blade wider than the parts, say): when no two parts fit side by side
    // across the roll, no piece is shorter than endToEnd; the first strip of that length is
    // optimal, so a strip at the smallest effort is tried before any search.
    if (oneAcross(parts, roll.grain, Y, k) && endToEnd <= cap + 1e-9) {
      const quick = solveRollStrip({ ...problem, effort: PROVEN_EFFORT }, parts, r, budgetMs, module);
      clocked ||= !!quick?.stopped;
      const quickUsed = quick?.sheet && quick.unplaced.every((u) => u === 0) ? quick.length! - roll.trim.w1 - roll.trim.w2 : Infinity;
      if (quick?.sheet && quickUsed <= endToEnd + 1e-9) {
        const unplaced = quick.unplaced.map((u, i) => u + left[i]!);
        return { sheet: quick.sheet, unplaced, bound: endToEnd, iterations: quick.iterations, effort: 0, timeToBest: quick.timeToBest, stopped: false, greedy: quick.greedy };
      }
    }
    const unlimited = problem.maxPhase === 0;
    const strip = solveRollStrip(problem, parts, r, budgetMs * (free ? FREE_STRIP_SHARE : unlimited ? STRIP_SHARE : STRIP_SHARE_STAGED), module);
    clocked ||= !!strip?.stopped;
    const complete = (b?: BandedRoll): b is BandedRoll => !!b?.sheet && b.unplaced.every((u) => u === 0);
    // A strip at its lower bound is optimal: nothing left to search.
    const stripUsed = complete(strip) ? strip.length! - roll.trim.w1 - roll.trim.w2 : Infinity;
    if (complete(strip) && stripUsed <= strip.lowerBound! + 1e-9 && stripUsed <= cap + 1e-9) {
      const unplaced = strip.unplaced.map((u, i) => u + left[i]!);
      return { sheet: strip.sheet, unplaced, bound: Math.max(bound, strip.lowerBound!), iterations: strip.iterations, effort: 0, timeToBest: strip.timeToBest, stopped: false, greedy: strip.greedy };
    }
    // Free placement goes on with free probes only (bands are guillotine).
    if (!free) banded = solveRollBands(problem, parts, r, extent, budgetMs * (unlimited ? BAND_SHARE : BAND_SHARE_STAGED), module);
    clocked ||= !!banded?.stopped;
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
  let stopped = clocked || best.stats.stoppedByDeadline;
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
    stopped ||= sol.stats.stoppedByDeadline;
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
    return { sheet: banded.sheet, unplaced, bound, iterations, effort, timeToBest: Math.min(timeToBest, banded.timeToBest), stopped, greedy };
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

function solveRollStrip(problem: GuillotineProblem, parts: EnginePart[], r: number, budgetMs: number, module: WebAssembly.Module): BandedRoll | undefined {
  const roll = problem.stock[r]!;
  const Y = roll.w - roll.trim.l1 - roll.trim.l2;
  const rows: StripPart[] = [];
  let any = false;
  for (const p of parts) {
    const m = p.rotMask[roll.grain]!;
    const mask = (m & 1 && p.w <= Y ? 1 : 0) | (m & 2 && p.l <= Y ? 2 : 0);
    const q = mask ? Math.max(0, p.q) : 0;
    any ||= q > 0;
    rows.push({ l: p.l, w: p.w, q, mask });
  }
  if (!any) return undefined;
  const startedAt = performance.now();
  const run = { width: Y, kerf: problem.kerf, maxPhase: problem.placement === 'free' ? -1 : problem.maxPhase, seed: problem.seed, budgetMs, effort: problem.effort ?? 1 };
  const x0 = roll.trim.w1;
  const y0 = roll.trim.l1;
  const { tree, used, iterations, firstUsed, lowerBound, stoppedByDeadline: stopped } = runStrip(run, rows, x0, y0, module);
  const root: EngineNode = tree.kind === 'free' || (tree.kind === 'cut' && tree.along === 'y') ? tree : { kind: 'cut', along: 'y', x: x0, y: y0, l: used, w: Y, children: [tree] };
  const trims = roll.trim.w1 + roll.trim.w2;
  const placed = partsArea(root);
  return {
    sheet: { stock: r, root, length: used + trims },
    length: used + trims,
    unplaced: unplacedOf(parts, root),
    iterations,
    effort: 0,
    timeToBest: performance.now() - startedAt,
    stopped,
    greedy: { length: firstUsed + trims, placedArea: placed },
    lowerBound,
  };
}
