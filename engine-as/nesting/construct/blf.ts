// Bottom-left fill for one part on one sheet. For each orientation it scans rows of
// candidate heights (a grid, plus heights that line up with the parts already there) from
// the left, takes the first free position of each row, tightens it by bisection, and keeps
// the position whose right edge is furthest left (then lowest). The winner is then slid down
// and left until it touches, so parts nestle into each other's concavities and holes.

import { collides } from "../collision/overlap";
import { Shape } from "../collision/shape";
import { Placements, Sheet } from "./placements";

const GRID_ROWS = 10;
const BISECT_STEPS = 10;
const SETTLE_ROUNDS = 3;

export class Spot {
  shape: i32 = -1;
  x: f64 = 0;
  y: f64 = 0;
}

/** Scratch reused across calls: candidate heights. */
const rows = new Array<f64>();

/**
 * The parts a candidate is tested against: the whole sheet, or only those whose boxes reach
 * into the band of one row (scanning a row never needs the others). Shapes and positions
 * are copied out so the test loop touches flat arrays only.
 */
const scopeShapes = new Array<Shape>();
const scopeX = new Array<f64>();
const scopeY = new Array<f64>();
let lastBlocker: i32 = 0;

function scopeBand(layout: Placements, sheet: Sheet, y0: f64, y1: f64): void {
  scopeShapes.length = 0;
  scopeX.length = 0;
  scopeY.length = 0;
  lastBlocker = 0;
  const inst = layout.inst;
  const gap = inst.gap;
  for (let k = 0; k < sheet.items.length; k++) {
    const pos = unchecked(sheet.items[k]);
    const other = layout.placedShape(pos);
    const oy = unchecked(layout.ys[pos]);
    if (oy >= y1 + gap || oy + other.h + gap <= y0) continue;
    scopeShapes.push(other);
    scopeX.push(unchecked(layout.xs[pos]));
    scopeY.push(oy);
  }
}

function scopeAll(layout: Placements, sheet: Sheet): void {
  scopeBand(layout, sheet, -Infinity, Infinity);
}

/** True when `shape` at (x, y) clears every part in scope. Remembers the last blocker. */
function free(layout: Placements, sheet: Sheet, shape: Shape, x: f64, y: f64): bool {
  const n = scopeShapes.length;
  if (n == 0) return true;
  const gap = layout.inst.gap;
  // The part that blocked last time is the likeliest to block again.
  if (lastBlocker < n && collides(shape, x, y, unchecked(scopeShapes[lastBlocker]), unchecked(scopeX[lastBlocker]), unchecked(scopeY[lastBlocker]), gap)) return false;
  for (let k = 0; k < n; k++) {
    if (k == lastBlocker) continue;
    if (collides(shape, x, y, unchecked(scopeShapes[k]), unchecked(scopeX[k]), unchecked(scopeY[k]), gap)) {
      lastBlocker = k;
      return false;
    }
  }
  return true;
}

