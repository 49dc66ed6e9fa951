// Pricing: the bounded knapsack max sum(v_i a_i) s.t. sum(s_i a_i) <= C, 0 <= a_i <= u_i,
// integer a. A DP over the capacity when lengths are whole numbers and the table is small;
// else a depth-first branch and bound (Dantzig bound) with a small node budget, then DP
// tables on scaled lengths (rounded up: patterns that truly fit; rounded down: a proven
// upper bound). `exact` says whether the answer is proven best (the caller needs that to
// call the LP optimal); `upper` is always a proven upper bound, which the Farley bound uses.

const BNB_FIRST_NODES: i32 = 3000;
const DP_DIRECT_CELLS: f64 = 600000;
/** Capacity in units of the scaled tables for long bars (a bound within about n/SCALED_CELLS). */
const SCALED_CELLS: i32 = 4000;

export class Knapsack {
  n: i32 = 0;
  v: Float64Array = new Float64Array(16);
  s: Float64Array = new Float64Array(16);
  u: Int32Array = new Int32Array(16);
  id: Int32Array = new Int32Array(16);
  take: Int32Array = new Int32Array(16);
  /** Integer weights of the DP (sizes, or scaled sizes). */
  w: Int32Array = new Int32Array(16);
  /** A proven upper bound on the optimum of the last solve (the optimum when exact). */
  upper: f64 = 0;
  bestTake: Int32Array = new Int32Array(16);
  best: f64 = 0;
  cap: f64 = 0;
  eps: f64 = 1e-9;
  nodes: i32 = 0;
  limit: i32 = 200000;
  exact: bool = true;

  reset(cap: f64, eps: f64): void {
    this.n = 0;
    this.cap = cap;
    this.eps = eps;
  }

  add(id: i32, v: f64, s: f64, u: i32): void {
    if (this.n >= this.v.length) {
      const c = this.v.length << 1;
      const v2 = new Float64Array(c), s2 = new Float64Array(c);
      const u2 = new Int32Array(c), i2 = new Int32Array(c);
      for (let k = 0; k < this.n; k++) {
        v2[k] = this.v[k]; s2[k] = this.s[k]; u2[k] = this.u[k]; i2[k] = this.id[k];
      }
      this.v = v2; this.s = s2; this.u = u2; this.id = i2;
      this.take = new Int32Array(c);
      this.bestTake = new Int32Array(c);
      this.w = new Int32Array(c);
    }
    const k = this.n++;
    this.v[k] = v; this.s[k] = s; this.u[k] = u; this.id[k] = id;
  }

  /** Solves; afterwards bestTake[k] is the count of item id[k]. Returns the best value. */
  solve(): f64 {
    this.lastDp = false;
    // Branch and bound first with a small node budget (fast when the bound prunes well);
    // the DP when that does not finish and the table is small enough.
    const cells = this.dpCellCount();
    // A small table is cheaper than any search that might fail to prune.
    if (cells <= DP_DIRECT_CELLS) return this.solveDp();
    if (cells <= <f64>this.dpCells) {
      const full = this.limit;
      this.limit = BNB_FIRST_NODES;
      const v = this.solveBnb();
      this.limit = full;
      if (this.exact) {
        this.upper = v;
        return v;
      }
      return this.solveDp();
    }
    // Long bars or fractional lengths: a short search, then the scaled tables.
    const full = this.limit;
    this.limit = BNB_FIRST_NODES;
    const v = this.solveBnb();
    this.limit = full;
    if (this.exact) {
      this.upper = v;
      return v;
    }
    const bnbBest = v;
    // Keep the search's pattern when it beats the scaled one (the bound comes from the tables).
    const keep = new Int32Array(this.n);
    for (let k = 0; k < this.n; k++) keep[k] = this.bestTake[k];
    this.solveScaled();
    if (bnbBest > this.best) {
      for (let k = 0; k < this.n; k++) this.bestTake[k] = keep[k];
      this.best = bnbBest;
    }
    if (this.upper < this.best) this.upper = this.best;
    this.exact = this.upper <= this.best * (1.0 + 1e-12) + 1e-12;
    return this.best;
  }

