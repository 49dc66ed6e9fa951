// One sheet's cut tree -> the cuts in the order a sawyer makes them, and the pieces left.
// Trims come first; then each region's own cuts, then its bands one after the other, so the
// rip cuts of a sheet precede the cross cuts of its first strip, and so on down the stages.
import type { EngineNode, EngineStock } from './types.js';

const EPS = 1e-7;

export interface PlannedCut {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** 'l': the cut runs along the length (parallel to x); 'w': along the width (parallel to y). */
  dimension: 'l' | 'w';
  /** y of an 'l' cut, x of a 'w' cut: where the kerf starts (trims: the edge of the usable area). */
  position: number;
  isTrim: boolean;
  /** Stage of the cut; 0 for trims. A cut trimming one part to size from waste keeps its band's stage + 1. */
  phase: number;
}

export interface Piece {
  x: number;
  y: number;
  l: number;
  w: number;
}

export interface PlacedPart extends Piece {
  part: number;
  rot: 0 | 1;
}

export interface CutPlan {
  cuts: PlannedCut[];
  parts: PlacedPart[];
  /** Leftover rectangles, each a piece the cuts produce that holds no part. */
  waste: Piece[];
}

export function planSheet(stock: EngineStock, root: EngineNode, kerf: number, firstCut: 'x' | 'y'): CutPlan {
  const plan: CutPlan = { cuts: [], parts: [], waste: [] };
  planTrims(stock, firstCut, plan);
  const usable = { x: stock.trim.w1, y: stock.trim.l1, l: stock.l - stock.trim.w1 - stock.trim.w2, w: stock.w - stock.trim.l1 - stock.trim.l2 };
  // A lone part is a one-band region: its first cut frees it across, a second trims it to size.
  // A root across the first-cut direction is a head cut: it comes before stage 1 (phase 0).
  if (root.kind === 'free') throw new Error('engine tree: a free layout has no cut plan (see src/engine/free/plan.ts)');
  const head = root.kind === 'cut' && root.along !== firstCut;
  planRegion(root.kind === 'cut' ? root : { kind: 'cut', along: firstCut, ...usable, children: [root] }, kerf, head ? -1 : 0, plan);
  return plan;
}

function planTrims(stock: EngineStock, firstCut: 'x' | 'y', plan: CutPlan): void {
  const { l1, l2, w1, w2 } = stock.trim;
  const top = stock.w - l2;
  const right = stock.l - w2;
  const alongX = () => {
    // Cuts along x span the whole length while the sheet is still whole in x, or the trimmed length after.
    const x1 = firstCut === 'x' ? 0 : w1;
    const x2 = firstCut === 'x' ? stock.l : right;
    if (l1 > EPS) plan.cuts.push({ x1, y1: l1, x2, y2: l1, dimension: 'l', position: l1, isTrim: true, phase: 0 });
    if (l2 > EPS) plan.cuts.push({ x1, y1: top, x2, y2: top, dimension: 'l', position: top, isTrim: true, phase: 0 });
  };
  const alongY = () => {
    const y1 = firstCut === 'y' ? 0 : l1;
    const y2 = firstCut === 'y' ? stock.w : top;
    if (w1 > EPS) plan.cuts.push({ x1: w1, y1, x2: w1, y2, dimension: 'w', position: w1, isTrim: true, phase: 0 });
    if (w2 > EPS) plan.cuts.push({ x1: right, y1, x2: right, y2, dimension: 'w', position: right, isTrim: true, phase: 0 });
  };
  if (firstCut === 'x') { alongX(); alongY(); } else { alongY(); alongX(); }
}

type Region = Piece;

function planRegion(node: Extract<EngineNode, { kind: 'cut' }>, kerf: number, parentPhase: number, plan: CutPlan): void {
  const phase = parentPhase + 1;
  const alongX = node.along === 'x';
  const start = alongX ? node.y : node.x;
  const end = alongX ? node.y + node.w : node.x + node.l;
  const bands: Region[] = [];
  let cursor = start;
  for (const child of node.children) {
    const from = alongX ? child.y : child.x;
    const size = alongX ? child.w : child.l;
    if (Math.abs(from - cursor) > 1e-6) {
      throw new Error(`engine tree: band at ${from} should start at ${cursor} (region ${node.x},${node.y} ${node.l}x${node.w})`);
    }
    bands.push(alongX ? { x: node.x, y: from, l: node.l, w: size } : { x: from, y: node.y, l: size, w: node.w });
    const bandEnd = from + size;
    if (bandEnd > end + 1e-6) throw new Error(`engine tree: band ends at ${bandEnd}, past its region's end ${end}`);
    if (bandEnd < end - EPS) {
      plan.cuts.push(alongX
        ? { x1: node.x, y1: bandEnd, x2: node.x + node.l, y2: bandEnd, dimension: 'l', position: bandEnd, isTrim: false, phase }
        : { x1: bandEnd, y1: node.y, x2: bandEnd, y2: node.y + node.w, dimension: 'w', position: bandEnd, isTrim: false, phase });
    }
    cursor = bandEnd + kerf;
  }
  if (cursor < end - EPS) {
    plan.waste.push(alongX ? { x: node.x, y: cursor, l: node.l, w: end - cursor } : { x: cursor, y: node.y, l: end - cursor, w: node.w });
  }
  node.children.forEach((child, i) => {
    if (child.kind === 'cut') planRegion(child, kerf, phase, plan);
    else if (child.kind === 'part') planPart(child, bands[i], node.along, kerf, phase, plan);
  });
}

/** A part fills its band across; when shorter along the band, one more cut trims it to size. */
function planPart(node: Extract<EngineNode, { kind: 'part' }>, band: Region, along: 'x' | 'y', kerf: number, phase: number, plan: CutPlan): void {
  plan.parts.push({ x: node.x, y: node.y, l: node.l, w: node.w, part: node.part, rot: node.rot });
  const alongX = along === 'x';
  const partEnd = alongX ? node.x + node.l : node.y + node.w;
  const bandEnd = alongX ? band.x + band.l : band.y + band.w;
  if (partEnd > bandEnd + 1e-6) throw new Error(`engine tree: part ${node.part} runs past its band`);
  if (partEnd < bandEnd - EPS) {
    plan.cuts.push(alongX
      ? { x1: partEnd, y1: band.y, x2: partEnd, y2: band.y + band.w, dimension: 'w', position: partEnd, isTrim: false, phase: phase + 1 }
      : { x1: band.x, y1: partEnd, x2: band.x + band.l, y2: partEnd, dimension: 'l', position: partEnd, isTrim: false, phase: phase + 1 });
    const rest = partEnd + kerf;
    if (rest < bandEnd - EPS) {
      plan.waste.push(alongX ? { x: rest, y: band.y, l: bandEnd - rest, w: band.w } : { x: band.x, y: rest, l: band.l, w: bandEnd - rest });
    }
  }
}
