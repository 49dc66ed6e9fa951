// Nesting engine solution -> the SmartCut v3 result record. One stock entry per distinct
// sheet (or roll piece, whose l is the length used, trims and edge clearance included):
// identical sheets (same stock row and length, same parts in the same places, turns and
// mirror images) fold into one entry with `stack` = their count; each placed
// part carries rotation (degrees), mirrored, and its outline and holes in stock coordinates.
// Nothing is cut by a saw, so cuts are empty; a sheet's cut length is the length of the
// contours the tool follows (outlines and holes). Offcuts are the remnants a straight line
// across the sheet frees: beyond the parts along x (sheets only: a roll piece ends there),
// then above them over the length they use, each clear of the parts by the part clearance
// and at least minOffcut on both sides.
import { usableRegion, type MappedNesting } from './problem.js';
import { placePoint, type NestingSolution } from './solve.js';
import { signedArea, type Pt } from '../../schema/part-shapes.js';
import type { CalcRequest } from '../../schema/request.js';
import type { ResultOffcut, ResultPart, ResultRecord, ResultStock } from '../../schema/result.js';
import { listParts, partsMetadata, type Placement } from '../../result/parts.js';
import { areaAndCutMetadata, round } from '../../result/totals.js';


const perimeter = (ring: Pt[]) => ring.reduce((s, p, i) => s + Math.hypot(ring[(i + 1) % ring.length].x - p.x, ring[(i + 1) % ring.length].y - p.y), 0);
const materialArea = (rings: Pt[][]) => Math.abs(signedArea(rings[0])) - rings.slice(1).reduce((s, r) => s + Math.abs(signedArea(r)), 0);

interface Extra { rotation: number; mirrored: boolean; placedOutline: Pt[]; placedHoles: Pt[][] }

export interface NestingBuildOptions {
  jobId: number;
  /** Smallest offcut side worth listing when the request sets none. */
  minOffcut: number;
}

type Box = ReturnType<typeof usableRegion>;

/**
 * Remnants of a sheet's usable region whose parts reach x <= reachX, y <= reachY: the region
 * beyond the parts (not on a roll, which is cut where the parts end), then the band above
 * them; each `gap` clear of the parts, kept when both sides reach `min`.
 */
function remnants(region: Box, reachX: number, reachY: number, gap: number, roll: boolean, min: number): Box[] {
  const { x0, y0, x1, y1 } = region;
  const out: Box[] = [];
  const across = Math.min(x1, reachX + gap);
  const right = { x0: across, y0, x1, y1 };
  if (!roll && right.x1 - right.x0 >= min && right.y1 - right.y0 >= min) out.push(right);
  const top = { x0, y0: Math.min(y1, reachY + gap), x1: out.length ? across : x1, y1 };
  if (top.x1 - top.x0 >= min && top.y1 - top.y0 >= min) out.push(top);
  return out;
}

/**
 * For each sheet, the index of the first sheet identical to it (itself when none came
 * earlier), or each its own under stackingMode 'none'. Identical: same stock row and
 * length, and the same multiset of (part, x, y, turn, mirror); with stackingMode
 * 'dimensions' parts of the same size and shape count as the same part.
 */
function foldSheets(request: CalcRequest, mapped: MappedNesting, solution: NestingSolution, sheetLength: number[], rowOfType: Map<number, number>): number[] {
  const mode = request.saw.options.stackingMode;
  const keys: string[][] = solution.sheets.map((sheet, i) => [`${sheet.stock}|${round(sheetLength[i])}`]);
  for (const item of solution.items) {
    if (item.sheet < 0) continue;
    const row = rowOfType.get(item.type)!;
    const part = mode === 'dimensions' ? JSON.stringify(mapped.rings[row]) : String(row);
    keys[item.sheet].push(`${part}@${round(item.dx)},${round(item.dy)},${round(item.angle)},${item.mirror ? 1 : 0}`);
  }
  const firstOf = new Map<string, number>();
  return keys.map(([head, ...places], i) => {
    if (mode === 'none') return i;
    const key = `${head}|${places.sort().join(';')}`;
    const first = firstOf.get(key);
    if (first !== undefined) return first;
    firstOf.set(key, i);
    return i;
  });
}

