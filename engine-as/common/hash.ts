// 64-bit FNV-1a over whole values: the keys that find equal patterns (linear columns, sheet
// trees, pooled part multisets, the proof's columns). Equal sequences hash equal; callers still
// compare on a hit, so a collision costs a comparison, never a wrong answer.

export const HASH_START: u64 = 0xcbf29ce484222325;

/** The hash h extended by one value. */
@inline
export function hashStep(h: u64, value: u64): u64 {
  return (h ^ value) * 0x100000001b3;
}
