// A pool of good sheet patterns met during a search: sheets whose fill reaches a threshold,
// one per multiset of part types (two sheets holding the same parts are the same choice
// for the recombination, takeBestCover, whatever their layout). When full, the
// lower-filled half is dropped.

import { Sheet } from "./solution";
import { NODE_STRIDE, N_KIND, N_ITEM, KIND_PART } from "./layout";
import { HASH_START, hashStep } from "../common/hash";

/** The recombination's exact search looks at this many of the largest patterns that fit, and at most this many nodes. */
const COVER_CANDIDATES: i32 = 48;
const COVER_NODES: i32 = 2048;

/** One pattern: its sheet, the part types it holds (sorted, one entry per part) and their area. */
export class PoolEntry {
  constructor(
    public sheet: Sheet,
    public types: Int32Array,
    public area: f64,
    public key: u64,
  ) {}
}

/** The part types on a sheet, sorted (one entry per part). */
export function partTypes(sh: Sheet): Int32Array {
  const d = sh.nodes;
  const out = new Int32Array(sh.placedCount);
  let n = 0;
  for (let i = 0; i < d.length; i += NODE_STRIDE) {
    if (<i32>unchecked(d[i + N_KIND]) == KIND_PART && n < out.length) unchecked((out[n++] = <i32>unchecked(d[i + N_ITEM])));
  }
  const types = n < out.length ? out.subarray(0, n) : out;
  types.sort();
  return types;
}

/** Hash of stock type and sorted part types: equal multisets hash equal. */
export function multisetKey(stock: i32, types: Int32Array): u64 {
  let h = HASH_START ^ <u64>stock;
  for (let i = 0; i < types.length; i++) h = hashStep(h, <u64>(unchecked(types[i]) + 1));
  return h | 1;
}

export function entryOf(sh: Sheet): PoolEntry {
  const types = partTypes(sh);
  return new PoolEntry(sh, types, sh.placedArea, multisetKey(sh.stock, types));
}

export class PatternPool {
  entries: Array<PoolEntry> = new Array<PoolEntry>();
  private seen: Set<u64> = new Set<u64>();
  /** Sheets below this fill are not kept (the caller sets it from its best solution). */
  minFill: f64 = 0;
  /** Operations spent (deterministic), for the caller's effort count. */
  work: i64 = 0;

  constructor(public cap: i32) {}

  clear(): void {
    this.entries = new Array<PoolEntry>();
    this.seen.clear();
  }

  get size(): i32 {
    return this.entries.length;
  }

  /** Keeps the sheet when it is full enough and its parts are not in the pool yet; true when kept. */
  offer(sh: Sheet): bool {
    if (sh.placedCount == 0 || sh.fill() < this.minFill) return false;
    this.work += sh.placedCount;
    const e = entryOf(sh);
    if (this.seen.has(e.key)) return false;
    if (this.entries.length >= this.cap) this.halve();
    this.entries.push(e);
    this.seen.add(e.key);
    return true;
  }

  /**
   * Recombination: the set of at most `most` pool patterns, their parts all within
   * demand[type] together, that holds the most part area (a small exact search over the
   * COVER_CANDIDATES largest patterns that fit, at most COVER_NODES nodes). Appends their
   * sheets to `out`, takes their parts off demand and returns how many it took. Largest
   * first would not do: one big pattern can block two that hold more together.
   */
  takeBestCover(demand: Int32Array, most: i32, out: Array<Sheet>): i32 {
    const entries = this.entries;
    const cand = this.cand;
    cand.length = 0;
    for (let i = 0; i < entries.length; i++) {
      const e = unchecked(entries[i]);
      this.work += 2;
      if (fitsIn(e.types, demand)) cand.push(e);
    }
    if (cand.length == 0 || most <= 0) return 0;
    // Largest first (ties: pool order), so the bound below is tight and the search finds good sets early.
    cand.sort((a: PoolEntry, b: PoolEntry): i32 => (a.area > b.area ? -1 : a.area < b.area ? 1 : 0));
    if (cand.length > COVER_CANDIDATES) cand.length = COVER_CANDIDATES;
    this.bestArea = 0;
    this.bestSet.length = 0;
    this.pick.length = 0;
    this.nodes = 0;
    this.cover(demand, most, 0, 0);
    this.work += this.nodes * 8;
    const set = this.bestSet;
    for (let k = 0; k < set.length; k++) {
      const e = unchecked(set[k]);
      const ty = e.types;
      for (let j = 0; j < ty.length; j++) unchecked((demand[unchecked(ty[j])] -= 1));
      out.push(e.sheet);
    }
    return set.length;
  }

  private cand: Array<PoolEntry> = new Array<PoolEntry>();
  private pick: Array<PoolEntry> = new Array<PoolEntry>();
  private bestSet: Array<PoolEntry> = new Array<PoolEntry>();
  private bestArea: f64 = 0;
  private nodes: i32 = 0;

  /** Depth-first over cand[from..): take or skip each, pruned by the largest areas still open. */
  private cover(demand: Int32Array, most: i32, from: i32, area: f64): void {
    if (area > this.bestArea) {
      this.bestArea = area;
      this.bestSet = this.pick.slice(0);
    }
    const cand = this.cand;
    if (this.pick.length >= most || this.nodes >= COVER_NODES) return;
    for (let i = from; i < cand.length; i++) {
      const e = unchecked(cand[i]);
      // cand is sorted by area: nothing after i can lift the total past the best.
      if (area + <f64>(most - this.pick.length) * e.area <= this.bestArea) return;
      this.nodes++;
      if (!fitsIn(e.types, demand)) continue;
      const ty = e.types;
      for (let j = 0; j < ty.length; j++) unchecked((demand[unchecked(ty[j])] -= 1));
      this.pick.push(e);
      this.cover(demand, most, i + 1, area + e.area);
      this.pick.pop();
      for (let j = 0; j < ty.length; j++) unchecked((demand[unchecked(ty[j])] += 1));
      if (this.nodes >= COVER_NODES) return;
    }
  }

  /** Drops the lower-filled half (ties: the older first), keeping the order of the rest. */
  private halve(): void {
    const n = this.entries.length;
    const fills = new Float64Array(n);
    for (let i = 0; i < n; i++) unchecked((fills[i] = unchecked(this.entries[i]).sheet.fill()));
    const sorted = fills.slice(0);
    sorted.sort();
    const cut = unchecked(sorted[n / 2]);
    const kept = new Array<PoolEntry>();
    this.seen.clear();
    // Above the median, then at it (newest first) until half is kept.
    let atCut = 0;
    for (let i = 0; i < n; i++) if (unchecked(fills[i]) > cut) atCut++;
    let room = n - n / 2 - atCut;
    for (let i = n - 1; i >= 0; i--) {
      const f = unchecked(fills[i]);
      if (f == cut && room > 0) {
        room--;
        unchecked((fills[i] = cut + 1.0));
      }
    }
    for (let i = 0; i < n; i++) {
      if (unchecked(fills[i]) > cut) {
        const e = unchecked(this.entries[i]);
        kept.push(e);
        this.seen.add(e.key);
      }
    }
    this.work += <i64>n * 8;
    this.entries = kept;
  }
}

/** Whether the parts of sorted `types` all lie within demand[type]. */
function fitsIn(types: Int32Array, demand: Int32Array): bool {
  let k = 0;
  while (k < types.length) {
    const t = unchecked(types[k]);
    let n = 1;
    while (k + n < types.length && unchecked(types[k + n]) == t) n++;
    if (unchecked(demand[t]) < n) return false;
    k += n;
  }
  return true;
}
