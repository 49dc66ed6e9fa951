// Request -> engine problem. The request's rules (material and thickness matching, stock
// locks, grain and orientation locks) are resolved here into indices and masks, so the
// engine sees only geometry; parts no stock can take are explained here, with a reason.
import type { CalcPart, CalcRequest, CalcStock } from '../../schema/request.js';
import type { EnginePart, EngineStock, GuillotineProblem } from './types.js';
import type { PartIssue } from '../common/part-issue.js';
import { matchesStock } from '../common/stock-match.js';

const ROT0 = 1;
const ROT1 = 2;
const BOTH = ROT0 | ROT1;

export interface MappedProblem {
  problem: GuillotineProblem;
  /** Per part row: why it can go on no stock at all (undefined when some stock may take it). */
  blocked: (PartIssue | undefined)[];
}

/** Orientations allowed by the orientation lock alone: the longer side along x ('l') or y ('w'). */
function lockMask(part: CalcPart): number {
  // Which side is the longer is a property of the finished part (bands deducted or not).
  const { l, w } = part.finished ?? part;
  if (!part.orientationLock || l === w) return BOTH;
  const longIsL = l > w;
  const longAlongX = part.orientationLock === 'l';
  return longIsL === longAlongX ? ROT0 : ROT1;
}

/** Orientations that make the part's grain agree with stock grain along x (1) or y (2). */
function grainMask(part: CalcPart, stockGrain: 0 | 1 | 2): number {
  const { l, w } = part.finished ?? part;
  if (!part.grain || stockGrain === 0 || l === w) return BOTH;
  // Which of the part's own sides (l or w) carries its grain: 'l' grain runs along the longer side.
  const grainOnL = (part.grain === 'l') === (l >= w);
  // At rot 0 the part's l side lies along x.
  const grainAlongXAtRot0 = grainOnL;
  return grainAlongXAtRot0 === (stockGrain === 1) ? ROT0 : ROT1;
}

function stockGrain(stock: CalcStock): 0 | 1 | 2 {
  return stock.grain === 'l' ? 1 : stock.grain === 'w' ? 2 : 0;
}

function fits(part: CalcPart, stock: CalcStock, mask: number): boolean {
  const usableL = stock.l - stock.trim.w1 - stock.trim.w2;
  const usableW = stock.w - stock.trim.l1 - stock.trim.l2;
  return ((mask & ROT0) !== 0 && part.l <= usableL && part.w <= usableW)
    || ((mask & ROT1) !== 0 && part.w <= usableL && part.l <= usableW);
}

function describeMaterial(part: CalcPart): string {
  const material = part.material ? `material "${part.material}"` : 'no material';
  return part.t === undefined ? material : `${material}, thickness ${part.t}`;
}

function blockedReason(part: CalcPart, stock: CalcStock[], rotMask: [number, number, number], allowed: number[]): PartIssue | undefined {
  if (allowed.length === 0) {
    if (part.stockLock?.length) {
      return { category: 'stock', field: 'stockLock', message: `no stock with ${describeMaterial(part)} among the locked stock ids ${part.stockLock.join(', ')}` };
    }
    return { category: 'stock', field: 'material', message: `no stock with ${describeMaterial(part)}` };
  }
  if (allowed.some((s) => fits(part, stock[s], rotMask[stockGrain(stock[s])]))) return undefined;
  const locked = part.orientationLock || part.grain;
  const sizes = allowed.map((s) => `${stock[s].l} x ${stock[s].w}`).filter((v, i, a) => a.indexOf(v) === i).join(', ');
  return {
    category: 'part',
    field: 'l',
    message: locked
      ? `${part.l} x ${part.w} does not fit the usable area of any matching stock (${sizes}) in the orientation its grain or orientation lock allows`
      : `${part.l} x ${part.w} is larger than the usable area of every matching stock (${sizes})`,
  };
}

export function toGuillotineProblem(request: CalcRequest, budgetMs: number): MappedProblem {
  const stock: EngineStock[] = request.stock.map((s) => ({
    l: s.l,
    w: s.w,
    q: s.q ?? -1,
    cost: s.cost,
    trim: { ...s.trim },
    grain: stockGrain(s),
    ...(s.offcut && request.saw.options.offcutPriority ? { offcut: true } : {}),
    // A roll: fixed width, open length (its l caps the length taken).
    ...(request.saw.stockType === 'roll' ? { open: true } : {}),
  }));
  const blocked: (PartIssue | undefined)[] = [];
  const parts: EnginePart[] = request.parts.map((p) => {
    const lock = lockMask(p);
    const rotMask: [number, number, number] = [lock & grainMask(p, 0), lock & grainMask(p, 1), lock & grainMask(p, 2)];
    const allowed = request.stock.filter((s) => matchesStock(p, s)).map((s) => s.index);
    const reason = blockedReason(p, request.stock, rotMask, allowed);
    blocked.push(reason);
    return { l: p.l, w: p.w, q: reason ? 0 : p.q, rotMask, stock: reason ? [] : allowed };
  });
  const saw = request.saw;
  // Free packing for CNC routers has no blade between parts but the tool and the spacing.
  const kerf = saw.cutType === 'efficiency' ? Math.max(saw.bladeWidth, saw.options.minSpacing) : saw.bladeWidth;
  return {
    blocked,
    problem: {
      stock,
      parts,
      kerf,
      // Beam saws rip along the length first and cut identical sheets together as books.
      firstCut: saw.cutType === 'beam' || saw.cutPreference === 'l' ? 'x' : 'y',
      ...(saw.cutType === 'beam' ? { repeatPatterns: true } : {}),
      // CNC routers place parts freely (see the free packer, engine-as/free).
      ...(saw.cutType === 'efficiency' ? { placement: 'free' as const } : {}),
      maxPhase: saw.cutType === 'efficiency' ? 0 : saw.guillotineOptions.maxPhase,
      headCuts: saw.guillotineOptions.headCuts,
      stockSelection: saw.options.stockSelection,
      strategy: saw.guillotineOptions.strategy,
      seed: saw.options.seed,
      budgetMs,
    },
  };
}
