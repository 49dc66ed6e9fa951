// A pool of good sheet patterns met during a search: sheets whose fill reaches a threshold,
// one per multiset of part types (two sheets holding the same parts are the same choice
// for recombine.ts, whatever their layout). When full, the lower-filled half is dropped.

import { Sheet } from "./solution";
import { NODE_STRIDE, N_KIND, N_ITEM, KIND_PART } from "./layout";
import { Rng } from "../common/rng";

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
  let h: u64 = 0xcbf29ce484222325 ^ <u64>stock;
  for (let i = 0; i < types.length; i++) h = (h ^ <u64>(unchecked(types[i]) + 1)) * 0x100000001b3;
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
   * Takes up to `most` patterns whose parts all lie within demand[type], one at a time the
   * largest that fits (ties to the earliest from a random start), appending their sheets to
   * `out` and taking their parts off demand; returns how many it took.
   */
  takeFitting(demand: Int32Array, most: i32, rng: Rng, out: Array<Sheet>): i32 {
    const entries = this.entries;
    const P = entries.length;
    let taken = 0;
    while (taken < most && P > 0) {
      const start = rng.int(P);
      let best: PoolEntry | null = null;
      for (let r = 0; r < P; r++) {
        const e = unchecked(entries[(start + r) % P]);
        if (best !== null && e.area <= best.area) continue;
        if (fitsIn(e.types, demand)) best = e;
        this.work += 2;
      }
      if (best === null) break;
      const ty = best.types;
      for (let k = 0; k < ty.length; k++) unchecked((demand[unchecked(ty[k])] -= 1));
      out.push(best.sheet);
      taken++;
    }
    return taken;
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
