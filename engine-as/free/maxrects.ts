// Maximal-rectangles free space of one sheet (non-guillotine placement).
//
// The free space is kept as the list of all maximal empty rectangles (they overlap). A box
// goes into one of them at its lower-left corner; every free rectangle it intersects is
// split into the up to four maximal pieces around it, and rectangles contained in another
// are dropped. Kerf is handled by the caller inflating every box and the sheet by one kerf
// (right and top), so boxes that touch here are one kerf apart on the sheet.

/** Placement rules: how a free rectangle is scored for a box (lower is better). */
export const RULE_SHORT_SIDE: i32 = 0; // best short side fit
export const RULE_LONG_SIDE: i32 = 1; // best long side fit
export const RULE_AREA: i32 = 2; // best area fit
export const RULE_BOTTOM_LEFT: i32 = 3; // lowest top edge, then leftmost
export const RULE_LEFT_BOTTOM: i32 = 4; // leftmost right edge, then lowest (strips open along x)
export const FREE_RULES: i32 = 5;

/** Free rectangles scanned: the deterministic work measure of the free packer. */
let scans: i64 = 0;

export function freeScans(): i64 {
  return scans;
}

export class MaxRects {
  n: i32 = 0;
  rx: Float64Array = new Float64Array(64);
  ry: Float64Array = new Float64Array(64);
  rw: Float64Array = new Float64Array(64);
  rh: Float64Array = new Float64Array(64);
  eps: f64 = 1e-9;
  private dead: Uint8Array = new Uint8Array(64);
  /** Result of the last successful find(). */
  bx: f64 = 0;
  by: f64 = 0;
  s1: f64 = 0;
  s2: f64 = 0;

  reset(W: f64, H: f64, eps: f64): void {
    this.eps = eps;
    this.n = 0;
    this.add(0, 0, W, H);
  }

  private add(x: f64, y: f64, w: f64, h: f64): void {
    if (this.n == this.rx.length) {
      const c = this.n << 1;
      this.rx = grow(this.rx, c);
      this.ry = grow(this.ry, c);
      this.rw = grow(this.rw, c);
      this.rh = grow(this.rh, c);
    }
    const i = this.n++;
    unchecked((this.rx[i] = x));
    unchecked((this.ry[i] = y));
    unchecked((this.rw[i] = w));
    unchecked((this.rh[i] = h));
  }

  /** Best free rectangle for a w x h box under `rule`; false when none holds it. */
  find(w: f64, h: f64, rule: i32): bool {
    const eps = this.eps;
    let found = false;
    let b1: f64 = Infinity;
    let b2: f64 = Infinity;
    scans += this.n;
    for (let i = 0; i < this.n; i++) {
      const fw = unchecked(this.rw[i]);
      const fh = unchecked(this.rh[i]);
      if (fw + eps < w || fh + eps < h) continue;
      const x = unchecked(this.rx[i]);
      const y = unchecked(this.ry[i]);
      const dw = fw - w;
      const dh = fh - h;
      let a: f64;
      let b: f64;
      if (rule == RULE_SHORT_SIDE) {
        a = Math.min(dw, dh);
        b = Math.max(dw, dh);
      } else if (rule == RULE_LONG_SIDE) {
        a = Math.max(dw, dh);
        b = Math.min(dw, dh);
      } else if (rule == RULE_AREA) {
        a = fw * fh - w * h;
        b = Math.min(dw, dh);
      } else if (rule == RULE_BOTTOM_LEFT) {
        a = y + h;
        b = x;
      } else {
        a = x + w;
        b = y;
      }
      if (a < b1 - eps || (a <= b1 + eps && b < b2 - eps)) {
        b1 = a;
        b2 = b;
        this.bx = x;
        this.by = y;
        found = true;
      }
    }
    this.s1 = b1;
    this.s2 = b2;
    return found;
  }

