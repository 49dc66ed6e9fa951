// The geometry of a matched-grain group, shared by the request check (group-rules.ts) and the
// engine mapping (src/engine/guillotine/groups.ts): the guillotine cuts that separate its members, and
// members too close for a free layout. Trees are engine cut trees (src/engine/guillotine/types.ts).
import type { EngineNode } from '../engine/guillotine/types.js';

type Node = EngineNode;
type CutNode = Extract<EngineNode, { kind: 'cut' }>;

/** One position of a group: its part row and rectangle. */
export interface Member { row: number; x: number; y: number; l: number; w: number }

const EPS = 1e-7;

/**
 * The guillotine cut tree separating `members` inside `region`, first cuts along `along`
 * (then across, alternating), children exactly one kerf apart as the engine's trees are;
 * space no member needs becomes empty bands (waste). undefined when no straight cut with a
 * kerf's room separates them.
 */
export function separate(area: { x: number; y: number; l: number; w: number }, members: Member[], along: 'x' | 'y', kerf: number, tried = false): Node | undefined {
  const region = { x: area.x, y: area.y, l: area.l, w: area.w };
  const only = members.length === 1 ? members[0]! : undefined;
  if (only && Math.abs(only.x - region.x) < EPS && Math.abs(only.y - region.y) < EPS && Math.abs(only.l - region.l) < EPS && Math.abs(only.w - region.w) < EPS) {
    return { kind: 'part', x: region.x, y: region.y, l: region.l, w: region.w, part: only.row, rot: 0 };
  }
  // Cuts along x stack bands in y.
  const lo = (m: Member | typeof region) => (along === 'x' ? m.y : m.x);
  const size = (m: Member | typeof region) => (along === 'x' ? m.w : m.l);
  const sorted = [...members].sort((a, b) => lo(a) - lo(b));
  const bands: { from: number; to: number; members: Member[] }[] = [];
  for (const m of sorted) {
    const last = bands.at(-1);
    // No cut with a kerf's room between them: the same band (the next level may separate them).
    if (last && lo(m) < last.to + kerf - EPS) {
      last.to = Math.max(last.to, lo(m) + size(m));
      last.members.push(m);
    } else bands.push({ from: lo(m), to: lo(m) + size(m), members: [m] });
  }
  const start = lo(region);
  const end = start + size(region);
  const other = along === 'x' ? 'y' : 'x';
  // One band over the whole region: no cut this way; try the other way once.
  if (bands.length === 1 && bands[0]!.from - start < kerf + EPS && bands[0]!.to >= end - EPS) {
    return tried ? undefined : separate(region, members, other, kerf, true);
  }
  const children: Node[] = [];
  let cursor = start;
  for (const band of bands) {
    // Room before the band: an empty band of waste when a kerf fits before it, else part of the band.
    let from = band.from;
    if (from - cursor >= kerf + EPS) children.push(emptyBand(region, along, cursor, from - kerf - cursor));
    else from = cursor;
    const sub = along === 'x' ? { x: region.x, y: from, l: region.l, w: band.to - from } : { x: from, y: region.y, l: band.to - from, w: region.w };
    const inner = separate(sub, band.members, other, kerf);
    if (!inner) return undefined;
    // A lone part that fills its band across, maybe not along: the engine's part child.
    children.push(inner.kind === 'part' ? inner : inner);
    cursor = band.to + kerf;
  }
  return { kind: 'cut', along, ...region, children };
}

function emptyBand(region: { x: number; y: number; l: number; w: number }, along: 'x' | 'y', from: number, size: number): CutNode {
  return along === 'x'
    ? { kind: 'cut', along: 'y', x: region.x, y: from, l: region.l, w: size, children: [] }
    : { kind: 'cut', along: 'x', x: from, y: region.y, l: size, w: region.w, children: [] };
}

/** Pairs of members closer than `gap` (free layouts keep every part a gap apart). */
export function tooClose(members: Member[], gap: number): [number, number] | undefined {
  for (let i = 0; i < members.length; i++) {
    for (let j = i + 1; j < members.length; j++) {
      const a = members[i]!, b = members[j]!;
      const dx = Math.max(a.x - (b.x + b.l), b.x - (a.x + a.l));
      const dy = Math.max(a.y - (b.y + b.w), b.y - (a.y + a.w));
      if (Math.max(dx, dy) < gap - EPS) return [i, j];
    }
  }
  return undefined;
}

