// Reading and reshaping engine trees: where their parts end, their area, which copies they
// hold, which of two layouts is better; shared by the roll heuristic and the free placement race.

import type { EngineNode, EnginePart, EngineSolution, GuillotineProblem } from './types.js';

export /** Largest x any part of the tree reaches. */
function partsEnd(n: EngineNode): number {
  return n.kind === 'part' ? n.x + n.l : (n.children as EngineNode[]).reduce((m, c) => Math.max(m, partsEnd(c)), n.x);
}

export function partsArea(n: EngineNode): number {
  return n.kind === 'part' ? n.l * n.w : (n.children as EngineNode[]).reduce((s, c) => s + partsArea(c), 0);
}

/** Copies of each part the tree does not hold (one pass: jobs come with thousands of lines). */
export function unplacedOf(parts: EnginePart[], root: EngineNode): number[] {
  const left = parts.map((p) => Math.max(0, p.q));
  for (const n of partsOf(root)) left[n.part]!--;
  return left;
}

export function partsOf(n: EngineNode): Extract<EngineNode, { kind: 'part' }>[] {
  return n.kind === 'part' ? [n] : (n.children as EngineNode[]).flatMap(partsOf);
}

/** The tree moved by dx along x, every node cut off at x = end (no part reaches past it). */
export function shiftClamp(n: EngineNode, dx: number, end: number): EngineNode {
  const x = n.x + dx;
  if (n.kind === 'part') return { ...n, x };
  if (n.kind === 'free') return { ...n, x, l: Math.min(n.l, end - x), children: n.children.map((c) => ({ ...c, x: c.x + dx })) };
  return { ...n, x, l: Math.min(n.l, end - x), children: n.children.map((c) => shiftClamp(c, dx, end)) };
}

/** Negative when a is better: more placed area, then less stock (roll length, sheet area), then cost. */
export function compareSolutions(problem: GuillotineProblem, a: EngineSolution, b: EngineSolution): number {
  const measure = (sol: EngineSolution) => {
    let placed = 0;
    let stock = 0;
    let cost = 0;
    for (const sh of sol.sheets) {
      const row = problem.stock[sh.stock]!;
      placed += partsArea(sh.root);
      stock += (sh.length ?? row.l) * row.w;
      cost += row.cost;
    }
    return { placed, stock, cost };
  };
  const ma = measure(a);
  const mb = measure(b);
  const tol = 1e-9 * Math.max(1, ma.placed, mb.placed, ma.stock, mb.stock);
  if (Math.abs(ma.placed - mb.placed) > tol) return mb.placed - ma.placed;
  if (Math.abs(ma.stock - mb.stock) > tol) return ma.stock - mb.stock;
  return ma.cost - mb.cost;
}
