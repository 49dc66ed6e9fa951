// Numbers as SmartCut clients send them: JSON numbers, numeric strings ("18"), shop fractions
// ("10 1/2", "3/4") and vulgar-fraction glyphs ("10½"). The string grammar is one regular
// expression, used both to validate and as the OpenAPI pattern, so the document and the server
// agree on which strings are numbers; the number's limits are then checked on its value.
import { z } from 'zod';

const GLYPHS: Record<string, number> = {
  '½': 1 / 2, '⅓': 1 / 3, '⅔': 2 / 3, '¼': 1 / 4, '¾': 3 / 4, '⅕': 1 / 5, '⅖': 2 / 5, '⅗': 3 / 5, '⅘': 4 / 5,
  '⅙': 1 / 6, '⅚': 5 / 6, '⅐': 1 / 7, '⅛': 1 / 8, '⅜': 3 / 8, '⅝': 5 / 8, '⅞': 7 / 8, '⅑': 1 / 9, '⅒': 1 / 10,
};

// At most 15 digits in each part: every such string is a finite double, no overflow to Infinity.
const D = '\\d{1,15}';
const DECIMAL = `${D}(?:\\.\\d{0,15})?|\\.${D}`;
const FRACTION = `(?:${D}\\s+)?${D}\\s*/\\s*0*[1-9]\\d{0,14}`;
const GLYPH = `(?:${D}\\s*)?[${Object.keys(GLYPHS).join('')}]`;

/** Decimal, fraction or glyph; no sign (every numeric field of a request is 0 or more). */
export const DECIMAL_STRING = new RegExp(`^\\s*(?:${DECIMAL}|${FRACTION}|${GLYPH})\\s*$`);
/** Whole numbers ("4", "4.0"). */
export const INTEGER_STRING = new RegExp(`^\\s*${D}(?:\\.0{0,15})?\\s*$`);

/** The value of a string that matches DECIMAL_STRING or INTEGER_STRING. */
export function parseNumeric(value: string): number {
  const text = value.trim();
  const glyph = text.at(-1)!;
  if (glyph in GLYPHS) return Number(text.slice(0, -1).trim() || 0) + GLYPHS[glyph]!;
  const slash = text.indexOf('/');
  if (slash < 0) return Number(text);
  const [whole, numerator] = /\s/.test(text.slice(0, slash).trim()) ? text.slice(0, slash).trim().split(/\s+/) : ['0', text.slice(0, slash)];
  return Number(whole) + Number(numerator) / Number(text.slice(slash + 1));
}

/**
 * A number field that also takes the number as a string. `check` carries the limits: they are
 * enforced on the value either way and appear on the number form in the OpenAPI document.
 */
export function numeric(check: z.ZodNumber) {
  const whole = check.isInt;
  const grammar = whole ? INTEGER_STRING : DECIMAL_STRING;
  const text = z.string()
    .regex(grammar, { error: (issue) => stringError(String(issue.input), grammar, check) })
    .describe(whole
      ? 'Legacy: the whole number as a string ("4"); the limits of the number form apply to its value.'
      : 'Legacy: the number as a string: decimal ("18", "2.5"), shop fraction ("10 1/2", "3/4") or fraction glyph ("10½"); the limits of the number form apply to its value.');
  return z.union([check, text], { error: 'expected a number' }).transform((value, ctx) => {
    if (typeof value === 'number') return value;
    const checked = check.safeParse(parseNumeric(value));
    if (checked.success) return checked.data;
    for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, input: value });
    return z.NEVER;
  });
}

/** "-1" breaks the number's limit, as -1 does: say which, not that it is no number. */
function stringError(input: string, grammar: RegExp, check: z.ZodNumber): string {
  const negative = /^\s*-(.*)$/s.exec(input);
  if (negative && grammar.test(negative[1]!)) {
    const checked = check.safeParse(-parseNumeric(negative[1]!));
    if (!checked.success) return checked.error.issues[0]!.message;
  }
  return `expected a number, got ${JSON.stringify(input)}`;
}

export const positiveNumber = numeric(z.number().positive('must be greater than 0'));
export const nonNegativeNumber = numeric(z.number().nonnegative('must not be negative'));
export const positiveInt = numeric(z.number().int('must be a whole number').positive('must be at least 1'));
export const nonNegativeInt = numeric(z.number().int('must be a whole number').nonnegative('must not be negative'));
