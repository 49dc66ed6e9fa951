// Reading and reshaping engine trees: where their parts end, their area, which copies they
// hold; shared by the roll heuristic and the free placement race.

import type { EngineNode, EnginePart } from './types.js';

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