  private solveBnb(): f64 {
    const n = this.n;
    // Insertion sort by ratio, descending (n is the number of item types: small).
    for (let a = 1; a < n; a++) {
      const r = this.v[a] / this.s[a];
      const v = this.v[a], s = this.s[a], u = this.u[a], id = this.id[a];
      let j = a - 1;
      while (j >= 0 && this.v[j] / this.s[j] < r) {
        this.v[j + 1] = this.v[j]; this.s[j + 1] = this.s[j]; this.u[j + 1] = this.u[j]; this.id[j + 1] = this.id[j];
        j--;
      }
      this.v[j + 1] = v; this.s[j + 1] = s; this.u[j + 1] = u; this.id[j + 1] = id;
    }
    for (let k = 0; k < n; k++) {
      this.take[k] = 0;
      this.bestTake[k] = 0;
    }
    // Greedy start: a lower bound that prunes from the first node.
    let room = this.cap;
    let val: f64 = 0;
    for (let k = 0; k < n; k++) {
      let c = <i32>Math.floor((room + this.eps) / this.s[k]);
      if (c > this.u[k]) c = this.u[k];
      if (c > 0) {
        this.bestTake[k] = c;
        room -= <f64>c * this.s[k];
        val += <f64>c * this.v[k];
      }
    }
    this.best = val;
    this.nodes = 0;
    this.exact = true;
    this.dfs(0, this.cap, 0);
    return this.best;
  }

  // ---- exact DP over integer capacities, for integral sizes and small capacity x items ----
  dp: Float64Array = new Float64Array(0);
  pick: Uint8Array = new Uint8Array(0);
  pieceItem: Int32Array = new Int32Array(64);
  pieceCount: Int32Array = new Int32Array(64);
  /** Work limit (cells) for the DP; above it the branch and bound is used. */
  dpCells: i32 = 4000000;

  /** Cells the DP would fill (pieces after binary splitting x capacity); Infinity when sizes are not integral. */
  private dpCellCount(): f64 {
    const C = this.cap;
    if (C != Math.floor(C) || C > 1e7) return Infinity;
    let pieces: f64 = 0;
    for (let k = 0; k < this.n; k++) {
      if (this.s[k] != Math.floor(this.s[k])) return Infinity;
      pieces += Math.floor(Math.log2(<f64>this.u[k])) + 1.0;
    }
    return pieces * (C + 1.0);
  }

  private solveDp(): f64 {
    for (let k = 0; k < this.n; k++) this.w[k] = <i32>this.s[k];
    this.solveDpWeights(<i32>this.cap);
    this.upper = this.best;
    return this.best;
  }

  /**
   * Long bars or fractional lengths: the DP on lengths scaled to SCALED_CELLS units. Rounding
   * each size up gives patterns that truly fit (the answer); rounding sizes down and the
   * capacity down gives a relaxation, whose value bounds the true optimum from above (upper).
   */
  private solveScaled(): f64 {
    const g = this.cap / <f64>SCALED_CELLS;
    const n = this.n;
    for (let k = 0; k < n; k++) this.w[k] = <i32>Math.floor(this.s[k] / g + 1e-9);
    const ub = this.solveDpWeights(<i32>Math.floor(this.cap / g + 1e-9));
    for (let k = 0; k < n; k++) this.w[k] = <i32>Math.ceil(this.s[k] / g - 1e-9);
    const v = this.solveDpWeights(SCALED_CELLS);
    // The rounded-up pattern fits with its true sizes too (sum ceil >= sum true / g); check anyway.
    let load: f64 = 0;
    for (let k = 0; k < n; k++) load += <f64>this.bestTake[k] * this.s[k];
    if (load > this.cap + this.eps) {
      for (let k = 0; k < n; k++) this.bestTake[k] = 0;
      this.best = 0;
    } else this.best = v;
    this.upper = ub > v ? ub : v;
    this.exact = this.upper <= this.best * (1.0 + 1e-12) + 1e-12;
    return this.best;
  }