export function buildNestingRecord(request: CalcRequest, mapped: MappedNesting, solution: NestingSolution, options: NestingBuildOptions): ResultRecord {
  const { saw } = request;
  const roll = saw.stockType === 'roll';
  const edge = mapped.problem.edge;
  const rowOfType = new Map<number, number>();
  mapped.typeOf.forEach((t, row) => t >= 0 && rowOfType.set(t, row));

  // Stock entries: identical sheets share one (the first of them), counted in `stack`.
  const sheetLength = solution.sheets.map((sheet) => {
    const s = request.stock[sheet.stock];
    return roll ? Math.min(s.l, s.trim.w1 + sheet.usedLength + edge + s.trim.w2) : s.l;
  });
  const entryOf = foldSheets(request, mapped, solution, sheetLength, rowOfType);
  const stackOf = new Map<number, number>();
  entryOf.forEach((e) => stackOf.set(e, (stackOf.get(e) ?? 0) + 1));
  const perRow = new Map<number, number>();
  const sheetIds: string[] = [];
  solution.sheets.forEach((sheet, i) => {
    if (entryOf[i] !== i) {
      sheetIds.push(sheetIds[entryOf[i]]);
      return;
    }
    const s = request.stock[sheet.stock];
    const k = perRow.get(s.index) ?? 0;
    perRow.set(s.index, k + 1);
    sheetIds.push(`${s.index}.${k}`);
  });

  const placements: Placement[][] = request.parts.map(() => []);
  const extras: Extra[][] = request.parts.map(() => []);
  const sheetStats = solution.sheets.map(() => ({ parts: 0, area: 0, contours: 0, cutLength: 0, reachX: -Infinity, reachY: -Infinity }));
  for (const item of solution.items) {
    if (item.sheet < 0) continue;
    const row = rowOfType.get(item.type)!;
    const part = request.parts[row];
    const rings = mapped.rings[row].map((ring) => ring.map((p) => placePoint(item, p.x, p.y)));
    const frame = [[0, 0], [part.l, 0], [part.l, part.w], [0, part.w]].map(([x, y]) => placePoint(item, x, y));
    const x = Math.min(...frame.map((p) => p.x));
    const y = Math.min(...frame.map((p) => p.y));
    const rotation = ((item.angle % 360) + 360) % 360;
    placements[row].push({ x, y, rot: Math.abs((rotation % 180) - 90) < 1e-9 ? 1 : 0, stockId: sheetIds[item.sheet] });
    extras[row].push({
      rotation: round(rotation),
      mirrored: item.mirror,
      placedOutline: rings[0].map((p) => ({ x: round(p.x), y: round(p.y) })),
      placedHoles: rings.slice(1).map((ring) => ring.map((p) => ({ x: round(p.x), y: round(p.y) }))),
    });
    const st = sheetStats[item.sheet];
    st.parts++;
    st.area += materialArea(rings);
    st.contours += rings.length;
    st.cutLength += rings.reduce((sum, ring) => sum + perimeter(ring), 0);
    for (const p of rings[0]) {
      st.reachX = Math.max(st.reachX, p.x);
      st.reachY = Math.max(st.reachY, p.y);
    }
  }

  const minOffcut = saw.options.minOffcut ?? options.minOffcut;
  const stock: ResultStock[] = [];
  const offcuts: ResultOffcut[] = [];
  const totals = { stockArea: 0, partArea: 0, cuts: 0, cutLength: 0, trimArea: 0, cost: 0, produced: 0, rollLength: 0 };
  const usedStockTally: Record<string, number> = {};
  const materialSummary: Record<string, { stockUsed: number; stockArea: number; partArea: number }> = {};
  solution.sheets.forEach((sheet, i) => {
    const s = request.stock[sheet.stock];
    const l = sheetLength[i];
    const st = sheetStats[i];
    const area = l * s.w;
    // Totals below count every sheet; the entry is written once, for the first of its stack.
    const n = stackOf.get(i);
    if (n !== undefined) {
      stock.push({
        id: sheetIds[i], name: s.name, l: round(l), w: s.w, t: s.t ?? null, material: s.material, grain: s.grain, type: roll ? 'roll' : 'sheet',
        used: true, trim: s.trim, cost: s.cost, notes: s.notes, customData: s.customData, stack: n,
        analysis: {
          areaEfficiency: round(st.area / area), partArea: round(st.area), totalParts: st.parts,
          numberOfCuts: st.contours, cutLength: round(st.cutLength), stackedNumberOfCuts: st.contours * n, stackedCutLength: round(st.cutLength * n),
          bandingLength: 0, finishArea: 0, rollLength: roll ? round(l) : 0,
        },
      });
      // A roll piece's region ends at its used length.
      const region = { ...usableRegion(s), x1: l - s.trim.w2 };
      if (st.parts > 0) remnants(region, st.reachX, st.reachY, mapped.problem.gap, roll, minOffcut).forEach((r, k) => {
        offcuts.push({
          id: `${sheetIds[i]}.${k}`, l: round(r.x1 - r.x0), w: round(r.y1 - r.y0), t: s.t ?? null,
          x: round(r.x0), y: round(r.y0), q: n, material: s.material, grain: s.grain, addToInventory: false /* set by markOffcuts */, stock: { id: sheetIds[i] },
        });
      });
    }
    totals.stockArea += area;
    totals.partArea += st.area;
    totals.cuts += st.contours;
    totals.cutLength += st.cutLength;
    totals.trimArea += area - (l - s.trim.w1 - s.trim.w2) * (s.w - s.trim.l1 - s.trim.l2);
    totals.cost += s.cost;
    totals.produced += st.parts;
    if (roll) totals.rollLength += l;
    usedStockTally[s.id] = (usedStockTally[s.id] ?? 0) + 1;
    const m = (materialSummary[s.material] ??= { stockUsed: 0, stockArea: 0, partArea: 0 });
    m.stockUsed++;
    m.stockArea += area;
    m.partArea += st.area;
  });
  for (const s of request.stock) {
    if (perRow.has(s.index)) continue;
    stock.push({
      id: `${s.index}.0`, name: s.name, l: s.l, w: s.w, t: s.t ?? null, material: s.material, grain: s.grain, type: roll ? 'roll' : 'sheet',
      used: false, trim: s.trim, cost: s.cost, notes: s.notes, customData: s.customData, stack: 0,
      analysis: { areaEfficiency: 0, partArea: 0, totalParts: 0, numberOfCuts: 0, cutLength: 0, stackedNumberOfCuts: 0, stackedCutLength: 0, bandingLength: 0, finishArea: 0, rollLength: 0 },
    });
  }

  const listed = listParts(request, placements, mapped.blocked,
    (missing, q) => `not enough stock: ${missing} of ${q} could not be nested on the stock available${solution.stats.stop === 'clock' ? ' within the time budget' : ''}`);
  const parts: ResultPart[] = listed.parts.map((p) => {
    const [row, copy] = p.id.split('.').map(Number);
    const extra = p.added ? extras[row][copy] : undefined;
    return extra ? { ...p, ...extra } : p;
  });
  const unusableParts = listed.unusableParts;

  // Area bound: the parts that can be placed need at least this many of the largest sheet.
  let placeableArea = 0;
  request.parts.forEach((p, row) => {
    if (mapped.typeOf[row] >= 0) placeableArea += materialArea(mapped.rings[row]) * p.q;
  });
  const largest = Math.max(0, ...mapped.problem.stock.map((s) => (s.x1 - s.x0) * (s.y1 - s.y0)));
  const lowerBound = roll ? Math.min(1, solution.sheets.length) : largest > 0 ? Math.ceil(placeableArea / largest - 1e-9) : 0;
  // On a roll the search shortens the length: no piece is shorter than the parts' area over the widest roll.
  const widest = Math.max(0, ...mapped.problem.stock.map((s) => s.y1 - s.y0));
  const searchBound = roll ? (widest > 0 ? round(placeableArea / widest) : 0) : lowerBound;
  const addedPartTally: Record<string, number> = {};
  placements.forEach((list, row) => list.length && (addedPartTally[String(row)] = list.length));
  return {
    jobId: options.jobId,
    saw: { ...saw },
    stock,
    parts,
    cuts: [],
    offcuts,
    unusableParts,
    metadata: {
      ...areaAndCutMetadata(totals),
      totalOffcutsArea: round(offcuts.reduce((sum, o) => sum + o.l * o.w * o.q, 0)),
      totalOffcuts: offcuts.reduce((sum, o) => sum + o.q, 0),
      totalBladeArea: 0,
      totalTrimArea: round(totals.trimArea),
      totalPartsProduced: totals.produced,
      totalUsedStock: solution.sheets.length,
      totalRollLength: round(totals.rollLength),
      totalStockCost: round(totals.cost),
      usedStockTally,
      addedPartTally,
      materialSummary,
      ...partsMetadata(request, unusableParts),
      lowerBound,
      lowerBoundGap: Math.max(0, solution.sheets.length - lowerBound),
      seed: saw.options.seed,
      engine: { iterations: solution.stats.iterations, elapsedMs: solution.stats.elapsedMs, timeToBestMs: solution.stats.timeToBestMs,
        stoppedByDeadline: solution.stats.stop === 'clock', runs: solution.stats.runs, lowerBound: searchBound },
    },
  };
}
