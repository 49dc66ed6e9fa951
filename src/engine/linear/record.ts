// Linear engine solution -> the SmartCut v3 result record. Each group of identical bars is
// one stock entry with `stack`; parts sit along x (y 0, rot 0) from the start trim, one
// kerf apart; every cut runs across the bar (dimension 'w', x1 == x2 == position, where the
// kerf starts), trims first; the bar end after the last cut is the remnant, an offcut when
// it is at least minOffcut long. Metadata carries the lower bound and whether the plan is
// proven optimal.
import type { MappedLinear } from './problem.js';
import { usableLength } from './problem.js';
import type { LinearSolution } from './types.js';
import type { CalcRequest, CalcStock } from '../../schema/request.js';
import type { ResultCut, ResultOffcut, ResultRecord, ResultStock } from '../../schema/result.js';
import { listParts, partsMetadata, type Placement } from '../../result/parts.js';
import { areaAndCutMetadata, round } from '../../result/totals.js';

const EPS = 1e-7;

interface BarPlan {
  cuts: { position: number; isTrim: boolean }[];
  parts: { row: number; x: number }[];
  /** Start and length of the bar end after the last cut (length 0: none). */
  remnant: { x: number; l: number };
}

/** Positions along one bar: start trim, parts one kerf apart, a cut after each part that does not end the usable length. */
export function planBar(stock: CalcStock, partLengths: number[], rows: number[], kerf: number): BarPlan {
  const start = stock.trim.l1;
  const end = start + usableLength(stock);
  const cuts: BarPlan['cuts'] = [];
  if (stock.trim.l1 > EPS) cuts.push({ position: start, isTrim: true });
  if (stock.trim.l2 > EPS) cuts.push({ position: end, isTrim: true });
  const parts: BarPlan['parts'] = [];
  let x = start;
  rows.forEach((row) => {
    parts.push({ row, x });
    x += partLengths[row];
    // A part ending at the usable end needs no cut; otherwise the kerf starts where it ends
    // (it may run past the usable end into the trim when less than a kerf is left).
    if (x < end - EPS) {
      cuts.push({ position: x, isTrim: false });
      x += kerf;
    }
  });
  const left = end - x;
  return { cuts, parts, remnant: { x, l: left > EPS ? left : 0 } };
}

export interface LinearBuildOptions {
  jobId: number;
  minOffcut: number;
}

