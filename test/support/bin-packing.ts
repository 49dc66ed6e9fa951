// Exact bin packing for small jobs (at most about 20 pieces), for the linear proof's tests:
// whether the pieces fit into k bars, by depth-first search over bars for each piece in
// decreasing length, bars of equal load tried once, equal pieces in non-decreasing bars,
// and each failed state (piece, sorted loads) remembered.

/** True when the pieces (any order) fit into k bars of the given capacity. */
export function fitsInBars(sizes: number[], capacity: number, k: number): boolean {
  const s = [...sizes].sort((a, b) => b - a);
  const total = s.reduce((t, x) => t + x, 0);
  if (total > k * capacity || (s.length > 0 && s[0]! > capacity)) return false;
  const loads = new Array<number>(k).fill(0);
  const binOf = new Array<number>(s.length).fill(0);
  const failed = new Set<string>();
  const place = (i: number): boolean => {
    if (i === s.length) return true;
    const key = `${i}:${[...loads].sort((a, b) => a - b).join(',')}`;
    if (failed.has(key)) return false;
    const tried = new Set<number>();
    const from = i > 0 && s[i] === s[i - 1] ? binOf[i - 1]! : 0;
    for (let b = from; b < k; b++) {
      const l = loads[b]!;
      if (l + s[i]! > capacity || tried.has(l)) continue;
      tried.add(l);
      loads[b] = l + s[i]!;
      binOf[i] = b;
      if (place(i + 1)) return true;
      loads[b] = l;
    }
    failed.add(key);
    return false;
  };
  return place(0);
}

/** Fewest bars of the given capacity that hold all the pieces. */
export function fewestBars(sizes: number[], capacity: number): number {
  const total = sizes.reduce((t, x) => t + x, 0);
  let k = Math.max(1, Math.ceil(total / capacity));
  while (!fitsInBars(sizes, capacity, k)) k++;
  return k;
}
