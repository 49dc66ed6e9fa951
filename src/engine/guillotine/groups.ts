// Matched-grain groups (SmartCut `groups: [{ positions: [{ part, x, y }], q }]`): parts kept
// together at fixed offsets, so drawer fronts come out of one piece of board with the grain
// running on. Done in the problem mapping, because a group is exactly a composite part: its
// bounding rectangle goes to the engine as one more part row (turned only where every member
// may turn, on stock every member may use), so the search weighs it like any part and no
// engine change is needed. After the search each placed rectangle is replaced by its members
// at their offsets (turned with it) and, for guillotine layouts, by the cuts that separate them.
import type { CalcGroup, CalcRequest } from '../../schema/request.js';
import type { EngineNode, EnginePart, EngineSolution, GuillotineProblem } from './types.js';
import type { PartIssue } from './problem.js';
import { separate, type Member } from '../../schema/group-shapes.js';

type Node = EngineNode;
type PartNode = Extract<EngineNode, { kind: 'part' }>;

const EPS = 1e-7;

/** A group's bounding rectangle and its members, in the group's own frame (origin at 0, 0). */
export interface GroupShape { l: number; w: number; members: Member[] }

export function groupShape(group: CalcGroup, request: CalcRequest): GroupShape {
  const members = group.positions.map((p) => ({ row: p.part, x: p.x, y: p.y, l: request.parts[p.part]!.l, w: request.parts[p.part]!.w }));
  const x0 = Math.min(...members.map((m) => m.x));
  const y0 = Math.min(...members.map((m) => m.y));
  // The rectangle starts at the first member: offsets are kept relative to one another.
  for (const m of members) { m.x -= x0; m.y -= y0; }
  return { l: Math.max(...members.map((m) => m.x + m.l)), w: Math.max(...members.map((m) => m.y + m.w)), members };
}

/**
 * The engine part of each group (appended after the request's part rows), and what its
 * instances take from the member rows. Mutates `problem.parts` and `blocked`.
 */
export function addGroupParts(request: CalcRequest, problem: GuillotineProblem, blocked: (PartIssue | undefined)[]): GroupShape[] {
  const shapes = (request.groups ?? []).map((g) => groupShape(g, request));
  const taken = request.parts.map(() => 0);
  shapes.forEach((shape, i) => {
    const group = request.groups[i]!;
    const members = shape.members.map((m) => problem.parts[m.row]!);
    const rotMask = [0, 1, 2].map((g) => members.reduce((mask, p) => mask & p.rotMask[g]!, 3)) as EnginePart['rotMask'];
    const stock = members.reduce<number[]>((list, p) => list.filter((s) => p.stock.includes(s)), members[0]!.stock);
    const usable = (s: number) => {
      const st = problem.stock[s]!;
      const X = st.l - st.trim.w1 - st.trim.w2, Y = st.w - st.trim.l1 - st.trim.l2;
      const m = rotMask[st.grain]!;
      return ((m & 1) !== 0 && shape.l <= X && shape.w <= Y) || ((m & 2) !== 0 && shape.w <= X && shape.l <= Y);
    };
    const fits = stock.filter(usable);
    let reason: PartIssue | undefined;
    if (fits.length === 0) {
      reason = {
        category: 'group', field: `groups[${i}]`,
        message: stock.length === 0
          ? `group ${i}: no stock takes all its parts (material, thickness or stock lock)`
          : `group ${i}: its rectangle ${shape.l} x ${shape.w} fits no stock its parts may use, in the orientation their grain or locks allow`,
      };
    }
    for (const m of shape.members) {
      taken[m.row]! += group.q;
      if (reason) blocked[m.row] ??= reason;
    }
    problem.parts.push({ l: shape.l, w: shape.w, q: reason ? 0 : group.q, rotMask, stock: reason ? [] : fits });
  });
  taken.forEach((n, row) => { problem.parts[row]!.q = Math.max(0, problem.parts[row]!.q - n); });
  return shapes;
}

