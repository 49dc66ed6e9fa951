// The calculation request: the specification, decisions.md section 1 and the SmartCut v3
// field names, legacy spellings included. `calculationRequest` accepts what clients send;
// `normalizeRequest` turns it into the one canonical form the rest of the service uses.
import { z } from 'zod';
import { numeric } from './numbers.js';
import { RANGES, ranged } from './limits.js';
import { CUT_TYPES, STOCK_TYPES, SAW_FIELDS_IN_OPTIONS, ruleIssues, rulesJsonSchema, sawChoice, type CutType, type RequestIssue, type StockType } from './request-rules.js';
import { caseless, direction } from './words.js';
import { band, bandDeduction, normalizeBanding, type Banding } from './banding.js';
import { shapeIssues } from './part-shapes.js';
import { groupIssues } from './group-rules.js';

export type { CutType, RequestIssue, StockType } from './request-rules.js';

export const LIMITS = { partInstances: 20_000, stockRows: 1_000, bodyBytes: 8 * 1024 * 1024 } as const;

// Defaults of fields that transform what they take (numbers as strings, words in any case) are
// given with .prefault(): its value is an input, so the document can show it.
const point = z.object({ x: ranged(RANGES.coordinate), y: ranged(RANGES.coordinate) });
/** http(s), a host, no blanks: the part of the URL check the document can show (with format uri). */
const HTTP_URL = /^[hH][tT][tT][pP][sS]?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/;

/** l1/l2/w1/w2 per edge; legacy x/y side names map y1->l1, y2->l2, x1->w1, x2->w2 (l wins when both are sent). */
export function sides<T extends z.ZodType>(value: T) {
  const legacy = (side: string) => value.optional().describe(`Legacy name of ${side}.`);
  return z
    .object({
      l1: value.optional(), l2: value.optional(), w1: value.optional(), w2: value.optional(),
      y1: legacy('l1'), y2: legacy('l2'), x1: legacy('w1'), x2: legacy('w2'),
    })
    .transform((s) => ({ l1: s.l1 ?? s.y1, l2: s.l2 ?? s.y2, w1: s.w1 ?? s.x1, w2: s.w2 ?? s.x2 }));
}

const trim = sides(numeric(ranged(RANGES.edge)))
  .describe('Trim cut inward from each edge: l1 bottom, l2 top, w1 left, w2 right (linear: l1 the start, l2 the far end).');

const searchTime = numeric(z.number().positive('must be greater than 0').max(3600, 'must be at most 3600 seconds'));

const guillotineOptions = z.object({
  strategy: caseless(['efficiency', 'time']).prefault('efficiency'),
  maxPhase: numeric(z.number().int('must be a whole number').nonnegative('must not be negative').max(10, 'must be at most 10')).prefault(0)
    .describe('Maximum number of cut stages; 0 = unlimited.'),
  headCuts: z.boolean().default(false),
});

const nestingOptions = z.object({
  freeRotation: z.boolean().default(false)
    .describe('kerf addition (cutType nesting): turn parts by any multiple of rotationStep instead of right angles only; grain- or orientation-locked parts still turn by 180 degrees only.'),
  rotationStep: numeric(ranged(RANGES.rotationStep)).prefault(15)
    .describe('kerf addition (cutType nesting): angle step in degrees tried with freeRotation.'),
  mirror: z.boolean().default(false)
    .describe('kerf addition (cutType nesting): parts may also be placed mirrored (flipped over); the result says so in mirrored.'),
  searchTime: searchTime.optional().describe('Legacy place of saw.options.searchTime (which wins when both are sent).'),
}).describe('kerf addition: true-shape nesting settings.');

/** Saw fields that legacy clients may also send under saw.options (see request-rules.ts). */
const sawFields = {
  stockType: caseless(STOCK_TYPES).describe('Default: sheet.'),
  cutType: caseless(CUT_TYPES).describe('Default: guillotine (linear stock: none).'),
  cutPreference: caseless(['l', 'w'], ['length', 'width', 'efficiency', 'beam'])
    .describe('Direction of the first cuts: l = along the length (parallel to x), w = across. Default: l (roll guillotine: w). Legacy words: length, width; efficiency and beam choose that cutType when cutType is absent.'),
  bladeWidth: numeric(ranged(RANGES.gap)).describe('Kerf: the width a cut removes. Default: 0.'),
  stackHeight: numeric(ranged(RANGES.stackHeight)).describe('Sheets a beam saw cuts at once. Default: 100.'),
  guillotineOptions: guillotineOptions,
} satisfies Record<(typeof SAW_FIELDS_IN_OPTIONS)[number], z.ZodType>;

