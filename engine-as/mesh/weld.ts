// Welding: triangle corners on the same tolerance grid point share one vertex id. Quantised
// coordinates are hashed into a u64 key, so the table is one flat open-addressing array.
import { U64Table } from "./hash";

export class Welded {
  ids: Int32Array;       // 3 per triangle
  first: Int32Array;     // per welded vertex: its first corner, whose coordinates it keeps
  count: i32 = 0;
  constructor(corners: i32) {
    this.ids = new Int32Array(corners);
    this.first = new Int32Array(corners);
  }
}

// @ts-ignore: decorator
@inline function mix(h: u64, v: i64): u64 {
  h ^= <u64>v + 0x9E3779B97F4A7C15 + (h << 6) + (h >> 2);
  return h * 0xBF58476D1CE4E5B9;
}

export function weld(pos: Float32Array, tolerance: f64): Welded {
  const corners = pos.length / 3;
  const out = new Welded(corners);
  // Most meshes share each vertex between about six corners; the table grows past that guess.
  let table = new U64Table(corners / 4 + 16);
  const inv = 1.0 / tolerance;
  for (let c = 0; c < corners; c++) {
    const x = <f64>unchecked(pos[c * 3]);
    const y = <f64>unchecked(pos[c * 3 + 1]);
    const z = <f64>unchecked(pos[c * 3 + 2]);
    let key: u64 = 0x12345;
    key = mix(key, <i64>Math.round(x * inv));
    key = mix(key, <i64>Math.round(y * inv));
    key = mix(key, <i64>Math.round(z * inv));
    if (key == 0) key = 1;
    if (table.size * 2 > <i32>table.mask) table = rehash(table);
    const id = table.getOrAdd(key, out.count);
    if (table.isNew) {
      unchecked(out.first[id] = c);
      out.count++;
    }
    unchecked(out.ids[c] = id);
  }
  return out;
}

function rehash(old: U64Table): U64Table {
  const next = new U64Table((<i32>old.mask + 1) * 2);
  const n = (<i32>old.mask + 1) * 2;
  for (let s = 0; s < n; s += 2) {
    const k = unchecked(old.slots[s]);
    if (k != 0) next.getOrAdd(k, <i32>unchecked(old.slots[s + 1]));
  }
  return next;
}
