// Separation of subset-row cuts (Jepsen, Petersen, Spoorendonk and Pisinger 2008) on triples
// of pieces for the proof's LP (prove.ts). For a triple S of pieces, every packing holds at
// most one bar with two or more of S (each piece lies in one bar), so
//   sum over columns c with |c n S| >= 2 of x_c <= 1
// holds for every packing: the rank-1 Chvatal-Gomory cut of the three rows with
// multipliers 1/2. The LP's solution may break it; a broken cut lifts the LP.

import { I32Vec } from "../common/arrays";

/** A cut must be broken by at least this much to be added. */
const MIN_VIOLATION: f64 = 0.001;

/**
 * The most broken triples of the LP solution given as columns cols[0 .. nCols) with values
 * xs (pieces colPiece[colStart[c] .. colStart[c + 1])), over n pieces: at most `most` of
 * them, pushed as piece triples (a < b < c) onto `out`, the most broken first. `has(a, b, c)`
 * tells a triple already cut. `pair` is n * n scratch.
 */
export function separateTriples(
  n: i32, colStart: I32Vec, colPiece: I32Vec, cols: Int32Array, xs: Float64Array, nCols: i32,
  pair: Float64Array, most: i32, out: I32Vec, known: Map<i64, bool>,
): i32 {
  // pair[a * n + b] (a < b): the LP's bars holding both pieces.
  pair.fill(0);
  for (let q = 0; q < nCols; q++) {
    const x = xs[q];
    const s = colStart.data[cols[q]], e = colStart.data[cols[q] + 1];
    for (let i = s; i < e; i++) {
      const a = colPiece.data[i];
      for (let j = i + 1; j < e; j++) {
        const b = colPiece.data[j];
        unchecked((pair[a < b ? a * n + b : b * n + a] += x));
      }
    }
  }
  // Columns as piece membership, for the triples' exact left sides.
  const member = new Uint8Array(nCols * n);
  for (let q = 0; q < nCols; q++) {
    const s = colStart.data[cols[q]], e = colStart.data[cols[q] + 1];
    for (let i = s; i < e; i++) member[q * n + colPiece.data[i]] = 1;
  }
  // The best `most` triples, kept sorted by violation (decreasing).
  const bestV = new Float64Array(most);
  const bestT = new Int32Array(most * 3);
  let kept: i32 = 0;
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const tab = unchecked(pair[a * n + b]);
      for (let c = b + 1; c < n; c++) {
        // Pair sums count a bar holding all three three times where the cut counts it once.
        const sum = tab + unchecked(pair[a * n + c]) + unchecked(pair[b * n + c]);
        if (sum <= 1.0 + MIN_VIOLATION) continue;
        let lhs: f64 = 0;
        for (let q = 0; q < nCols; q++) {
          const o = q * n;
          if (<i32>unchecked(member[o + a]) + <i32>unchecked(member[o + b]) + <i32>unchecked(member[o + c]) >= 2) lhs += xs[q];
        }
        const v = lhs - 1.0;
        if (v <= MIN_VIOLATION || (kept == most && v <= bestV[most - 1])) continue;
        if (known.has(tripleKey(n, a, b, c))) continue;
        let at = kept < most ? kept++ : most - 1;
        while (at > 0 && bestV[at - 1] < v) {
          bestV[at] = bestV[at - 1];
          bestT[at * 3] = bestT[at * 3 - 3];
          bestT[at * 3 + 1] = bestT[at * 3 - 2];
          bestT[at * 3 + 2] = bestT[at * 3 - 1];
          at--;
        }
        bestV[at] = v;
        bestT[at * 3] = a;
        bestT[at * 3 + 1] = b;
        bestT[at * 3 + 2] = c;
      }
    }
  }
  for (let q = 0; q < kept * 3; q++) out.push(bestT[q]);
  return kept;
}

/** A triple's key for the set of cuts already made. */
export function tripleKey(n: i32, a: i32, b: i32, c: i32): i64 {
  return (<i64>a * <i64>n + <i64>b) * <i64>n + <i64>c;
}