export function findPlacement(layout: Placements, sheet: Sheet, t: i32, spot: Spot): bool {
  const inst = layout.inst;
  const st = inst.stock[sheet.stock];
  const type = inst.types[t];
  const e = inst.edge;
  // Placement step: a fraction of the smallest part side, never finer than the scale allows.
  const step = Math.max(type.minSide / 6, inst.scale * 2e-4);
  const gapStep = Math.max(type.minSide / 3, inst.scale * 2e-4);
  best.key = Infinity;
  best.y = Infinity;
  best.shape = -1;
  // Pass 1: against the frontier. In each row start right of every part whose box reaches
  // into the row (surely free), then slide left until blocked: cheap, and sets a tight bound.
  for (let k = 0; k < type.shapes.length; k++) {
    const shape = type.shapes[k];
    const xMin = st.x0 + e;
    const xMax = st.x1 - e - shape.w;
    const yMin = st.y0 + e;
    const yMax = st.y1 - e - shape.h;
    if (xMax < xMin || yMax < yMin) continue;
    collectRows(layout, sheet, shape, yMin, yMax, step * 0.25);
    for (let r = 0; r < rows.length; r++) {
      const y = unchecked(rows[r]);
      let x = Math.max(xMin, frontier(layout, sheet, y, y + shape.h));
      if (x > xMax || x + shape.w >= best.key + step) continue;
      scopeBand(layout, sheet, y, y + shape.h);
      if (!free(layout, sheet, shape, x, y)) continue;
      while (x > xMin) {
        const next = Math.max(xMin, x - step);
        if (!free(layout, sheet, shape, next, y)) {
          x = bisectLeft(layout, sheet, shape, next, x, y);
          break;
        }
        x = next;
      }
      offer(k, x, y, shape.w);
    }
  }
  // Pass 2: gaps left of the frontier (and holes), with a coarser step.
  for (let k = 0; k < type.shapes.length; k++) {
    const shape = type.shapes[k];
    const xMin = st.x0 + e;
    const xMax = st.x1 - e - shape.w;
    const yMin = st.y0 + e;
    const yMax = st.y1 - e - shape.h;
    if (xMax < xMin || yMax < yMin) continue;
    collectRows(layout, sheet, shape, yMin, yMax, step * 0.25);
    for (let r = 0; r < rows.length; r++) {
      const y = unchecked(rows[r]);
      const xLimit = Math.min(xMax, best.key - shape.w);
      if (xLimit < xMin) continue;
      collectColumns(layout, sheet, shape, y, xMin, xLimit, gapStep);
      scopeBand(layout, sheet, y, y + shape.h);
      let prev: f64 = -Infinity;
      for (let c = 0; c < cols.length; c++) {
        let x = unchecked(cols[c]);
        if (free(layout, sheet, shape, x, y)) {
          // Tightening cannot go left of the last blocked step: skip rows that cannot win.
          if (prev > -Infinity && prev + shape.w >= best.key) break;
          if (prev > -Infinity) x = bisectLeft(layout, sheet, shape, prev, x, y);
          offer(k, x, y, shape.w);
          break;
        }
        prev = x;
      }
    }
  }
  if (best.shape < 0) return false;
  spot.shape = best.shape;
  spot.x = best.x;
  spot.y = best.y;
  scopeAll(layout, sheet);
  settle(layout, sheet, type.shapes[spot.shape], spot, st.x0 + e, st.y0 + e, step);
  return true;
}

class Best {
  key: f64 = Infinity;
  y: f64 = Infinity;
  x: f64 = 0;
  shape: i32 = -1;
}
const best = new Best();

/** Keeps the candidate whose right edge is furthest left, then the lowest. */
function offer(k: i32, x: f64, y: f64, w: f64): void {
  const key = x + w;
  if (key < best.key || (key == best.key && y < best.y)) {
    best.key = key;
    best.y = y;
    best.x = x;
    best.shape = k;
  }
}

/** Right-most box edge (plus the gap) of the parts whose boxes reach into the band [y0, y1]. */
function frontier(layout: Placements, sheet: Sheet, y0: f64, y1: f64): f64 {
  const inst = layout.inst;
  const gap = inst.gap;
  let m: f64 = -Infinity;
  for (let k = 0; k < sheet.items.length; k++) {
    const pos = unchecked(sheet.items[k]);
    const other = layout.placedShape(pos);
    const oy = unchecked(layout.ys[pos]);
    if (oy >= y1 + gap || oy + other.h + gap <= y0) continue;
    m = Math.max(m, unchecked(layout.xs[pos]) + other.w + gap + inst.hair);
  }
  return m;
}

/** Scratch: candidate x positions of one row. */
const cols = new Array<f64>();

/** Candidate x positions along a row: a grid, plus just right of each part reaching into the row (exact for boxes). */
function collectColumns(layout: Placements, sheet: Sheet, shape: Shape, y: f64, xMin: f64, xLimit: f64, step: f64): void {
  cols.length = 0;
  for (let x = xMin; x <= xLimit; x += step) cols.push(x);
  const inst = layout.inst;
  const gap = inst.gap;
  for (let k = 0; k < sheet.items.length; k++) {
    const pos = unchecked(sheet.items[k]);
    const other = layout.placedShape(pos);
    const oy = unchecked(layout.ys[pos]);
    if (oy >= y + shape.h + gap || oy + other.h + gap <= y) continue;
    const right = unchecked(layout.xs[pos]) + other.w + gap + inst.hair;
    if (right > xMin && right <= xLimit) cols.push(right);
  }
  sortAscending(cols);
}

