// Guillotine check of a strip layout: rebuilds the cut tree of parts placed anywhere, or
// says there is none within the stage limit.
//
// A region is cut at every line across it (in the current direction) that crosses no part;
// the pieces between are cut the other way, one stage deeper. A region no straight line
// divides in either direction is not guillotine. Cuts that separate parts must be within
// maxPhase; one more stage may only trim a lone part (as the validator counts). Positions
// and sizes here are grown by one kerf (the layout of StripTree); nodes carry the real sizes.

import { Node, KIND_CUT, KIND_PART, KIND_FREE, ALONG_X, ALONG_Y } from "./strip-node";

const EPS: f64 = 1e-9;

export class Placed {
  x: f64;
  y: f64;
  /** Extents along x and across, kerf included. */
  a: f64;
  b: f64;
  part: i32;
  rot: i32;
  constructor(x: f64, y: f64, a: f64, b: f64, part: i32, rot: i32) {
    this.x = x;
    this.y = y;
    this.a = a;
    this.b = b;
    this.part = part;
    this.rot = rot;
  }
}

/** Cut tree of the layout over [0, end) x [0, W) (kerf grown), first cuts across the roll; null when not guillotine within maxPhase (0 = unlimited). */
export function guillotineTree(ps: Array<Placed>, end: f64, W: f64, k: f64, maxPhase: i32): Node | null {
  const mp = maxPhase > 0 ? maxPhase : 1 << 30;
  return cutRegion(ps, 0, 0, end, W, ALONG_Y, 1, mp, k, false);
}

/** The layout as one free region (free placement: no cuts). */
export function freeRoot(ps: Array<Placed>, end: f64, W: f64, k: f64): Node {
  const root = new Node(KIND_FREE, 0, 0, 0, end - k, W - k, -1);
  for (let i = 0; i < ps.length; i++) root.children.push(partNode(ps[i], k));
  return root;
}

function partNode(p: Placed, k: f64): Node {
  return new Node(KIND_PART, p.rot, p.x, p.y, p.a - k, p.b - k, p.part);
}

function byX(p: Placed, q: Placed): i32 {
  return p.x < q.x ? -1 : p.x > q.x ? 1 : 0;
}

function byY(p: Placed, q: Placed): i32 {
  return p.y < q.y ? -1 : p.y > q.y ? 1 : 0;
}

/** Region [x0, x1) x [y0, y1) holding ps, cut in direction dir at stage `stage`; `turned`: dir already found no cut. */
function cutRegion(ps: Array<Placed>, x0: f64, y0: f64, x1: f64, y1: f64, dir: i32, stage: i32, mp: i32, k: f64, turned: bool): Node | null {
  if (ps.length == 1) {
    const p = ps[0];
    const fitsX = p.a >= x1 - x0 - EPS;
    const fitsY = p.b >= y1 - y0 - EPS;
    const trimOk = stage <= mp || (stage == mp + 1 && (dir == ALONG_Y ? fitsY : fitsX));
    return (fitsX && fitsY) || trimOk ? partNode(p, k) : null;
  }
  const across = dir == ALONG_Y;
  ps.sort(across ? byX : byY);
  // Groups of parts no line in this direction separates; a line runs after each group.
  const starts = new Array<i32>();
  const ends = new Array<f64>();
  let reach: f64 = -Infinity;
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i];
    const lo = across ? p.x : p.y;
    const hi = across ? p.x + p.a : p.y + p.b;
    if (i == 0 || lo >= reach - EPS) {
      starts.push(i);
      ends.push(hi);
      reach = hi;
    } else if (hi > reach) {
      reach = hi;
      ends[ends.length - 1] = hi;
    }
  }
  const ng = starts.length;
  if (ng == 1) return turned ? null : cutRegion(ps, x0, y0, x1, y1, 1 - dir, stage + 1, mp, k, true);
  if (stage > mp) return null;
  const node = new Node(KIND_CUT, dir, x0, y0, x1 - x0 - k, y1 - y0 - k, -1);
  let from = across ? x0 : y0;
  for (let g = 0; g < ng; g++) {
    const to = g == ng - 1 ? (across ? x1 : y1) : ends[g];
    const stop = g == ng - 1 ? ps.length : starts[g + 1];
    const group = ps.slice(starts[g], stop);
    const child = across
      ? cutRegion(group, from, y0, to, y1, ALONG_X, stage + 1, mp, k, false)
      : cutRegion(group, x0, from, x1, to, ALONG_Y, stage + 1, mp, k, false);
    if (child === null) return null;
    node.children.push(child);
    from = to;
  }
  return node;
}
