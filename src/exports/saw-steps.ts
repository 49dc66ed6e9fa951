// A pattern as a sawyer works it: the cuts in saw order as fence settings (trim 10 x 4, rip
// 600, cross 720 x 3 ...), each with the cut numbers drawn on the diagram and what comes off,
// and the order the parts leave the saw (labels print in it). Built from the record's cuts
// by replaying them on the sheet (cut-tree.ts); a pattern no saw can follow (nested shapes,
// a free router layout) has no steps, and its parts come off left to right.
import { cutSplits, NotGuillotine, type Split, type TreeNode } from './cut-tree.js';
import { fmt, type Placement, type Sheet } from './model.js';

export type StepKind = 'trim' | 'head' | 'rip' | 'cross' | 'recut' | 'cut';

export interface SawStep {
  /** The cuts' numbers (the record's order on the sheet), as drawn on the diagram. */
  cuts: number[];
  kind: StepKind;
  /** Fence setting: the width of what each cut takes off the piece it crosses. */
  fence: number;
  /** What each cut takes off ("part 3", "strip: parts 1, 1, 2", "offcut 580 × 600", "waste"). */
  off: string;
  /** What is left once the step's last cut is made, when nothing cuts it further. */
  rest?: string;
}

export interface SawPlan {
  steps: SawStep[];
  /** The sheet's placements in the order they come off the saw. */
  order: Placement[];
  /** Why there are no steps (nested or routed); undefined when there are. */
  none?: string;
}

function kindOf(phase: number, isTrim: boolean, linear: boolean): StepKind {
  if (isTrim) return 'trim';
  if (linear) return 'cut';
  return phase <= 0 ? 'head' : phase === 1 ? 'rip' : phase === 2 ? 'cross' : 'recut';
}

/** What a piece is once every cut is made: a part, an offcut, waste, or a strip cut further. */
function describe(node: TreeNode): string {
  if (!node.children) {
    const c = node.content;
    if (c?.kind === 'part') return `part ${c.placement.row.number}`;
    if (c?.kind === 'offcut') return `offcut ${fmt(c.offcut.l)} × ${fmt(c.offcut.w)}`;
    return 'waste';
  }
  const parts: number[] = [];
  const walk = (n: TreeNode) => (n.children ? n.children.forEach(walk) : n.content?.kind === 'part' && parts.push(n.content.placement.row.number));
  walk(node);
  return parts.length ? `strip: part${parts.length > 1 ? 's' : ''} ${parts.join(', ')}` : 'strip: waste';
}

const byPosition = (a: Placement, b: Placement) => a.x - b.x || a.y - b.y;

export function sawPlan(sheet: Sheet, kerf: number): SawPlan {
  let splits: Split[];
  try {
    ({ splits } = cutSplits(sheet, kerf));
  } catch (error) {
    if (!(error instanceof NotGuillotine)) throw error;
    const nested = sheet.placements.some((p) => p.part.placedOutline?.length);
    return { steps: [], order: [...sheet.placements].sort(byPosition), none: nested ? 'nested shapes are routed, not sawn' : 'a router layout, not made by straight cuts through the sheet' };
  }
  const linear = sheet.stock.type === 'linear';
  const steps: SawStep[] = [];
  const trims = trimSteps(sheet, linear);
  steps.push(...trims);

  let previous: { split: Split; step: SawStep } | undefined;
  const freedBy = new Map<TreeNode, number>();
  for (const split of splits) {
    const { cut, piece, low, high } = split;
    freedBy.set(low, cut.order);
    freedBy.set(high, cut.order);
    const fence = cut.dimension === 'l' ? cut.position - piece.y : cut.position - piece.x;
    const kind = kindOf(cut.phase, false, linear);
    const off = describe(low);
    const step = previous?.step;
    // The same setting again on what the last cut left: one step, "x n".
    if (step && previous!.split.high === piece && step.kind === kind && Math.abs(step.fence - fence) < 1e-6 && step.off === off) step.cuts.push(cut.order);
    else steps.push({ cuts: [cut.order], kind, fence, off });
    const current = steps[steps.length - 1];
    if (!high.children) current.rest = describe(high);
    else delete current.rest;
    previous = { split, step: current };
  }

  // A part's piece is free once the cut that made it is done; one never cut is free from the start.
  const release = new Map<Placement, number>();
  for (const [node, order] of freedBy) if (!node.children && node.content?.kind === 'part') release.set(node.content.placement, order);
  const order = [...sheet.placements].sort((a, b) => (release.get(a) ?? 0) - (release.get(b) ?? 0) || byPosition(a, b));
  return { steps, order };
}

/** The trim cuts, folded where the same width is trimmed off several sides in a row. */
function trimSteps(sheet: Sheet, linear: boolean): SawStep[] {
  const { stock } = sheet;
  const steps: SawStep[] = [];
  for (const c of sheet.cuts) {
    if (!c.isTrim) continue;
    // The side it trims: the nearer edge along the cut's normal.
    const span = c.dimension === 'l' ? stock.w : stock.l;
    const low = c.position < span / 2;
    const side = linear ? (low ? 'l1' : 'l2') : c.dimension === 'l' ? (low ? 'l1' : 'l2') : low ? 'w1' : 'w2';
    const fence = stock.trim[side as 'l1'];
    const last = steps[steps.length - 1];
    if (last && Math.abs(last.fence - fence) < 1e-6) {
      last.cuts.push(c.order);
      last.off = 'trim';
    } else steps.push({ cuts: [c.order], kind: kindOf(0, true, linear), fence, off: 'trim' });
  }
  return steps;
}

/** "5", "6-8", "3, 7" */
export function cutNumbers(cuts: number[]): string {
  const consecutive = cuts.every((c, i) => i === 0 || c === cuts[i - 1] + 1);
  return cuts.length > 2 && consecutive ? `${cuts[0]}–${cuts[cuts.length - 1]}` : cuts.join(', ');
}

/** "rip 600", "cross 720 × 3": the step as a sawyer reads it. */
export function stepText(step: SawStep): string {
  return `${step.kind} ${fmt(step.fence)}${step.cuts.length > 1 ? ` × ${step.cuts.length}` : ''}`;
}