const legacySawFields = Object.fromEntries(SAW_FIELDS_IN_OPTIONS.map((field) =>
  [field, sawFields[field].optional().describe(`Legacy place of saw.${field}; saw.${field} wins when both are sent.`)])) as {
  [K in keyof typeof sawFields]: z.ZodOptional<(typeof sawFields)[K]>
};

const sawOptions = z.object({
  stockSelection: caseless(['efficiency', 'smallest']).prefault('efficiency'),
  minSpacing: numeric(ranged(RANGES.gap)).prefault(0),
  stackingMode: caseless(['dimensions', 'identical', 'none']).prefault('identical'),
  minOffcut: numeric(ranged(RANGES.edge)).optional()
    .describe('kerf addition: smallest leftover (each side, request units) reported as an offcut.'),
  seed: numeric(ranged(RANGES.seed)).prefault(1).describe('kerf addition: seed of the search; the same request and seed give the same layout.'),
  searchTime: searchTime.optional()
    .describe('kerf addition: seconds to search for a better layout, every stock and cut type, up to the job budget (30 s unless the service is configured otherwise); the search still stops early at a proven lower bound, and never before the default would. Absent: the search goes on while it still improves and stops when it stalls (or at the service\'s ceiling, 10 s unless configured otherwise), and the same request and seed give the same layout unless it ended by the clock. metadata.engine.stopReason says which.'),
  offcutPriority: z.boolean().default(true)
    .describe('kerf addition: stock rows with offcut true are filled first: the layout places the most parts, then uses the least new (non-offcut) stock, then the least offcut area. false: offcuts count as any other stock.'),
  leftover: z.boolean().default(false)
    .describe('kerf addition: at equal sheet count, the last sheet of each material (material and thickness) is cut so that its leftover is one rectangle as large as possible (guillotine: a strip the full length of the sheet, across the first cuts); on linear stock, the longest remnant. Not for rolls or nesting.'),
  deductBanding: z.boolean().default(false)
    .describe('kerf addition: cut each part smaller by the thickness of the band on each side (sheet and roll stock, cut types guillotine, beam and efficiency), so that the banded part has the size asked for; the part record then gives that size in finished.'),
  ...legacySawFields,
});

const saw = z.object({
  stockType: sawFields.stockType.optional(),
  cutType: sawFields.cutType.optional(),
  cutPreference: sawFields.cutPreference.optional(),
  bladeWidth: sawFields.bladeWidth.optional(),
  stackHeight: sawFields.stackHeight.optional(),
  guillotineOptions: sawFields.guillotineOptions.optional(),
  nestingOptions: nestingOptions.optional(),
  efficiencyOptions: z.object({ primaryCompression: caseless(['l', 'w']).optional() }).optional(),
  options: sawOptions.optional(),
});

const stockItem = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  l: numeric(ranged(RANGES.stockLength)).optional().describe('Length. Required except for roll stock, where 0 or absent means a roll of unlimited length.'),
  w: numeric(ranged(RANGES.size)).optional().describe('Width. Required except for linear stock (a bar\'s profile width, matched only when the part gives one too).'),
  t: numeric(ranged(RANGES.size)).optional(),
  q: numeric(ranged(RANGES.stockQuantity)).optional().describe('Sheets available; absent = as many as needed.'),
  unlimitedQuantity: z.boolean().optional(),
  name: z.string().optional(),
  material: z.string().optional(),
  cost: numeric(ranged(RANGES.cost)).optional(),
  grain: direction(['y']).optional().describe('Grain direction of the sheet: l or w; "" (or absent) for none. Legacy: "y" also means none.'),
  trim: trim.optional(),
  notes: z.string().optional(),
  code: z.string().optional(),
  customData: z.unknown().optional(),
  offcut: z.boolean().optional()
    .describe('A leftover the shop already owns: filled before new stock (see saw.options.offcutPriority).'),
});