/** Lists up to this long are sorted by insertion (a sheet with many parts has long lists). */
const SHORT_LIST = 64;

/** Sorts ascending; short lists by insertion, since Array#sort calls its comparator per comparison. */
function sortAscending(a: Array<f64>): void {
  if (a.length > SHORT_LIST) {
    a.sort();
    return;
  }
  for (let i = 1; i < a.length; i++) {
    const v = unchecked(a[i]);
    let j = i;
    while (j > 0 && unchecked(a[j - 1]) > v) {
      unchecked((a[j] = a[j - 1]));
      j--;
    }
    unchecked((a[j] = v));
  }
}

function collectRows(layout: Placements, sheet: Sheet, shape: Shape, yMin: f64, yMax: f64, merge: f64): void {
  rows.length = 0;
  rows.push(yMin);
  if (yMax > yMin) rows.push(yMax);
  const inst = layout.inst;
  const gap = inst.gap;
  for (let k = 0; k < sheet.items.length; k++) {
    const pos = unchecked(sheet.items[k]);
    const other = layout.placedShape(pos);
    const above = unchecked(layout.ys[pos]) + other.h + gap + inst.hair;
    const below = unchecked(layout.ys[pos]) - gap - inst.hair - shape.h;
    if (above > yMin && above < yMax) rows.push(above);
    if (below > yMin && below < yMax) rows.push(below);
  }
  // Contact rows closer than `merge` add nothing: keep the lowest of each cluster.
  sortAscending(rows);
  let w = 0;
  for (let r = 0; r < rows.length; r++) {
    if (w == 0 || rows[r] - rows[w - 1] > merge) rows[w++] = rows[r];
  }
  rows.length = w;
  // Grid rows fill the spans between contacts; one next to a contact row would shadow it.
  const contacts = w;
  const span = yMax - yMin;
  for (let g = 1; g < GRID_ROWS; g++) {
    const y = yMin + (span * <f64>g) / <f64>GRID_ROWS;
    let near = false;
    for (let r = 0; r < contacts && !near; r++) near = Math.abs(unchecked(rows[r]) - y) <= merge;
    if (!near) rows.push(y);
  }
  sortAscending(rows);
}

/** Smallest free x in (blocked, freeX], assuming freeness changes once in between. */
function bisectLeft(layout: Placements, sheet: Sheet, shape: Shape, blocked: f64, freeX: f64, y: f64): f64 {
  let lo = blocked;
  let hi = freeX;
  for (let i = 0; i < BISECT_STEPS; i++) {
    const mid = 0.5 * (lo + hi);
    if (free(layout, sheet, shape, mid, y)) hi = mid;
    else lo = mid;
  }
  return hi;
}

function bisectDown(layout: Placements, sheet: Sheet, shape: Shape, x: f64, blocked: f64, freeY: f64): f64 {
  let lo = blocked;
  let hi = freeY;
  for (let i = 0; i < BISECT_STEPS; i++) {
    const mid = 0.5 * (lo + hi);
    if (free(layout, sheet, shape, x, mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Slides the part down, then left, a few times: each move keeps it free, so it ends touching. */
function settle(layout: Placements, sheet: Sheet, shape: Shape, spot: Spot, xMin: f64, yMin: f64, step: f64): void {
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    const x0 = spot.x;
    const y0 = spot.y;
    // Down.
    let y = spot.y;
    while (y > yMin) {
      const next = Math.max(yMin, y - step);
      if (!free(layout, sheet, shape, spot.x, next)) {
        y = bisectDown(layout, sheet, shape, spot.x, next, y);
        break;
      }
      y = next;
    }
    spot.y = y;
    // Left.
    let x = spot.x;
    while (x > xMin) {
      const next = Math.max(xMin, x - step);
      if (!free(layout, sheet, shape, next, spot.y)) {
        x = bisectLeft(layout, sheet, shape, next, x, spot.y);
        break;
      }
      x = next;
    }
    spot.x = x;
    if (x == x0 && y == y0) break;
  }
}
