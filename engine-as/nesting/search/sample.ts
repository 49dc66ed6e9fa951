// Where to move one colliding part (after sparrow's sample search): a few poses sampled
// around where the part stands, anywhere in the container, and touching another part edge
// to edge (our addition: exact fits lie only there), in any of its orientations; the three
// best distinct ones are refined by a coarse coordinate descent, the best of them by a fine
// one, which is then tried flush against its neighbours' edges and boxes and the walls; the
// best overall wins.
// Poses are scored by the part's weighted overlap, cut short once a pose cannot rank.

import { Rng } from "../../common/rng";
import { CONTACT_STRIDE, Shape } from "../collision/shape";
import { OverlapTracker } from "./overlap-tracker";
import { Parts } from "./parts";

const CONTAINER_SAMPLES = 40;
const FOCUSSED_SAMPLES = 25;
const CONTACT_SAMPLES = 10;
const KEEP = 3;
const SNAP_SAMPLES = 16;
/** Two edges face each other when their outward normals point this nearly opposite ways (cosine). */
const FACING: f64 = -0.999999;
/** Poses closer than this share of the part's smaller side count as one. */
const UNIQUE_RATIO: f64 = 0.05;
/** Descent steps as shares of the part's smaller side: coarse for every kept pose, then fine for the best. */
const COARSE_STEP_FROM: f64 = 0.25;
const COARSE_STEP_TO: f64 = 0.02;
const FINE_STEP_FROM: f64 = 0.01;
const FINE_STEP_TO: f64 = 0.001;
const STEP_GROW: f64 = 1.1;
const STEP_SHRINK: f64 = 0.5;

export class PlacementSearch {
  parts: Parts;
  tracker: OverlapTracker;
  rng: Rng;
  /** Container: box corners may range over [x0, xMax - w] x [y0, y1 - h]. */
  x0: f64 = 0;
  y0: f64 = 0;
  xMax: f64 = 0;
  y1: f64 = 0;
  private keptS: Int32Array = new Int32Array(KEEP);
  private keptX: Float64Array = new Float64Array(KEEP);
  private keptY: Float64Array = new Float64Array(KEEP);
  private keptV: Float64Array = new Float64Array(KEEP);
  private kept: i32 = 0;
  private near: Array<i32> = new Array<i32>(0);
  private startS: Int32Array = new Int32Array(KEEP);
  private startX: Float64Array = new Float64Array(KEEP);
  private startY: Float64Array = new Float64Array(KEEP);
  private startV: Float64Array = new Float64Array(KEEP);
  private part: i32 = 0;
  private flushX: f64 = 0;
  private flushY: f64 = 0;

  constructor(parts: Parts, tracker: OverlapTracker, rng: Rng) {
    this.parts = parts;
    this.tracker = tracker;
    this.rng = rng;
  }

  /** Moves part p to the best pose found and updates the tracker. */
  move(p: i32): void {
    const parts = this.parts;
    const shapes = parts.shapes[p];
    this.part = p;
    this.kept = 0;
    const cur = parts.shape(p);
    const curX = parts.xs[p];
    const curY = parts.ys[p];
    if (this.report(parts.sh[p], curX, curY, Infinity)) {
      // Contact poses need another part to touch.
      const samples = FOCUSSED_SAMPLES + CONTAINER_SAMPLES + (parts.n > 1 ? CONTACT_SAMPLES : 0);
      for (let k = 0; k < samples; k++) {
        const si = this.rng.int(shapes.length);
        const s = unchecked(shapes[si]);
        const hiX = this.xMax - s.w;
        const hiY = this.y1 - s.h;
        if (hiX < this.x0 || hiY < this.y0) continue;
        let x: f64, y: f64;
        // Near poses first: their scores make a low bar that cuts the far ones short.
        if (k >= FOCUSSED_SAMPLES + CONTAINER_SAMPLES) {
          let q = this.rng.int(parts.n - 1);
          if (q >= p) q++;
          if (!this.touching(s, q, 0, 0, true)) continue;
          x = this.flushX;
          y = this.flushY;
          if (x < this.x0 || x > hiX || y < this.y0 || y > hiY) continue;
        } else if (k < FOCUSSED_SAMPLES) {
          // Centre anywhere in the part's current box.
          x = curX + this.rng.float() * cur.w - s.w * 0.5;
          y = curY + this.rng.float() * cur.h - s.h * 0.5;
          x = Math.max(this.x0, Math.min(hiX, x));
          y = Math.max(this.y0, Math.min(hiY, y));
        } else {
          x = this.x0 + this.rng.float() * (hiX - this.x0);
          y = this.y0 + this.rng.float() * (hiY - this.y0);
        }
        if (!this.report(si, x, y, this.bar())) break;
      }
      // Descent reorders the kept poses: start from a copy.
      const starts = this.kept;
      this.startS.set(this.keptS);
      this.startX.set(this.keptX);
      this.startY.set(this.keptY);
      this.startV.set(this.keptV);
      for (let k = 0; k < starts && this.keptV[0] > 0; k++) this.descend(this.startS[k], this.startX[k], this.startY[k], this.startV[k], COARSE_STEP_FROM, COARSE_STEP_TO);
      if (this.keptV[0] > 0) this.descend(this.keptS[0], this.keptX[0], this.keptY[0], this.keptV[0], FINE_STEP_FROM, FINE_STEP_TO);
      if (this.keptV[0] > 0) this.snap(this.keptS[0], this.keptX[0], this.keptY[0], this.keptV[0]);
    }
    parts.turn(p, this.keptS[0]);
    parts.xs[p] = this.keptX[0];
    parts.ys[p] = this.keptY[0];
    this.tracker.moved(parts, p);
  }