const partItem = z.object({
  l: numeric(ranged(RANGES.size)),
  w: numeric(ranged(RANGES.size)).optional().describe('Width. Required except for linear stock (the profile, matched only when the bar gives one too).'),
  t: numeric(ranged(RANGES.size)).optional(),
  // The limit is a 422 from limitViolation (decisions.md section 1); the document shows it as a maximum.
  q: numeric(z.number().int('must be a whole number').positive('must be at least 1').meta({ maximum: LIMITS.partInstances })).prefault(1),
  name: z.string().optional(),
  material: z.string().optional(),
  notes: z.string().optional(),
  grain: direction().optional().describe('Grain of the part: l along its longer side, w along its shorter side; "" (or absent) for none.'),
  orientationLock: direction().optional().describe('l keeps the part\'s longer side along the stock\'s length, w along its width; "" (or absent) for none.'),
  stockLock: z.array(z.union([z.string(), z.number()])).optional(),
  customData: z.unknown().optional(),
  machining: z.looseObject({}).optional(),
  extras: z.looseObject({
    banding: z.looseObject({
      sides: sides(band).optional().describe('The band on each edge: l1/l2 the sides along the part\'s l, w1/w2 those along its w. Legacy: the sides directly under banding.'),
    }).optional(),
  }).optional(),
  banding: sides(band).optional().describe('Legacy place of extras.banding.sides (x/y side names map as for trims); extras.banding.sides wins side by side.'),
  bandingType: z.string().optional().describe('Legacy: the band type of the sides given as true.'),
  outline: z.array(point).optional(),
  holes: z.array(z.array(point)).optional(),
});

const group = z.object({
  positions: z.array(z.object({
    part: numeric(z.number().int('must be a whole number').nonnegative('must not be negative')).describe('Index of the part row in parts[].'),
    x: numeric(ranged(RANGES.edge)).describe('Offset of the part\'s bottom-left corner in the group, along the part\'s l.'),
    y: numeric(ranged(RANGES.edge)),
  })).min(1, 'a group needs at least one position'),
  q: numeric(z.number().int('must be a whole number').positive('must be at least 1').meta({ maximum: LIMITS.partInstances })).prefault(1).describe('Copies of the group; each takes one instance of each position\'s part from that part\'s q.'),
}).describe('Parts kept together at fixed offsets (matched grain): placed as one rectangle, turned only where every member may turn; cuts then separate them. Sheet stock, cutType guillotine, beam or efficiency.');

