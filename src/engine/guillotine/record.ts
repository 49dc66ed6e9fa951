// Engine solution -> the SmartCut v3 result record: identical sheets folded into one stock
// entry with `stack`, every requested part instance listed, cuts in saw order, offcuts,
// unusable parts with their reasons, and the metadata totals.
import type { MappedProblem } from './problem.js';
import type { EngineSolution } from './types.js';
import type { CalcRequest } from '../../schema/request.js';
import type { ResultCut, ResultOffcut, ResultRecord, ResultStock, UnusablePart } from '../../schema/result.js';
import { planSheet, type CutPlan } from './cut-plan.js';
import { planFree } from '../free/plan.js';
import { listParts, partsMetadata, type Placement } from '../../result/parts.js';
import { areaAndCutMetadata, round } from '../../result/totals.js';

interface Pattern {
  stock: number;
  /** Roll stock: the length taken from the roll (trims included); undefined for sheets. */
  length?: number;
  plan: CutPlan;
  stack: number;
  id: string;
}

const area = (p: { l: number; w: number }) => p.l * p.w;

function signature(stock: number, plan: CutPlan, mode: string): string {
  const parts = plan.parts.map((p) => `${mode === 'dimensions' ? `${p.l}x${p.w}` : p.part}@${p.x},${p.y},${p.rot}`);
  return `${stock}|${parts.join(';')}|${plan.cuts.map((c) => `${c.dimension}${c.position}:${c.x1},${c.y1}`).join(';')}`;
}

/** Folds identical sheets into patterns, in the order the engine produced them. */
function foldPatterns(request: CalcRequest, mapped: MappedProblem, solution: EngineSolution, minOffcut: number): Pattern[] {
  const { problem } = mapped;
  const mode = request.saw.options.stackingMode;
  const patterns: Pattern[] = [];
  const bySignature = new Map<string, Pattern>();
  const perStock = new Map<number, number>();
  for (const sheet of solution.sheets) {
    const engineStock = problem.stock[sheet.stock];
    // A roll is planned as a sheet of the length it used; its first cuts run across it.
    const cutStockRow = sheet.length === undefined ? engineStock : { ...engineStock, l: sheet.length };
    const plan = sheet.root.kind === 'free'
      ? planFree(cutStockRow, sheet.root, problem.kerf, minOffcut)
      : planSheet(cutStockRow, sheet.root, problem.kerf, sheet.length === undefined ? problem.firstCut : 'y');
    const key = `${sheet.length ?? ''}|${signature(sheet.stock, plan, mode)}`;
    const existing = mode === 'none' ? undefined : bySignature.get(key);
    if (existing) {
      existing.stack++;
      continue;
    }
    const k = perStock.get(sheet.stock) ?? 0;
    perStock.set(sheet.stock, k + 1);
    const pattern: Pattern = { stock: sheet.stock, length: sheet.length, plan, stack: 1, id: `${sheet.stock}.${k}` };
    patterns.push(pattern);
    bySignature.set(key, pattern);
  }
  return patterns;
}

/** The request stock row as cut: a roll counts only the length it used. */
function cutStock<S extends { l: number }>(s: S, pattern: Pattern): S {
  return pattern.length === undefined ? s : { ...s, l: pattern.length };
}

function cutLength(cuts: { x1: number; y1: number; x2: number; y2: number }[]): number {
  return cuts.reduce((sum, c) => sum + Math.abs(c.x2 - c.x1) + Math.abs(c.y2 - c.y1), 0);
}

export interface BuildOptions {
  jobId: number;
  minOffcut: number;
}

