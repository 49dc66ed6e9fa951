// Request -> linear (1D) problem. A part may be cut from a stock row when material, stock
// lock, thickness (when both give one) and profile width match, and its length fits the
// usable length (bar length less the end trims l1 and l2). Parts no bar can take get the
// reason here; the engine only sees lengths, quantities and the allowed rows.
import type { CalcPart, CalcRequest, CalcStock } from '../../schema/request.js';
import type { LinearProblem } from './types.js';
import type { PartIssue } from '../common/part-issue.js';
import { matchesStock } from '../common/stock-match.js';

const TOL = 1e-9;

export interface MappedLinear {
  problem: LinearProblem;
  /** Per part row: why no bar can take it (undefined when some bar may). */
  blocked: (PartIssue | undefined)[];
  /**
   * Offcuts first: the engine's costs are new stock (bars, or their cost) times `scale`, plus
   * the usable length of each offcut bar used; the engine's bound divided by `scale` bounds
   * the new stock. Absent when no offcut row takes part (or offcutPriority is off).
   */
  offcutScale?: number;
}

const near = (a: number, b: number) => Math.abs(a - b) <= TOL * Math.max(1, Math.abs(a), Math.abs(b));

/** Usable length of a bar: its length less the start (l1) and end (l2) trims. */
export function usableLength(stock: CalcStock): number {
  return stock.l - stock.trim.l1 - stock.trim.l2;
}

function sameProfile(part: CalcPart, stock: CalcStock): boolean {
  if (!matchesStock(part, stock, near)) return false;
  // w 0 is a row without profile: the profile is matched only when both sides give one.
  return part.w === 0 || stock.w === 0 || near(part.w, stock.w);
}

function describeProfile(part: CalcPart): string {
  const bits = [part.material ? `material "${part.material}"` : 'no material', ...(part.w ? [`width ${part.w}`] : [])];
  if (part.t !== undefined) bits.push(`thickness ${part.t}`);
  return bits.join(', ');
}

function blockedReason(part: CalcPart, stock: CalcStock[], profile: number[]): PartIssue | undefined {
  if (profile.length === 0) {
    if (part.stockLock?.length) {
      return { category: 'stock', field: 'stockLock', message: `no bar with ${describeProfile(part)} among the locked stock ids ${part.stockLock.join(', ')}` };
    }
    return { category: 'stock', field: 'w', message: `no bar with ${describeProfile(part)}` };
  }
  const withStock = profile.filter((s) => stock[s].q === undefined || stock[s].q! > 0);
  if (withStock.length === 0) return { category: 'stock', field: 'q', message: `every matching bar has quantity 0` };
  if (withStock.some((s) => part.l <= usableLength(stock[s]) + TOL * part.l)) return undefined;
  const lengths = [...new Set(withStock.map((s) => usableLength(stock[s])))].join(', ');
  return { category: 'part', field: 'l', message: `${part.l} is longer than the usable length of every matching bar (${lengths}, trims deducted)` };
}

export function toLinearProblem(request: CalcRequest, budgetMs: number, searchMs = 0): MappedLinear {
  const blocked: (PartIssue | undefined)[] = [];
  const parts = request.parts.map((p) => {
    const profile = request.stock.filter((s) => sameProfile(p, s)).map((s) => s.index);
    const reason = blockedReason(p, request.stock, profile);
    blocked.push(reason);
    const fits = profile.filter((s) => p.l <= usableLength(request.stock[s]) + TOL * p.l);
    return { l: p.l, q: reason ? 0 : p.q, stock: reason ? [] : fits };
  });
  const byCost = request.stock.some((s) => s.cost > 0);
  const stock = request.stock.map((s) => ({ usable: Math.max(0, usableLength(s)), q: s.q ?? -1, cost: s.cost }));
  const offcutScale = request.saw.options.offcutPriority ? offcutWeights(request, stock, parts, byCost) : undefined;
  return {
    blocked,
    ...(offcutScale ? { offcutScale } : {}),
    problem: {
      stock,
      parts,
      kerf: request.saw.bladeWidth,
      objective: byCost || offcutScale ? 'cost' : 'count',
      stockSelection: request.saw.options.stockSelection,
      seed: request.saw.options.seed,
      budgetMs,
      ...(searchMs > 0 ? { searchMs } : {}),
    },
  };
}

/**
 * Offcuts first on bars, as one cost the engine minimises (its column generation then proves
 * the order too): each new bar costs its measure (1, or its cost when costs are given) times
 * a scale larger than all the offcut length there is to use, each offcut bar its usable
 * length. So the fewest (cheapest) new bars come first and, among those, the least offcut
 * length. Sets the costs in `stock` and returns the scale, or undefined without offcuts.
 */
function offcutWeights(request: CalcRequest, stock: LinearProblem['stock'], parts: LinearProblem['parts'], byCost: boolean): number | undefined {
  const pieces = parts.reduce((n, p) => n + p.q, 0);
  const offcutRows = request.stock.filter((s) => s.offcut && parts.some((p) => p.q > 0 && p.stock.includes(s.index)));
  if (offcutRows.length === 0) return undefined;
  // At most one bar per piece is ever used, so this is all the offcut length a plan can take.
  const offcutLength = offcutRows.reduce((sum, s) => sum + stock[s.index]!.usable * Math.min(s.q ?? pieces, pieces), 0);
  const costs = request.stock.filter((s) => !s.offcut && s.cost > 0).map((s) => s.cost);
  const step = byCost && costs.length ? Math.min(...costs) : 1;
  const scale = (offcutLength + 1) / step;
  request.stock.forEach((s, i) => {
    stock[i]!.cost = s.offcut ? stock[i]!.usable : (byCost ? s.cost : 1) * scale;
  });
  return scale;
}