export function buildLinearRecord(request: CalcRequest, mapped: MappedLinear, solution: LinearSolution, options: LinearBuildOptions): ResultRecord {
  const { saw } = request;
  const { wentOnPastStall, ...stats } = solution.stats;
  const kerf = saw.bladeWidth;
  const minOffcut = saw.options.minOffcut ?? options.minOffcut;
  const lengths = request.parts.map((p) => p.l);
  const stock: ResultStock[] = [];
  const cuts: ResultCut[] = [];
  const offcuts: ResultOffcut[] = [];
  const placements: Placement[][] = request.parts.map(() => []);
  const perRow = new Map<number, number>();
  const totals = { bars: 0, stockArea: 0, partArea: 0, stockLength: 0, partLength: 0, cuts: 0, cutLength: 0, bladeArea: 0, trimArea: 0, cost: 0, produced: 0 };
  const usedStockTally: Record<string, number> = {};
  const addedPartTally: Record<string, number> = {};
  const materialSummary: Record<string, { stockUsed: number; stockArea: number; partArea: number }> = {};

  for (const group of solution.groups) {
    const s = request.stock[group.stock];
    const k = perRow.get(s.index) ?? 0;
    perRow.set(s.index, k + 1);
    const id = `${s.index}.${k}`;
    const plan = planBar(s, lengths, group.parts, kerf);
    const n = group.bars;
    // Parts on a bar have its profile (w 0: none given), so areas are lengths times the bar's w.
    const partLength = group.parts.reduce((sum, row) => sum + request.parts[row].l, 0);
    const partArea = partLength * s.w;
    const cutLength = plan.cuts.length * s.w;
    stock.push({
      id, name: s.name, l: s.l, w: s.w, t: s.t ?? null, material: s.material, grain: s.grain, type: 'linear', used: true,
      trim: s.trim, cost: s.cost, notes: s.notes, customData: s.customData, stack: n,
      analysis: {
        areaEfficiency: round(partLength / s.l), partArea: round(partArea), totalParts: group.parts.length,
        numberOfCuts: plan.cuts.length, cutLength: round(cutLength), stackedNumberOfCuts: plan.cuts.length * n,
        stackedCutLength: round(cutLength * n), bandingLength: 0, finishArea: 0, rollLength: 0,
      },
    });
    plan.cuts.forEach((c, i) => {
      cuts.push({
        x1: round(c.position), y1: 0, x2: round(c.position), y2: s.w, dimension: 'w', position: round(c.position),
        isTrim: c.isTrim, order: i + 1, phase: c.isTrim ? 0 : 1, stock: { id },
      });
    });
    if (plan.remnant.l > 0 && plan.remnant.l >= minOffcut) {
      offcuts.push({
        id: `${id}.0`, l: round(plan.remnant.l), w: s.w, t: s.t ?? null, x: round(plan.remnant.x), y: 0, q: n,
        material: s.material, grain: s.grain, addToInventory: false /* set by markOffcuts */, stock: { id },
      });
    }
    for (let copy = 0; copy < n; copy++) for (const p of plan.parts) placements[p.row].push({ x: p.x, y: 0, rot: 0, stockId: id });

    totals.bars += n;
    totals.stockArea += s.l * s.w * n;
    totals.partArea += partArea * n;
    totals.stockLength += s.l * n;
    totals.partLength += partLength * n;
    totals.cuts += plan.cuts.length * n;
    totals.cutLength += cutLength * n;
    totals.bladeArea += plan.cuts.filter((c) => !c.isTrim).length * kerf * s.w * n;
    totals.trimArea += (s.trim.l1 + s.trim.l2) * s.w * n;
    totals.cost += s.cost * n;
    totals.produced += group.parts.length * n;
    usedStockTally[s.id] = (usedStockTally[s.id] ?? 0) + n;
    for (const row of group.parts) addedPartTally[String(row)] = (addedPartTally[String(row)] ?? 0) + n;
    const m = (materialSummary[s.material] ??= { stockUsed: 0, stockArea: 0, partArea: 0 });
    m.stockUsed += n;
    m.stockArea += s.l * s.w * n;
    m.partArea += partArea * n;
  }

  for (const s of request.stock) {
    if (perRow.has(s.index)) continue;
    stock.push({
      id: `${s.index}.0`, name: s.name, l: s.l, w: s.w, t: s.t ?? null, material: s.material, grain: s.grain, type: 'linear',
      used: false, trim: s.trim, cost: s.cost, notes: s.notes, customData: s.customData, stack: 0,
      analysis: { areaEfficiency: 0, partArea: 0, totalParts: 0, numberOfCuts: 0, cutLength: 0, stackedNumberOfCuts: 0, stackedCutLength: 0, bandingLength: 0, finishArea: 0, rollLength: 0 },
    });
  }

  const { parts, unusableParts } = listParts(request, placements, mapped.blocked,
    (missing, q) => `not enough stock: ${missing} of ${q} could not be cut from the bars available`);
  // The objective is bars, or cost when costs are given; the bound is in the same unit. With
  // offcuts first it is of the new stock alone (see offcutWeights).
  const scale = mapped.offcutScale;
  const byCost = request.stock.some((s) => s.cost > 0);
  const newBars = request.stock.filter((s) => s.offcut).length && scale
    ? stock.filter((s) => s.used && !request.stock[Number.parseInt(s.id, 10)]!.offcut).reduce((sum, s) => sum + (byCost ? s.cost : 1) * s.stack, 0)
    : undefined;
  const achieved = newBars ?? (mapped.problem.objective === 'cost' ? totals.cost : totals.bars);
  const lowerBound = Math.floor((scale ? solution.lowerBound / scale : solution.lowerBound) + 1e-9);
  const offcutArea = offcuts.reduce((sum, o) => sum + o.l * o.w * o.q, 0);
  return {
    jobId: options.jobId,
    // Bars are cut to length only: no cut type, preference, stack or guillotine stages to echo.
    saw: { stockType: saw.stockType, bladeWidth: saw.bladeWidth, options: saw.options },
    stock,
    parts,
    cuts,
    offcuts,
    unusableParts,
    metadata: {
      ...areaAndCutMetadata(totals),
      // By length: the same as by area when bars give a profile, and defined when they do not.
      totalEfficiency: totals.stockLength > 0 ? round(totals.partLength / totals.stockLength) : 0,
      totalOffcutsArea: round(offcutArea),
      totalOffcuts: offcuts.reduce((sum, o) => sum + o.q, 0),
      totalBladeArea: round(totals.bladeArea),
      totalTrimArea: round(totals.trimArea),
      totalPartsProduced: totals.produced,
      totalUsedStock: totals.bars,
      totalRollLength: 0,
      totalStockCost: round(totals.cost),
      usedStockTally,
      addedPartTally,
      materialSummary,
      ...partsMetadata(request, unusableParts),
      lowerBound,
      lowerBoundGap: Math.max(0, Math.ceil(achieved - lowerBound - 1e-9)),
      optimal: solution.optimal && unusableParts.length === 0,
      seed: saw.options.seed,
      // A search that went on past its stall until searchTime ended by the clock too.
      engine: { ...stats, stoppedByDeadline: stats.stoppedByDeadline || wentOnPastStall },
    },
  };
}
