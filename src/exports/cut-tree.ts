// A sheet's guillotine cut tree, rebuilt from the record alone: start from the usable area
// (inside the trims), make each cut in saw order on the piece it crosses from edge to edge,
// then merge parallel cuts of one piece into one stage. Every leaf is then a part, an offcut
// or waste. A pattern whose cuts cannot be followed that way (nested shapes, free packing)
// has no tree, and the caller says so.
import type { ResultCut, ResultOffcut } from '../schema/result.js';
import { trimsOf, type Placement, type Sheet } from './model.js';

const EPS = 1e-4;
const near = (a: number, b: number) => Math.abs(a - b) <= EPS;

export interface Rect { x: number; y: number; dx: number; dy: number }

export type Content = { kind: 'part'; placement: Placement } | { kind: 'offcut'; offcut: ResultOffcut } | { kind: 'waste' };

export interface TreeNode extends Rect {
  /** How the piece is split: 'l' = by cuts parallel to x (pieces stacked in y), 'w' = parallel to y. */
  axis?: 'l' | 'w';
  /** The pieces, in increasing y ('l') or x ('w'). */
  children?: TreeNode[];
  /** A leaf's content. */
  content?: Content;
}

export class NotGuillotine extends Error {}

/** One cut as it was made: the piece it crossed and the two pieces it left (low: nearer the origin). */
export interface Split { cut: ResultCut; piece: TreeNode; low: TreeNode; high: TreeNode }

export function usableArea(sheet: Sheet): Rect {
  const { l, w } = sheet.stock;
  const t = trimsOf(sheet.stock);
  return { x: t.left, y: t.bottom, dx: l - t.left - t.right, dy: w - t.bottom - t.top };
}

export function cutTree(sheet: Sheet, kerf: number): TreeNode {
  return cutSplits(sheet, kerf).root;
}

/** The tree and, in saw order, what each cut (trims aside) split. */
export function cutSplits(sheet: Sheet, kerf: number): { root: TreeNode; splits: Split[] } {
  if (sheet.placements.some((p) => p.part.placedOutline?.length)) throw new NotGuillotine('nested (true-shape) parts are not cut by a panel saw');
  const root: TreeNode = usableArea(sheet);
  let leaves: TreeNode[] = [root];
  const splits: Split[] = [];
  for (const c of sheet.cuts) {
    if (c.isTrim) continue;
    const along = c.dimension === 'l';
    const from = Math.min(along ? c.x1 : c.y1, along ? c.x2 : c.y2);
    const to = Math.max(along ? c.x1 : c.y1, along ? c.x2 : c.y2);
    const piece = leaves.find((n) => along
      ? near(n.x, from) && near(n.x + n.dx, to) && c.position > n.y + EPS && c.position < n.y + n.dy - EPS
      : near(n.y, from) && near(n.y + n.dy, to) && c.position > n.x + EPS && c.position < n.x + n.dx - EPS);
    if (!piece) throw new NotGuillotine(`cut ${c.order} of stock ${c.stock.id} crosses no single piece from edge to edge`);
    const [low, high]: [TreeNode, TreeNode] = along
      ? [{ x: piece.x, y: piece.y, dx: piece.dx, dy: c.position - piece.y }, { x: piece.x, y: c.position + kerf, dx: piece.dx, dy: piece.y + piece.dy - c.position - kerf }]
      : [{ x: piece.x, y: piece.y, dx: c.position - piece.x, dy: piece.dy }, { x: c.position + kerf, y: piece.y, dx: piece.x + piece.dx - c.position - kerf, dy: piece.dy }];
    piece.axis = c.dimension;
    piece.children = [low, high].filter((n) => n.dx > EPS && n.dy > EPS);
    splits.push({ cut: c, piece, low, high });
    leaves = leaves.filter((n) => n !== piece).concat(piece.children);
  }
  flatten(root);
  fill(root, sheet);
  return { root, splits };
}

/** Parallel cuts of one piece, made in whatever order, are one stage: lift same-axis children. */
function flatten(node: TreeNode): void {
  if (!node.children) return;
  node.children.forEach(flatten);
  node.children = node.children.flatMap((c) => (c.axis === node.axis && c.children ? c.children : [c]));
  node.children.sort((a, b) => (node.axis === 'l' ? a.y - b.y : a.x - b.x));
}

function fill(root: TreeNode, sheet: Sheet): void {
  const leaves: TreeNode[] = [];
  const walk = (n: TreeNode) => (n.children ? n.children.forEach(walk) : leaves.push(n));
  walk(root);
  const same = (n: Rect, x: number, y: number, dx: number, dy: number) => near(n.x, x) && near(n.y, y) && near(n.dx, dx) && near(n.dy, dy);
  for (const pl of sheet.placements) {
    const leaf = leaves.find((n) => !n.content && same(n, pl.x, pl.y, pl.dx, pl.dy));
    if (!leaf) throw new NotGuillotine(`part ${pl.part.id} is not a piece of the cut tree of stock ${sheet.stock.id}`);
    leaf.content = { kind: 'part', placement: pl };
  }
  for (const o of sheet.offcuts) {
    const leaf = leaves.find((n) => !n.content && same(n, o.x, o.y, o.l, o.w));
    if (leaf) leaf.content = { kind: 'offcut', offcut: o };
  }
  for (const leaf of leaves) leaf.content ??= { kind: 'waste' };
}