  /**
   * Flush against the box of a part the pose overlaps, or against a wall, the other
   * coordinate kept: exact contact positions that samples and descent never quite hit, which
   * straight-edged parts need to pack without gaps when sizes add up exactly.
   */
  private snap(si: i32, x: f64, y: f64, v: f64): void {
    const parts = this.parts;
    const p = this.part;
    const s = unchecked(parts.shapes[p])[si];
    const gap = this.tracker.gap;
    const hiX = this.xMax - s.w;
    const hiY = this.y1 - s.h;
    const near = this.near;
    near.length = 0;
    for (let q = 0; q < parts.n; q++) {
      if (q == p) continue;
      const ox = parts.xs[q];
      const oy = parts.ys[q];
      if (x >= ox + parts.ws[q] + gap || ox >= x + s.w + gap || y >= oy + parts.hs[q] + gap || oy >= y + s.h + gap) continue;
      near.push(q);
    }
    for (let k = 0; k < SNAP_SAMPLES && v > 0; k++) {
      let nx = x;
      let ny = y;
      const side = this.rng.int(4);
      if (near.length == 0 || this.rng.int(4) == 0) {
        if (side == 0) nx = this.x0;
        else if (side == 1) nx = hiX;
        else if (side == 2) ny = this.y0;
        else ny = hiY;
      } else if (this.rng.int(2) == 0) {
        if (!this.touching(s, near[this.rng.int(near.length)], x, y, false)) continue;
        nx = this.flushX;
        ny = this.flushY;
      } else {
        const q = near[this.rng.int(near.length)];
        if (side == 0) nx = parts.xs[q] + parts.ws[q] + gap;
        else if (side == 1) nx = parts.xs[q] - s.w - gap;
        else if (side == 2) ny = parts.ys[q] + parts.hs[q] + gap;
        else ny = parts.ys[q] - s.h - gap;
      }
      if (nx < this.x0 || nx > hiX || ny < this.y0 || ny > hiY) continue;
      const c = this.eval(si, nx, ny, v);
      if (c < v) {
        v = c;
        x = nx;
        y = ny;
      }
    }
    this.keep(si, x, y, v);
  }

  /**
   * A pose of `s` touching part q along an edge (flushX, flushY): a random edge of q, and one
   * of s's edges that faces it laid along it, the true outlines `gap` apart. With `slide`
   * false s moves only across the edge from (x, y), and only its edges that overlap q's there
   * count; with `slide` true it goes anywhere along it: ends level at either end, or anywhere
   * the two overlap. Exact fits (a part in a slot of its width, two parts that complete each
   * other) lie on such poses only, where random samples and descent never land. False when s
   * has no edge facing the chosen one.
   */
  private touching(s: Shape, q: i32, x: f64, y: f64, slide: bool): bool {
    const parts = this.parts;
    const o = parts.shape(q);
    const oc = o.contacts;
    const f = this.rng.int(oc.length / CONTACT_STRIDE) * CONTACT_STRIDE;
    const nx = oc[f + 4];
    const ny = oc[f + 5];
    // Along the edge: (tx, ty).
    const tx = -ny;
    const ty = nx;
    const f1x = oc[f] + parts.xs[q], f1y = oc[f + 1] + parts.ys[q];
    const f2x = oc[f + 2] + parts.xs[q], f2y = oc[f + 3] + parts.ys[q];
    const fa = f1x * tx + f1y * ty;
    const fb = f2x * tx + f2y * ty;
    const fLo = Math.min(fa, fb);
    const fHi = Math.max(fa, fb);
    const sc = s.contacts;
    let found = 0;
    let pick = -1;
    for (let e = 0; e < sc.length; e += CONTACT_STRIDE) {
      if (sc[e + 4] * nx + sc[e + 5] * ny > FACING) continue;
      if (!slide) {
        const ea = (sc[e] + x) * tx + (sc[e + 1] + y) * ty;
        const eb = (sc[e + 2] + x) * tx + (sc[e + 3] + y) * ty;
        if (Math.min(fHi, Math.max(ea, eb)) <= Math.max(fLo, Math.min(ea, eb))) continue;
      }
      // One of the facing edges, each as likely.
      if (this.rng.int(++found) == 0) pick = e;
    }
    if (pick < 0) return false;
    // The true outlines exactly the clearance apart: the tracker's gap is the clearance plus a
    // hair, and the inset is two hairs (instance.ts).
    const clear = this.tracker.gap - 0.5 * s.inset;
    const across = f1x * nx + f1y * ny + clear - (sc[pick] * nx + sc[pick + 1] * ny);
    let along = x * tx + y * ty;
    if (slide) {
      const ea = sc[pick] * tx + sc[pick + 1] * ty;
      const eb = sc[pick + 2] * tx + sc[pick + 3] * ty;
      const eLo = Math.min(ea, eb);
      const eHi = Math.max(ea, eb);
      const r = this.rng.int(4);
      along = r == 0 ? fLo - eLo : r == 1 ? fHi - eHi : fLo - eHi + this.rng.float() * (fHi - fLo + eHi - eLo);
    }
    this.flushX = across * nx + along * tx;
    this.flushY = across * ny + along * ty;
    return true;
  }

