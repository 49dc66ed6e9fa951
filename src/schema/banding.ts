// Edge banding as clients send it, and its one canonical form. A part's band sides come from
// `extras.banding.sides` (SmartCut), or from the legacy places: the sides directly under
// `extras.banding`, or `banding` on the part itself, with x/y side names (y1 -> l1, x1 -> w1,
// as for trims) and `bandingType` naming the type of the sides given as `true`.
import { z } from 'zod';
import { nonNegativeNumber } from './numbers.js';

export type Side = 'l1' | 'l2' | 'w1' | 'w2';
export const SIDES: Side[] = ['l1', 'l2', 'w1', 'w2'];
const LEGACY_SIDE: Record<Side, string> = { l1: 'y1', l2: 'y2', w1: 'x1', w2: 'x2' };

/** One banded edge: its type ('' when not named) and thickness (0 when not given). */
export interface Band { type: string; thickness: number }
export type Banding = Record<Side, Band | null>;

export const band = z.union([
  z.boolean(),
  z.string(),
  z.number(),
  z.null(),
  z.looseObject({
    type: z.string().optional(),
    thickness: nonNegativeNumber.optional().describe('Band thickness; with saw.options.deductBanding the part is cut this much smaller on this side.'),
  }),
]).describe('true (banded), a band type ("ABS 2"), or { type, thickness }; false, null or "" for none.').meta({ id: 'Band' });

type BandInput = z.output<typeof band> | undefined;

function readBand(value: unknown, defaultType: string): Band | null {
  if (value === true) return { type: defaultType, thickness: 0 };
  if (typeof value === 'string') return value.trim() ? { type: value.trim(), thickness: 0 } : null;
  if (typeof value === 'number') return value > 0 ? { type: String(value), thickness: 0 } : null;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as { type?: unknown; thickness?: unknown };
    const thickness = Number(o.thickness);
    return {
      type: typeof o.type === 'string' && o.type.trim() ? o.type.trim() : defaultType,
      thickness: Number.isFinite(thickness) && thickness > 0 ? thickness : 0,
    };
  }
  return null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The sides of a loose banding object, l/w names first, then the legacy x/y names. */
function sidesOf(value: unknown): Partial<Record<Side, unknown>> {
  if (!isObject(value)) return {};
  const out: Partial<Record<Side, unknown>> = {};
  for (const side of SIDES) {
    const v = value[side] ?? value[LEGACY_SIDE[side]];
    if (v !== undefined) out[side] = v;
  }
  return out;
}

export interface BandingSources {
  extras?: Record<string, unknown>;
  /** Legacy part-level `banding` (sides already mapped to l/w names by the schema). */
  banding?: Partial<Record<Side, BandInput>>;
  bandingType?: string;
}

/**
 * The part's bands per side, and its extras with the banding echoed in the SmartCut place
 * (`extras.banding.sides`, l/w names; a `true` side given a `bandingType` shows that type), so
 * every reader of the record (the exports too) sees one form. `extras.banding.sides` wins over
 * the legacy places side by side.
 */
export function normalizeBanding(source: BandingSources): { banding: Banding; extras?: Record<string, unknown> } {
  const extras = source.extras;
  const given = isObject(extras?.banding) ? extras.banding : undefined;
  const defaultType = (source.bandingType ?? (typeof given?.bandingType === 'string' ? given.bandingType : '')).trim();
  const merged: Partial<Record<Side, unknown>> = { ...sidesOf(source.banding), ...sidesOf(given), ...sidesOf(given?.sides) };
  const banding = {} as Banding;
  const echo: Record<string, unknown> = {};
  for (const side of SIDES) {
    const b = readBand(merged[side], defaultType);
    banding[side] = b;
    if (merged[side] !== undefined) echo[side] = merged[side] === true && defaultType ? defaultType : merged[side];
  }
  if (!given && !source.banding) return { banding, extras };
  const rest = Object.fromEntries(Object.entries(given ?? {}).filter(([k]) => k !== 'sides' && k !== 'bandingType'
    && !SIDES.includes(k as Side) && !Object.values(LEGACY_SIDE).includes(k)));
  return { banding, extras: { ...extras, banding: { ...rest, sides: echo } } };
}

/** Length of the part's banded edges: l1/l2 run along its l, w1/w2 along its w. */
export function bandedLength(banding: Banding, l: number, w: number): { total: number; byType: Map<string, number> } {
  let total = 0;
  const byType = new Map<string, number>();
  for (const side of SIDES) {
    const b = banding[side];
    if (!b) continue;
    const length = side[0] === 'l' ? l : w;
    total += length;
    const key = b.type || UNNAMED_TYPE;
    byType.set(key, (byType.get(key) ?? 0) + length);
  }
  return { total, byType };
}

/** bandingLengthByType key of bands given as plain `true` with no bandingType. */
export const UNNAMED_TYPE = 'default';

/** How much smaller the part is cut with deductBanding: l less the w1/w2 bands, w less the l1/l2 bands. */
export function bandDeduction(banding: Banding): { l: number; w: number } {
  const t = (side: Side) => banding[side]?.thickness ?? 0;
  return { l: t('w1') + t('w2'), w: t('l1') + t('l2') };
}