/** The members of a placed group rectangle, in stock coordinates (turned with it). */
function placeMembers(node: PartNode, shape: GroupShape): Member[] {
  return shape.members.map((m) => (node.rot === 0
    ? { ...m, x: node.x + m.x, y: node.y + m.y }
    // Turned a quarter counter-clockwise: the group's x runs along y, its y back along x.
    : { ...m, x: node.x + shape.w - m.y - m.w, y: node.y + m.x, l: m.w, w: m.l }));
}

/** Replaces every placed group rectangle of the solution by its members (and their cuts). */
export function expandGroups(solution: EngineSolution, shapes: GroupShape[], problem: GuillotineProblem, firstRow: number): EngineSolution {
  if (shapes.length === 0) return solution;
  const kerf = problem.kerf;
  const expand = (node: Node, parentAlong: 'x' | 'y'): Node => {
    if (node.kind === 'free') {
      return { ...node, children: node.children.flatMap((c) => (c.part >= firstRow ? memberNodes(c) : [c])) };
    }
    if (node.kind === 'part') {
      if (node.part < firstRow) return node;
      // The group's own tree, first cuts across its band; every member is turned with the group.
      const members = placeMembers(node, shapes[node.part - firstRow]!);
      const across = parentAlong === 'x' ? 'y' : 'x';
      // The request check made sure the members can be separated (groupIssues).
      const tree = separate(node, members.map((m, k) => ({ ...m, row: k })), across, kerf) ?? separate(node, members.map((m, k) => ({ ...m, row: k })), parentAlong, kerf)!;
      return relabel(tree, members, node.rot);
    }
    return { ...node, children: node.children.map((c) => expand(c, node.along)) };
  };
  const memberNodes = (node: PartNode): PartNode[] => placeMembers(node, shapes[node.part - firstRow]!)
    .map((m) => ({ kind: 'part', x: m.x, y: m.y, l: m.l, w: m.w, part: m.row, rot: node.rot }));
  return {
    ...solution,
    sheets: solution.sheets.map((sheet) => {
      let root = sheet.root;
      if (root.kind === 'part' && root.part >= firstRow) {
        // A lone group on the sheet: its band across the usable area first, as for a lone part.
        const s = problem.stock[sheet.stock]!;
        root = { kind: 'cut', along: problem.firstCut, x: s.trim.w1, y: s.trim.l1, l: s.l - s.trim.w1 - s.trim.w2, w: s.w - s.trim.l1 - s.trim.l2, children: [root] };
      }
      return { ...sheet, root: wrapGroupLeaves(expand(root, rootAlong(root)), firstRow) };
    }),
    unplaced: solution.unplaced.slice(0, firstRow),
  };
}

const rootAlong = (root: Node): 'x' | 'y' => (root.kind === 'cut' ? root.along : 'x');

/** Members were numbered by position while separating; back to their part rows, with the group's turn. */
function relabel(node: Node, members: Member[], rot: 0 | 1): Node {
  if (node.kind === 'part') {
    return { ...node, part: members[node.part]!.row, rot };
  }
  if (node.kind === 'free') return node;
  return { ...node, children: node.children.map((c) => relabel(c, members, rot)) };
}

/**
 * A group's tree sits where the engine put a part, which may be shorter than its band: a
 * cut node must span its band, so the tree goes into a band-wide node whose first cut frees it.
 */
function wrapGroupLeaves(root: Node, _firstRow: number): Node {
  if (root.kind !== 'cut') return root;
  const children = root.children.map((child) => {
    const fixed = wrapGroupLeaves(child, _firstRow);
    if (fixed.kind !== 'cut') return fixed;
    const spansX = Math.abs(fixed.x - root.x) < EPS && Math.abs(fixed.l - root.l) < EPS;
    const spansY = Math.abs(fixed.y - root.y) < EPS && Math.abs(fixed.w - root.w) < EPS;
    if (root.along === 'x' ? spansX : spansY) return fixed;
    const band = root.along === 'x' ? { x: root.x, y: fixed.y, l: root.l, w: fixed.w } : { x: fixed.x, y: root.y, l: fixed.l, w: root.w };
    return { kind: 'cut' as const, along: root.along === 'x' ? 'y' as const : 'x' as const, ...band, children: [fixed] };
  });
  return { ...root, children };
}