  /**
   * Occupies the box (x, y, w, h): splits the free rectangles it overlaps and drops the
   * pieces contained in others, and any narrower or lower than `minSide` (nothing left fits).
   */
  place(x: f64, y: f64, w: f64, h: f64, minSide: f64): void {
    const eps = this.eps;
    const x1 = x + w;
    const y1 = y + h;
    const old = this.n;
    let keep = 0;
    // Split: survivors are compacted to the front, new pieces appended after `old`.
    for (let i = 0; i < old; i++) {
      const fx = unchecked(this.rx[i]);
      const fy = unchecked(this.ry[i]);
      const fw = unchecked(this.rw[i]);
      const fh = unchecked(this.rh[i]);
      const fx1 = fx + fw;
      const fy1 = fy + fh;
      if (x >= fx1 - eps || x1 <= fx + eps || y >= fy1 - eps || y1 <= fy + eps) {
        this.move(i, keep++);
        continue;
      }
      if (x > fx + eps) this.add(fx, fy, x - fx, fh);
      if (x1 < fx1 - eps) this.add(x1, fy, fx1 - x1, fh);
      if (y > fy + eps) this.add(fx, fy, fw, y - fy);
      if (y1 < fy1 - eps) this.add(fx, y1, fw, fy1 - y1);
    }
    // Move the new pieces down behind the survivors.
    const added = this.n - old;
    for (let k = 0; k < added; k++) this.move(old + k, keep + k);
    this.n = keep + added;
    this.prune(keep, minSide);
  }

  @inline private move(from: i32, to: i32): void {
    if (from == to) return;
    unchecked((this.rx[to] = this.rx[from]));
    unchecked((this.ry[to] = this.ry[from]));
    unchecked((this.rw[to] = this.rw[from]));
    unchecked((this.rh[to] = this.rh[from]));
  }

  /** Drops contained rectangles; [0, firstNew) were maximal before and cannot contain each other. */
  private prune(firstNew: i32, minSide: f64): void {
    const n = this.n;
    if (this.dead.length < n) this.dead = new Uint8Array(n << 1);
    const dead = this.dead;
    for (let i = 0; i < n; i++) {
      unchecked((dead[i] = unchecked(this.rw[i]) + this.eps < minSide || unchecked(this.rh[i]) + this.eps < minSide ? 1 : 0));
    }
    scans += <i64>(n - firstNew) * <i64>n;
    for (let i = firstNew; i < n; i++) {
      if (unchecked(dead[i]) != 0) continue;
      for (let j = 0; j < n; j++) {
        if (i == j || unchecked(dead[j]) != 0) continue;
        if (this.contains(j, i)) {
          // Equal new pieces: keep the first.
          if (j >= firstNew && j > i && this.contains(i, j)) unchecked((dead[j] = 1));
          else {
            unchecked((dead[i] = 1));
            break;
          }
        } else if (j < firstNew && this.contains(i, j)) {
          unchecked((dead[j] = 1));
        }
      }
    }
    let k = 0;
    for (let i = 0; i < n; i++) if (unchecked(dead[i]) == 0) this.move(i, k++);
    this.n = k;
  }

  /** Whether rectangle a contains rectangle b. */
  @inline private contains(a: i32, b: i32): bool {
    const eps = this.eps;
    return (
      unchecked(this.rx[b]) >= unchecked(this.rx[a]) - eps &&
      unchecked(this.ry[b]) >= unchecked(this.ry[a]) - eps &&
      unchecked(this.rx[b]) + unchecked(this.rw[b]) <= unchecked(this.rx[a]) + unchecked(this.rw[a]) + eps &&
      unchecked(this.ry[b]) + unchecked(this.rh[b]) <= unchecked(this.ry[a]) + unchecked(this.rh[a]) + eps
    );
  }
}

function grow(a: Float64Array, c: i32): Float64Array {
  const b = new Float64Array(c);
  memory.copy(b.dataStart, a.dataStart, <usize>a.length << 3);
  return b;
}
