// Numbers as SmartCut clients send them: JSON numbers, numeric strings ("18") and shop
// fractions ("10 1/2", "3/4"). Anything else is a 400 naming the field.
import { z } from 'zod';

const FRACTION = /^([+-]?\d+(?:\.\d+)?)?\s*(?:(\d+)\s*\/\s*(\d+))?$/;

/** Parses a number or a numeric string, or returns undefined when it is neither. */
export function parseNumeric(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const text = value.trim();
  if (text === '') return undefined;
  const plain = Number(text);
  if (Number.isFinite(plain)) return plain;
  const match = FRACTION.exec(text);
  if (!match || (match[1] === undefined && match[2] === undefined)) return undefined;
  const whole = match[1] === undefined ? 0 : Number(match[1]);
  if (match[2] === undefined) return whole;
  const denominator = Number(match[3]);
  if (denominator === 0) return undefined;
  const fraction = Number(match[2]) / denominator;
  return whole < 0 || text.startsWith('-') ? whole - fraction : whole + fraction;
}

const numeric = z
  .union([z.number(), z.string()])
  .transform((value, ctx) => {
    const parsed = parseNumeric(value);
    if (parsed === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected a number, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return parsed;
  });

export const positiveNumber = numeric.pipe(z.number().positive('must be greater than 0'));
export const nonNegativeNumber = numeric.pipe(z.number().nonnegative('must not be negative'));
export const positiveInt = numeric.pipe(z.number().int('must be a whole number').positive('must be at least 1'));
export const nonNegativeInt = numeric.pipe(z.number().int('must be a whole number').nonnegative('must not be negative'));