  /** The score a pose must beat to be kept. */
  private bar(): f64 {
    return this.kept < KEEP ? Infinity : unchecked(this.keptV[KEEP - 1]);
  }

  private eval(si: i32, x: f64, y: f64, limit: f64): f64 {
    const p = this.part;
    return this.tracker.cost(this.parts, p, unchecked(unchecked(this.parts.shapes[p])[si]), x, y, limit);
  }

  /** Scores a pose and keeps it among the best distinct ones; false once a clear pose is found. */
  private report(si: i32, x: f64, y: f64, limit: f64): bool {
    const v = this.eval(si, x, y, limit);
    this.keep(si, x, y, v);
    return v > 0;
  }

  private keep(si: i32, x: f64, y: f64, v: f64): void {
    const s = unchecked(this.parts.shapes[this.part])[si];
    const near = UNIQUE_RATIO * Math.min(s.w, s.h);
    let at = -1;
    for (let k = 0; k < this.kept; k++) {
      if (this.keptS[k] == si && Math.abs(this.keptX[k] - x) < near && Math.abs(this.keptY[k] - y) < near) {
        at = k;
        break;
      }
    }
    if (at >= 0) {
      if (v >= this.keptV[at]) return;
      // Replace the near twin: drop it, then insert below.
      for (let k = at; k < this.kept - 1; k++) this.copyKept(k + 1, k);
      this.kept--;
    } else if (this.kept == KEEP && v >= this.keptV[KEEP - 1]) {
      return;
    }
    let k = this.kept < KEEP ? this.kept++ : KEEP - 1;
    while (k > 0 && this.keptV[k - 1] > v) {
      this.copyKept(k - 1, k);
      k--;
    }
    this.keptS[k] = si;
    this.keptX[k] = x;
    this.keptY[k] = y;
    this.keptV[k] = v;
  }

  private copyKept(from: i32, to: i32): void {
    this.keptS[to] = this.keptS[from];
    this.keptX[to] = this.keptX[from];
    this.keptY[to] = this.keptY[from];
    this.keptV[to] = this.keptV[from];
  }

  /**
   * Coordinate descent: two opposite steps along one axis (x, y or a diagonal); a better pose
   * is taken and its axis' step grows, an equal one is taken, otherwise the step halves and the
   * next axis is tried; ends when both steps are tiny.
   */
  private descend(si: i32, x: f64, y: f64, v: f64, from: f64, to: f64): void {
    const s = unchecked(this.parts.shapes[this.part])[si];
    const minDim = Math.min(s.w, s.h);
    let sx = minDim * from;
    let sy = sx;
    const limit = minDim * to;
    const hiX = this.xMax - s.w;
    const hiY = this.y1 - s.h;
    let axis = this.rng.int(4);
    while ((sx >= limit || sy >= limit) && v > 0) {
      const ux: f64 = axis == 1 ? 0 : axis == 3 ? -sx : sx;
      const uy: f64 = axis == 0 ? 0 : sy;
      const ax = Math.max(this.x0, Math.min(hiX, x + ux));
      const ay = Math.max(this.y0, Math.min(hiY, y + uy));
      const bx = Math.max(this.x0, Math.min(hiX, x - ux));
      const by = Math.max(this.y0, Math.min(hiY, y - uy));
      const va = this.eval(si, ax, ay, v);
      const vb = va == 0 ? Infinity : this.eval(si, bx, by, v);
      const better = va < v || vb < v;
      if (va <= vb && va <= v) {
        x = ax;
        y = ay;
        v = va;
      } else if (vb <= v) {
        x = bx;
        y = by;
        v = vb;
      }
      const m = better ? STEP_GROW : STEP_SHRINK;
      if (axis == 0) sx *= m;
      else if (axis == 1) sy *= m;
      else {
        const r = Math.sqrt(m);
        sx *= r;
        sy *= r;
      }
      if (!better) axis = (axis + 1) & 3;
    }
    this.keep(si, x, y, v);
  }
}
