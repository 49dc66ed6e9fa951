// Seeded PRNG (SplitMix64). Every random choice in the search goes through one of these so
// a run is reproducible from the request seed; Math.random is never used.

export class Rng {
  private s: u64;

  constructor(seed: u64) {
    // Scramble once so nearby seeds (0, 1, 2...) give unrelated streams.
    this.s = seed ^ 0x2545F4914F6CDD1D;
    this.next();
  }

  next(): u64 {
    this.s += 0x9E3779B97F4A7C15;
    let z = this.s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
    return z ^ (z >> 31);
  }

  /** Uniform in [0, 1). */
  float(): f64 {
    return <f64>(this.next() >> 11) * (1.0 / 9007199254740992.0);
  }

  /** Uniform integer in [0, n); 0 when n <= 0. */
  int(n: i32): i32 {
    if (n <= 0) return 0;
    const r = <i32>(this.float() * <f64>n);
    return r < n ? r : n - 1;
  }
}

/** Turns the request's numeric seed into 64 bits, tolerating fractions, negatives and NaN. */
export function seedFromF64(v: f64): u64 {
  if (!isFinite(v)) return 0;
  const a = Math.abs(v);
  const hi = Math.floor(a / 4294967296.0);
  const lo = a - hi * 4294967296.0;
  let s: u64 = (<u64>(<u32>(hi % 4294967296.0)) << 32) | <u64>(<u32>lo);
  if (v < 0) s = ~s;
  // Keep the fractional part from collapsing distinct seeds.
  const frac = a - Math.floor(a);
  if (frac > 0) s ^= <u64>(frac * 4294967296.0);
  return s;
}