export const calculationRequest = z.object({
  saw: saw.optional(),
  // Past the limits the answer is a 422 (limitViolation); the document shows them as maxItems.
  stock: z.array(stockItem).min(1, 'at least one stock item is needed').meta({ maxItems: LIMITS.stockRows }),
  parts: z.array(partItem).min(1, 'at least one part is needed').meta({ maxItems: LIMITS.partInstances }),
  groups: z.array(group).optional(),
  webhook: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).regex(HTTP_URL, 'must be an http or https URL').meta({ format: 'uri' }).optional()
    .describe('Where to deliver the result (see webhooks); an account default applies when absent.'),
})
  // The rules across fields run even when some fields failed, so that one answer names every problem.
  .superRefine((request, ctx) => {
    for (const issue of ruleIssues(request)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  }, { when: () => true })
  .meta({ id: 'CalculationRequest', allOf: rulesJsonSchema() });

export type CalculationInput = z.input<typeof calculationRequest>;
type Parsed = z.output<typeof calculationRequest>;

export interface Trim { l1: number; l2: number; w1: number; w2: number }

export interface CalcStock {
  index: number;
  id: string;
  /** A roll of unlimited length gets a length every part fits in, end to end. */
  l: number;
  /** 0: a bar without profile (linear). */
  w: number;
  t?: number;
  /** undefined = as many as needed */
  q?: number;
  name: string;
  material: string;
  cost: number;
  grain: '' | 'l' | 'w';
  trim: Trim;
  notes: string;
  customData?: unknown;
  /** A leftover the shop owns (request offcut: true). */
  offcut: boolean;
}

export interface CalcPart {
  index: number;
  l: number;
  /** 0: a linear part without profile. */
  w: number;
  t?: number;
  q: number;
  name: string;
  material: string;
  notes: string;
  grain: '' | 'l' | 'w';
  orientationLock: '' | 'l' | 'w';
  stockLock?: string[];
  customData?: unknown;
  machining?: Record<string, unknown>;
  extras?: Record<string, unknown>;
  /** The band on each side, from every place a client may put it. */
  banding: Banding;
  /** With saw.options.deductBanding: the size asked for; l and w are then the size cut (bands deducted). */
  finished?: { l: number; w: number };
  outline?: { x: number; y: number }[];
  holes?: { x: number; y: number }[][];
}

export interface CalcGroup {
  positions: { part: number; x: number; y: number }[];
  q: number;
}

export interface CalcRequest {
  saw: {
    stockType: StockType;
    cutType: CutType;
    cutPreference: 'l' | 'w';
    bladeWidth: number;
    stackHeight: number;
    guillotineOptions: { strategy: 'efficiency' | 'time'; maxPhase: number; headCuts: boolean };
    nestingOptions?: { freeRotation: boolean; rotationStep: number; mirror: boolean; searchTime?: number };
    options: {
      stockSelection: 'efficiency' | 'smallest'; minSpacing: number; stackingMode: 'dimensions' | 'identical' | 'none'; minOffcut?: number; seed: number;
      searchTime?: number; offcutPriority: boolean; leftover: boolean; deductBanding: boolean;
    };
  };
  stock: CalcStock[];
  parts: CalcPart[];
  /** Matched-grain groups; empty when none. */
  groups: CalcGroup[];
  webhook?: string;
}

/** Canonical form of a parsed request, or the issues that make it invalid. */
export function normalizeRequest(input: Parsed): { request: CalcRequest } | { issues: RequestIssue[] } {
  const s = input.saw ?? {};
  // A legacy client may put saw fields under saw.options; saw wins when both have one.
  const pick = <K extends (typeof SAW_FIELDS_IN_OPTIONS)[number]>(field: K) => s[field] ?? s.options?.[field];
  const choice = sawChoice(s);
  const issues: RequestIssue[] = [];
  const { stockType } = choice;
  const cutType = choice.cutType ?? 'guillotine';
  const preference = choice.cutPreference;
  const cutPreference: 'l' | 'w' = stockType === 'roll' && cutType === 'guillotine' ? 'w' : preference === 'w' || preference === 'width' ? 'w' : 'l';
  const bladeWidth = pick('bladeWidth') ?? 0;

  const stock = input.stock.map((item, index): CalcStock => {
    const t = item.trim;
    const trimmed: Trim = { l1: t?.l1 ?? 0, l2: t?.l2 ?? 0, w1: t?.w1 ?? 0, w2: t?.w2 ?? 0 };
    const l = item.l || (stockType === 'roll' ? unlimitedRoll(input.parts, trimmed, bladeWidth) : 0);
    const w = item.w ?? 0;
    if (stockType === 'linear') {
      // A bar's trims are its two ends: l1 at the start, l2 at the far end of the length.
      if (l && trimmed.l1 + trimmed.l2 >= l) issues.push({ path: ['stock', index, 'trim'], message: `end trims l1 + l2 (${trimmed.l1 + trimmed.l2}) leave nothing of the length ${l}` });
    } else if (l && w) {
      if (trimmed.w1 + trimmed.w2 >= l) issues.push({ path: ['stock', index, 'trim'], message: `trims w1 + w2 (${trimmed.w1 + trimmed.w2}) leave nothing of the length ${l}` });
      if (trimmed.l1 + trimmed.l2 >= w) issues.push({ path: ['stock', index, 'trim'], message: `trims l1 + l2 (${trimmed.l1 + trimmed.l2}) leave nothing of the width ${w}` });
    }
    return {
      index,
      id: item.id === undefined || item.id === '' ? String(index) : String(item.id),
      l,
      w,
      t: item.t,
      q: item.unlimitedQuantity ? undefined : item.q,
      name: item.name ?? '',
      material: item.material ?? '',
      cost: item.cost ?? 0,
      grain: item.grain ?? '',
      trim: trimmed,
      notes: item.notes ?? '',
      customData: item.customData,
      offcut: item.offcut ?? false,
    };
  });

  // Bands are deducted where parts are rectangles cut to size: not from nested shapes, not from bars.
  const deduct = (s.options?.deductBanding ?? false) && stockType !== 'linear' && cutType !== 'nesting';
  const parts = input.parts.map((item, index): CalcPart => {
    const { banding, extras } = normalizeBanding({ extras: item.extras, banding: item.banding, bandingType: item.bandingType });
    const cut = deduct ? bandDeduction(banding) : { l: 0, w: 0 };
    const w = item.w ?? 0;
    const deducted = cut.l > 0 || cut.w > 0;
    if (deducted && (item.l - cut.l <= 0 || w - cut.w <= 0)) {
      issues.push({ path: ['parts', index, 'extras', 'banding', 'sides'], message: `the band thicknesses (${cut.l} off l, ${cut.w} off w) leave nothing of the part ${item.l} x ${w}` });
    }
    return {
      index,
      l: item.l - cut.l,
      w: w - cut.w,
      t: item.t,
      q: item.q,
      name: item.name ?? '',
      material: item.material ?? '',
      notes: item.notes ?? '',
      grain: item.grain ?? '',
      orientationLock: item.orientationLock ?? '',
      stockLock: item.stockLock?.map(String),
      customData: item.customData,
      machining: item.machining,
      extras,
      banding,
      ...(deducted ? { finished: { l: item.l, w } } : {}),
      outline: item.outline,
      holes: item.holes,
    };
  });

  // Shapes matter only when nested; otherwise parts are squared to l x w.
  if (cutType === 'nesting' && !issues.length) issues.push(...shapeIssues(parts));
  const groups: CalcGroup[] = input.groups ?? [];
  if (groups.length && !issues.length) {
    const kerf = cutType === 'efficiency' ? Math.max(bladeWidth, s.options?.minSpacing ?? 0) : bladeWidth;
    issues.push(...groupIssues(groups, parts, { stockType, cutType, kerf, firstCut: cutType === 'beam' || cutPreference === 'l' ? 'x' : 'y' }));
  }

  if (issues.length) return { issues };
  const options = withoutSawFields(s.options ?? sawOptions.parse({}));
  // nestingOptions.searchTime was its first place: an alias now, saw.options wins.
  const searchTime = options.searchTime ?? s.nestingOptions?.searchTime;
  if (searchTime !== undefined) options.searchTime = searchTime;
  return {
    request: {
      saw: {
        stockType,
        cutType,
        cutPreference,
        bladeWidth,
        stackHeight: pick('stackHeight') ?? 100,
        guillotineOptions: pick('guillotineOptions') ?? guillotineOptions.parse({}),
        ...(cutType === 'nesting' ? { nestingOptions: s.nestingOptions ?? nestingOptions.parse({}) } : {}),
        options,
      },
      stock,
      parts,
      groups,
      webhook: input.webhook,
    },
  };
}

/** saw.options less the saw fields a legacy client put there: the canonical saw.options. */
function withoutSawFields<T extends object>(options: T): Omit<T, (typeof SAW_FIELDS_IN_OPTIONS)[number]> {
  const own = { ...options };
  for (const field of SAW_FIELDS_IN_OPTIONS) delete own[field as keyof T];
  return own;
}

/**
 * The length standing in for a roll of unlimited length: every part instance end to end along
 * the roll, each with its longer side and a kerf, plus the end trims. No layout needs more.
 */
function unlimitedRoll(parts: Parsed['parts'], trim: Trim, kerf: number): number {
  return parts.reduce((sum, part) => sum + part.q * (Math.max(part.l, part.w ?? 0) + kerf), trim.w1 + trim.w2 + kerf);
}

/** Counts past the service's limits: a 422 with this message. */
export function limitViolation(input: Parsed): string | undefined {
  const instances = input.parts.reduce((sum, part) => sum + part.q, 0);
  if (instances > LIMITS.partInstances) {
    return `the request asks for ${instances} part instances; the limit is ${LIMITS.partInstances.toLocaleString('en')} per calculation`;
  }
  if (input.stock.length > LIMITS.stockRows) {
    return `the request has ${input.stock.length} stock rows; the limit is ${LIMITS.stockRows.toLocaleString('en')}`;
  }
  return undefined;
}