  /** Bounded knapsack by DP over integer weights w[] and capacity C; sets bestTake, returns the value. */
  private solveDpWeights(C: i32): f64 {
    const n = this.n;
    // Binary splitting turns the bounded knapsack into a 0/1 one.
    let np: i32 = 0;
    for (let k = 0; k < n; k++) {
      let left = this.u[k];
      let c = 1;
      while (left > 0) {
        const take = c < left ? c : left;
        if (np >= this.pieceItem.length) {
          const a = new Int32Array(np << 1), b = new Int32Array(np << 1);
          for (let j = 0; j < np; j++) { a[j] = this.pieceItem[j]; b[j] = this.pieceCount[j]; }
          this.pieceItem = a;
          this.pieceCount = b;
        }
        this.pieceItem[np] = k;
        this.pieceCount[np] = take;
        np++;
        left -= take;
        c <<= 1;
      }
    }
    if (this.dp.length < C + 1) this.dp = new Float64Array(C + 1);
    if (this.pick.length < np * (C + 1)) this.pick = new Uint8Array(np * (C + 1));
    const dp = this.dp.dataStart;
    const pk = this.pick.dataStart;
    memory.fill(dp, 0, <usize>(C + 1) << 3);
    for (let p = 0; p < np; p++) {
      const k = this.pieceItem[p];
      const w = this.w[k] * this.pieceCount[p];
      const v = this.v[k] * <f64>this.pieceCount[p];
      const row = pk + <usize>(p * (C + 1));
      memory.fill(row, 0, <usize>(C + 1));
      // Downwards, so dp[c - w] is still the previous piece's value; two cells per step
      // (SIMD): both lanes read before either is written, which keeps that true for w = 1.
      const vv = f64x2.splat(v);
      let c = C;
      for (; c - 1 >= w; c -= 2) {
        const at = dp + (<usize>(c - 1) << 3);
        const old = v128.load(at);
        const cand = f64x2.add(v128.load(at - (<usize>w << 3)), vv);
        const better = f64x2.gt(cand, old);
        if (v128.any_true(better)) {
          v128.store(at, v128.bitselect(cand, old, better));
          if (i64x2.extract_lane(better, 0) != 0) store<u8>(row + <usize>(c - 1), 1);
          if (i64x2.extract_lane(better, 1) != 0) store<u8>(row + <usize>c, 1);
        }
      }
      if (c >= w) {
        const cand = load<f64>(dp + (<usize>(c - w) << 3)) + v;
        if (cand > load<f64>(dp + (<usize>c << 3))) {
          store<f64>(dp + (<usize>c << 3), cand);
          store<u8>(row + <usize>c, 1);
        }
      }
    }
    for (let k = 0; k < n; k++) this.bestTake[k] = 0;
    let c = C;
    for (let p = np - 1; p >= 0; p--) {
      if (this.pick[p * (C + 1) + c]) {
        const k = this.pieceItem[p];
        this.bestTake[k] += this.pieceCount[p];
        c -= this.w[k] * this.pieceCount[p];
      }
    }
    this.best = this.dp[C];
    this.exact = true;
    this.lastDp = true;
    this.np = np;
    return this.best;
  }

  lastDp: bool = false;
  np: i32 = 0;

  private bound(k: i32, room: f64): f64 {
    let b: f64 = 0;
    for (let j = k; j < this.n; j++) {
      const full = <f64>unchecked(this.u[j]) * unchecked(this.s[j]);
      if (full <= room + this.eps) {
        room -= full;
        b += <f64>unchecked(this.u[j]) * unchecked(this.v[j]);
      } else {
        return b + room * (unchecked(this.v[j]) / unchecked(this.s[j]));
      }
    }
    return b;
  }

  private dfs(k: i32, room: f64, val: f64): void {
    if (val > this.best + 1e-12) {
      this.best = val;
      for (let j = 0; j < this.n; j++) this.bestTake[j] = j < k ? this.take[j] : 0;
    }
    if (k >= this.n) return;
    if (++this.nodes > this.limit) {
      this.exact = false;
      return;
    }
    if (val + this.bound(k, room) <= this.best * (1.0 + 1e-12) + 1e-12) return;
    let c = <i32>Math.floor((room + this.eps) / this.s[k]);
    if (c > this.u[k]) c = this.u[k];
    for (; c >= 0; c--) {
      this.take[k] = c;
      this.dfs(k + 1, room - <f64>c * this.s[k], val + <f64>c * this.v[k]);
      if (!this.exact) break;
    }
    this.take[k] = 0;
  }
}