export function buildRecord(request: CalcRequest, mapped: MappedProblem, solution: EngineSolution, options: BuildOptions): ResultRecord {
  const { saw } = request;
  const minOffcut = saw.options.minOffcut ?? options.minOffcut;
  const patterns = foldPatterns(request, mapped, solution, minOffcut);
  const books = (stack: number) => (saw.cutType === 'beam' ? Math.ceil(stack / saw.stackHeight) : stack);

  const stock: ResultStock[] = [];
  const cuts: ResultCut[] = [];
  const offcuts: ResultOffcut[] = [];
  const placements: { row: number; x: number; y: number; rot: 0 | 1; stockId: string }[] = [];

  for (const pattern of patterns) {
    const s = cutStock(request.stock[pattern.stock], pattern);
    const { plan } = pattern;
    const partArea = plan.parts.reduce((sum, p) => sum + area(p), 0);
    const length = cutLength(plan.cuts);
    stock.push({
      id: pattern.id,
      name: s.name,
      l: s.l,
      w: s.w,
      t: s.t ?? null,
      material: s.material,
      grain: s.grain,
      type: saw.stockType,
      used: true,
      trim: s.trim,
      cost: s.cost,
      notes: s.notes,
      customData: s.customData,
      stack: pattern.stack,
      analysis: {
        areaEfficiency: round(partArea / area(s)),
        partArea: round(partArea),
        totalParts: plan.parts.length,
        numberOfCuts: plan.cuts.length,
        cutLength: round(length),
        stackedNumberOfCuts: plan.cuts.length * books(pattern.stack),
        stackedCutLength: round(length * books(pattern.stack)),
        bandingLength: 0,
        finishArea: 0,
        rollLength: round(pattern.length ?? 0),
      },
    });
    plan.cuts.forEach((c, i) => {
      cuts.push({
        x1: round(c.x1), y1: round(c.y1), x2: round(c.x2), y2: round(c.y2),
        dimension: c.dimension, position: round(c.position), isTrim: c.isTrim,
        order: i + 1, phase: c.phase, stock: { id: pattern.id },
      });
    });
    plan.waste
      .filter((piece) => piece.l >= minOffcut && piece.w >= minOffcut)
      .forEach((piece, i) => {
        offcuts.push({
          id: `${pattern.id}.${i}`,
          l: round(piece.l), w: round(piece.w), t: s.t ?? null,
          x: round(piece.x), y: round(piece.y), q: pattern.stack,
          material: s.material, grain: s.grain, addToInventory: false /* set by markOffcuts */, stock: { id: pattern.id },
        });
      });
    for (let copy = 0; copy < pattern.stack; copy++) {
      for (const p of plan.parts) placements.push({ row: p.part, x: p.x, y: p.y, rot: p.rot, stockId: pattern.id });
    }
  }

  const usedRows = new Set(patterns.map((p) => p.stock));
  for (const s of request.stock) {
    if (usedRows.has(s.index)) continue;
    stock.push({
      id: `${s.index}.0`, name: s.name, l: s.l, w: s.w, t: s.t ?? null, material: s.material, grain: s.grain,
      type: saw.stockType, used: false, trim: s.trim, cost: s.cost, notes: s.notes, customData: s.customData, stack: 0,
      analysis: { areaEfficiency: 0, partArea: 0, totalParts: 0, numberOfCuts: 0, cutLength: 0, stackedNumberOfCuts: 0, stackedCutLength: 0, bandingLength: 0, finishArea: 0, rollLength: 0 },
    });
  }

  const placedByRow: Placement[][] = request.parts.map(() => []);
  for (const { row, ...at } of placements) placedByRow[row].push(at);
  const { parts, unusableParts } = listParts(request, placedByRow, mapped.blocked,
    (missing, q) => `not enough stock: ${missing} of ${q} could not be placed on the stock available`);

  return {
    jobId: options.jobId,
    saw: { ...saw },
    stock,
    parts,
    cuts,
    offcuts,
    unusableParts,
    metadata: metadata(request, patterns, offcuts, unusableParts, solution, books),
  };
}

function metadata(
  request: CalcRequest,
  patterns: Pattern[],
  offcuts: ResultOffcut[],
  unusable: UnusablePart[],
  solution: EngineSolution,
  books: (stack: number) => number,
): ResultRecord['metadata'] {
  const kerf = request.saw.bladeWidth;
  let stockArea = 0, partArea = 0, cutsCount = 0, cutLen = 0, stackedCuts = 0, stackedLen = 0, bladeArea = 0, trimArea = 0;
  let sheets = 0, cost = 0, produced = 0;
  const usedStockTally: Record<string, number> = {};
  const addedPartTally: Record<string, number> = {};
  const materialSummary: Record<string, { stockUsed: number; stockArea: number; partArea: number }> = {};
  let rollLength = 0;
  for (const pattern of patterns) {
    const s = cutStock(request.stock[pattern.stock], pattern);
    const n = pattern.stack;
    rollLength += (pattern.length ?? 0) * n;
    const sheetPartArea = pattern.plan.parts.reduce((sum, p) => sum + area(p), 0);
    const length = cutLength(pattern.plan.cuts);
    const nonTrimLength = cutLength(pattern.plan.cuts.filter((c) => !c.isTrim));
    const usable = (s.l - s.trim.w1 - s.trim.w2) * (s.w - s.trim.l1 - s.trim.l2);
    sheets += n;
    stockArea += area(s) * n;
    partArea += sheetPartArea * n;
    cutsCount += pattern.plan.cuts.length * n;
    cutLen += length * n;
    stackedCuts += pattern.plan.cuts.length * books(n);
    stackedLen += length * books(n);
    bladeArea += nonTrimLength * kerf * n;
    trimArea += (area(s) - usable) * n;
    cost += s.cost * n;
    produced += pattern.plan.parts.length * n;
    usedStockTally[s.id] = (usedStockTally[s.id] ?? 0) + n;
    for (const p of pattern.plan.parts) addedPartTally[String(p.part)] = (addedPartTally[String(p.part)] ?? 0) + n;
    const m = (materialSummary[s.material] ??= { stockUsed: 0, stockArea: 0, partArea: 0 });
    m.stockUsed += n;
    m.stockArea += area(s) * n;
    m.partArea += sheetPartArea * n;
  }
  const offcutArea = offcuts.reduce((sum, o) => sum + o.l * o.w * o.q, 0);
  return {
    ...areaAndCutMetadata({ stockArea, partArea, cuts: cutsCount, cutLength: cutLen, stackedCuts, stackedCutLength: stackedLen }),
    totalOffcutsArea: round(offcutArea),
    totalOffcuts: offcuts.reduce((sum, o) => sum + o.q, 0),
    totalBladeArea: round(bladeArea),
    totalTrimArea: round(trimArea),
    totalPartsProduced: produced,
    totalUsedStock: sheets,
    totalRollLength: round(rollLength),
    totalStockCost: round(cost),
    usedStockTally,
    addedPartTally,
    materialSummary,
    ...partsMetadata(request, unusable),
    lowerBound: solution.lowerBound,
    lowerBoundGap: Math.max(0, sheets - solution.lowerBound),
    seed: request.saw.options.seed,
    engine: { ...solution.stats },
  };
}
