// Which stock rows a part may be cut from: the same material (case and spaces aside), the same
// thickness where both give one, and the part's stock lock. One rule for every solver.
import type { CalcPart, CalcStock } from '../../schema/request.js';

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const sameNumber = (a: number, b: number) => Math.abs(a - b) <= 1e-9;

/** True when `stock` may take `part`; `near` compares thicknesses (bars use a relative tolerance). */
export function matchesStock(part: CalcPart, stock: CalcStock, near: (a: number, b: number) => boolean = sameNumber): boolean {
  if (!sameText(part.material, stock.material)) return false;
  if (part.t !== undefined && stock.t !== undefined && !near(part.t, stock.t)) return false;
  return !(part.stockLock && part.stockLock.length > 0 && !part.stockLock.includes(stock.id));
}
