// Request -> nesting problem. Material, thickness and stock locks pick the stock rows a part
// may use; grain and orientation locks, free rotation and mirroring pick its turns; the
// clearance is saw.bladeWidth + options.minSpacing between parts and options.minSpacing from
// the usable region's edge (the stock less its trims). Parts no stock can take get the
// reason here; the engine sees only rings, turns and allowed rows.
import type { CalcPart, CalcRequest, CalcStock } from '../../schema/request.js';
import type { NestingProblem, NestingType } from './solve.js';
import { partRings, type Pt } from '../../schema/part-shapes.js';
import type { PartIssue } from '../common/part-issue.js';
import { matchesStock } from '../common/stock-match.js';

/** The effort limit of a service job's search, the stall rule's unit: the same request and seed give the same layout. */
export const SERVICE_EFFORT = 500;

export interface MappedNesting {
  problem: NestingProblem;
  /** Per part row: why no stock can take it (undefined when some may). */
  blocked: (PartIssue | undefined)[];
  /** Per part row: its rings in its own frame (outline first), as sent to the engine. */
  rings: Pt[][][];
  /** Per part row: engine type index, or -1 when blocked. */
  typeOf: number[];
}

/** Usable region of a stock row (trims removed): x along l, y along w. */
export function usableRegion(stock: CalcStock): { x0: number; y0: number; x1: number; y1: number } {
  return { x0: stock.trim.w1, y0: stock.trim.l1, x1: stock.l - stock.trim.w2, y1: stock.w - stock.trim.l2 };
}

/**
 * Turns in degrees. A part locked by grain (against a grained stock) or by orientationLock
 * keeps its l side along x (0, 180) or along y (90, 270); otherwise right angles, or every
 * multiple of the rotation step with free rotation.
 */
export function anglesFor(part: CalcPart, stock: CalcStock[], options: { freeRotation: boolean; rotationStep: number }): number[] {
  let along: 'x' | 'y' | undefined;
  if (part.orientationLock && part.l !== part.w) {
    along = (part.l > part.w) === (part.orientationLock === 'l') ? 'x' : 'y';
  } else if (part.grain && part.l !== part.w) {
    const grained = stock.find((s) => s.grain);
    if (grained) {
      const grainOnL = (part.grain === 'l') === (part.l >= part.w);
      along = grainOnL === (grained.grain === 'l') ? 'x' : 'y';
    }
  }
  if (along === 'x') return [0, 180];
  if (along === 'y') return [90, 270];
  if (!options.freeRotation) return [0, 90, 180, 270];
  const angles: number[] = [];
  for (let k = 0; k * options.rotationStep < 360 - 1e-9; k++) angles.push(Math.round(k * options.rotationStep * 1e9) / 1e9);
  return angles;
}

function fitsEmpty(rings: Pt[][], angles: number[], mirror: boolean, region: { x0: number; y0: number; x1: number; y1: number }, edge: number): boolean {
  const width = region.y1 - region.y0 - 2 * edge;
  const length = region.x1 - region.x0 - 2 * edge;
  for (const angle of angles) {
    const a = (angle * Math.PI) / 180;
    const c = Math.cos(a), s = Math.sin(a);
    for (const m of mirror ? [1, -1] : [1]) {
      const xs = rings[0].map((p) => c * m * p.x - s * p.y);
      const ys = rings[0].map((p) => s * m * p.x + c * p.y);
      const dx = Math.max(...xs) - Math.min(...xs), dy = Math.max(...ys) - Math.min(...ys);
      // A hair of tolerance: the engine's own check decides exactly.
      if (dy <= width * (1 + 1e-9) && dx <= length * (1 + 1e-9)) return true;
    }
  }
  return false;
}

export function toNestingProblem(request: CalcRequest, budgetMs: number, effort = SERVICE_EFFORT): MappedNesting {
  const { saw } = request;
  const roll = saw.stockType === 'roll';
  const nesting = saw.nestingOptions ?? { freeRotation: false, rotationStep: 15, mirror: false };
  const gap = saw.bladeWidth + saw.options.minSpacing;
  const edge = saw.options.minSpacing;
  const blocked: (PartIssue | undefined)[] = [];
  const rings: Pt[][][] = [];
  const typeOf: number[] = [];
  const types: NestingType[] = [];
  for (const part of request.parts) {
    const own = partRings(part);
    rings.push(own);
    const matching = request.stock.filter((s) => matchesStock(part, s) && (s.q === undefined || s.q > 0));
    const angles = anglesFor(part, matching, nesting);
    const fitting = matching.filter((s) => fitsEmpty(own, angles, nesting.mirror, usableRegion(s), edge));
    let reason: PartIssue | undefined;
    if (matching.length === 0) {
      reason = part.stockLock?.length
        ? { category: 'stock', field: 'stockLock', message: `no stock with material "${part.material}"${part.t !== undefined ? ` and thickness ${part.t}` : ''} among the locked stock ids ${part.stockLock.join(', ')}` }
        : { category: 'stock', field: 'material', message: `no stock with material "${part.material}"${part.t !== undefined ? ` and thickness ${part.t}` : ''}` };
    } else if (fitting.length === 0) {
      reason = { category: 'part', field: 'outline', message: `the part (${part.l} x ${part.w}) is larger than the usable area of every matching stock in the turns allowed, clearance ${edge} from the edge included` };
    }
    blocked.push(reason);
    if (reason) {
      typeOf.push(-1);
      continue;
    }
    typeOf.push(types.length);
    types.push({ q: part.q, angles, mirror: nesting.mirror, stock: fitting.map((s) => s.index), rings: own.map((r) => r.flatMap((p) => [p.x, p.y])) });
  }
  return {
    blocked,
    rings,
    typeOf,
    problem: {
      stock: request.stock.map((s) => {
        const r = usableRegion(s);
        // A roll row is one roll: its l caps the length used.
        return { ...r, q: roll ? 1 : s.q ?? -1, area: s.l * s.w };
      }),
      types,
      gap,
      edge,
      roll,
      seed: saw.options.seed,
      // The default policy's limits: the stall rule past the service's effort, under budgetMs
      // (the ceiling and the job budget). A searchTime goes on after it (runs.ts nestParts).
      budgetMs,
      effort,
      stopRule: 'stall',
    },
  };
}
