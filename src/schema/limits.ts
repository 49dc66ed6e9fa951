// The range of every number a calculation request carries, in one table: the request schema
// builds its number fields from it (so the OpenAPI document shows the same minimum and
// maximum), and docs/operations.md explains it. Outside a range the request is refused at
// submit with a 400 naming the field.
//
// Why these bounds: the engines compute in f64 with absolute tolerances of about 1e-9 and
// count some quantities in i32. Sizes up to 1e6 (1 km in mm; units are the client's) keep
// every coordinate of a layout, a roll's length included, far inside the range where those
// tolerances hold, and a smallest size of 0.001 keeps the largest-to-smallest ratio at 1e9.
import { z } from 'zod';

export interface NumberRange {
  /** Smallest value; exclusive when `above` is set (the value must be greater). */
  min: number;
  above?: boolean;
  max: number;
  int?: boolean;
  /** What the number is, for the docs table. */
  what: string;
}

export const RANGES = {
  size: { min: 0.001, max: 1_000_000, what: 'part l, w, t; stock w, t' },
  stockLength: { min: 0, max: 1_000_000, what: 'stock l (0 or absent: a roll of unlimited length)' },
  gap: { min: 0, max: 1_000, what: 'saw.bladeWidth, saw.options.minSpacing' },
  edge: { min: 0, max: 1_000_000, what: 'stock trim l1, l2, w1, w2; saw.options.minOffcut' },
  coordinate: { min: -1_000_000, max: 1_000_000, what: 'outline and hole point x, y' },
  cost: { min: 0, max: 1e12, what: 'stock cost' },
  stockQuantity: { min: 0, max: 1_000_000, int: true, what: 'stock q' },
  stackHeight: { min: 1, max: 10_000, int: true, what: 'saw.stackHeight' },
  seed: { min: 0, max: 2_147_483_647, int: true, what: 'saw.options.seed' },
  rotationStep: { min: 0.1, max: 90, what: 'saw.nestingOptions.rotationStep (degrees)' },
} as const satisfies Record<string, NumberRange>;

/** The zod number of a range, with messages naming the bound. */
export function ranged(range: NumberRange): z.ZodNumber {
  let check = z.number();
  if (range.int) check = check.int('must be a whole number');
  check = range.above ? check.gt(range.min, `must be greater than ${range.min}`) : check.min(range.min, range.min === 0 ? 'must not be negative' : `must be at least ${fmt(range.min)}`);
  return check.max(range.max, `must be at most ${fmt(range.max)}`);
}

const fmt = (n: number) => n.toLocaleString('en', { maximumFractionDigits: 10 });
