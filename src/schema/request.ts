// The calculation request: the specification, decisions.md section 1 and the SmartCut v3
// field names, legacy spellings included. `calculationRequest` accepts what clients send;
// `normalizeRequest` turns it into the one canonical form the rest of the service uses.
import { z } from 'zod';
import { nonNegativeInt, nonNegativeNumber, positiveInt, positiveNumber } from './numbers.js';
import { shapeIssues } from '../engine/nesting-shapes.js';

export const LIMITS = { partInstances: 20_000, stockRows: 1_000, bodyBytes: 8 * 1024 * 1024 } as const;

const lower = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : v);
const side = <const T extends readonly [string, ...string[]]>(values: T) => z.preprocess(lower, z.enum(values));
/** '' | 'l' | 'w'; null and absent mean none. */
const direction = z.preprocess((v) => (v === null ? '' : lower(v)), z.enum(['', 'l', 'w'])).optional();

const point = z.object({ x: z.number(), y: z.number() });

const trim = z
  .object({
    l1: nonNegativeNumber.optional(),
    l2: nonNegativeNumber.optional(),
    w1: nonNegativeNumber.optional(),
    w2: nonNegativeNumber.optional(),
    // Legacy side names: x-sides run along x like l1/l2, y-sides like w1/w2.
    x1: nonNegativeNumber.optional(),
    x2: nonNegativeNumber.optional(),
    y1: nonNegativeNumber.optional(),
    y2: nonNegativeNumber.optional(),
  })
  .describe('Trim cut inward from each edge: l1 bottom, l2 top, w1 left, w2 right (legacy x1/x2/y1/y2 accepted).');

const guillotineOptions = z.object({
  strategy: side(['efficiency', 'time']).default('efficiency'),
  maxPhase: nonNegativeInt.pipe(z.number().max(10, 'must be at most 10')).default(0)
    .describe('Maximum number of cut stages; 0 = unlimited.'),
  headCuts: z.boolean().default(false),
});

const nestingOptions = z.object({
  freeRotation: z.boolean().default(false)
    .describe('kerf addition (cutType nesting): turn parts by any multiple of rotationStep instead of right angles only; grain- or orientation-locked parts still turn by 180 degrees only.'),
  rotationStep: positiveNumber.pipe(z.number().max(90, 'must be at most 90')).default(15)
    .describe('kerf addition (cutType nesting): angle step in degrees tried with freeRotation.'),
  mirror: z.boolean().default(false)
    .describe('kerf addition (cutType nesting): parts may also be placed mirrored (flipped over); the result says so in mirrored.'),
  searchTime: positiveNumber.pipe(z.number().max(3600, 'must be at most 3600 seconds')).optional()
    .describe('kerf addition (cutType nesting): seconds to search for a better layout, up to the job budget (30 s unless the service is configured otherwise). Absent: the search stops after a fixed effort, and the same request and seed give the same layout; with searchTime the layout can differ from run to run.'),
}).describe('kerf addition: true-shape nesting settings.');

const sawOptions = z.object({
  stockSelection: side(['efficiency', 'smallest']).default('efficiency'),
  minSpacing: nonNegativeNumber.default(0),
  stackingMode: side(['dimensions', 'identical', 'none']).default('identical'),
  minOffcut: nonNegativeNumber.optional()
    .describe('kerf addition: smallest leftover (each side, request units) reported as an offcut.'),
  seed: nonNegativeInt.default(1).describe('kerf addition: seed of the search; the same request and seed give the same layout.'),
});

const saw = z.object({
  stockType: side(['sheet', 'linear', 'roll']).default('sheet'),
  cutType: side(['guillotine', 'efficiency', 'beam', 'nesting']).optional(),
  cutPreference: side(['l', 'w', 'length', 'width', 'efficiency', 'beam']).optional()
    .describe('Direction of the first cuts: l = along the length (parallel to x), w = across. Legacy: length, width, efficiency, beam.'),
  bladeWidth: nonNegativeNumber.default(0).describe('Kerf: the width a cut removes.'),
  stackHeight: positiveInt.default(100),
  guillotineOptions: guillotineOptions.optional(),
  nestingOptions: nestingOptions.optional(),
  efficiencyOptions: z.object({ primaryCompression: side(['l', 'w']).optional() }).optional(),
  options: sawOptions.optional(),
});

const stockItem = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  l: positiveNumber,
  w: positiveNumber,
  t: positiveNumber.optional(),
  q: nonNegativeInt.optional().describe('Sheets available; absent = as many as needed.'),
  unlimitedQuantity: z.boolean().optional(),
  name: z.string().optional(),
  material: z.string().optional(),
  cost: nonNegativeNumber.optional(),
  grain: direction,
  trim: trim.optional(),
  notes: z.string().optional(),
  code: z.string().optional(),
  customData: z.unknown().optional(),
  offcut: z.boolean().optional(),
});

const partItem = z.object({
  l: positiveNumber,
  w: positiveNumber,
  t: positiveNumber.optional(),
  q: positiveInt.default(1),
  name: z.string().optional(),
  material: z.string().optional(),
  notes: z.string().optional(),
  grain: direction,
  orientationLock: direction,
  stockLock: z.array(z.union([z.string(), z.number()])).optional(),
  customData: z.unknown().optional(),
  machining: z.looseObject({}).optional(),
  extras: z.looseObject({}).optional(),
  outline: z.array(point).optional(),
  holes: z.array(z.array(point)).optional(),
});

export const calculationRequest = z.object({
  saw: saw.prefault({}),
  stock: z.array(stockItem).min(1, 'at least one stock item is needed'),
  parts: z.array(partItem).min(1, 'at least one part is needed'),
  webhook: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
});

export type CalculationInput = z.input<typeof calculationRequest>;
type Parsed = z.output<typeof calculationRequest>;

export type StockType = 'sheet' | 'linear' | 'roll';
export type CutType = 'guillotine' | 'efficiency' | 'beam' | 'nesting';

export interface Trim { l1: number; l2: number; w1: number; w2: number }

export interface CalcStock {
  index: number;
  id: string;
  l: number;
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
}

export interface CalcPart {
  index: number;
  l: number;
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
  outline?: { x: number; y: number }[];
  holes?: { x: number; y: number }[][];
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
    options: { stockSelection: 'efficiency' | 'smallest'; minSpacing: number; stackingMode: string; minOffcut?: number; seed: number };
  };
  stock: CalcStock[];
  parts: CalcPart[];
  webhook?: string;
}

/** A problem found after the schema passed: a field path and a message, like a zod issue. */
export interface RequestIssue {
  path: (string | number)[];
  message: string;
}

const CUT_TYPES: Record<StockType, CutType[]> = {
  sheet: ['guillotine', 'efficiency', 'beam', 'nesting'],
  roll: ['guillotine', 'efficiency', 'nesting'],
  linear: [],
};

/** Canonical form of a parsed request, or the issues that make it invalid. */
export function normalizeRequest(input: Parsed): { request: CalcRequest } | { issues: RequestIssue[] } {
  const issues: RequestIssue[] = [];
  const s = input.saw;
  const legacy = s.cutPreference;
  let cutType: CutType | undefined = s.cutType;
  if (!cutType && (legacy === 'efficiency' || legacy === 'beam')) cutType = legacy;
  if (!cutType && s.stockType !== 'linear') cutType = 'guillotine';
  if (s.stockType === 'linear' && cutType && cutType !== 'guillotine') {
    issues.push({ path: ['saw', 'cutType'], message: `linear stock takes no cutType (got "${cutType}")` });
  } else if (cutType && s.stockType !== 'linear' && !CUT_TYPES[s.stockType].includes(cutType)) {
    issues.push({ path: ['saw', 'cutType'], message: `cutType "${cutType}" is not available for ${s.stockType} stock; use ${CUT_TYPES[s.stockType].join(' or ')}` });
  }
  let cutPreference: 'l' | 'w' = legacy === 'w' || legacy === 'width' ? 'w' : 'l';
  if (s.stockType === 'roll' && cutType === 'guillotine') {
    if (legacy === 'l' || legacy === 'length') issues.push({ path: ['saw', 'cutPreference'], message: 'roll guillotine cuts across the roll first: cutPreference must be w' });
    cutPreference = 'w';
  }
  if (cutType === 'beam' && (legacy === 'w' || legacy === 'width')) {
    issues.push({ path: ['saw', 'cutPreference'], message: 'beam saws cut along the length first: cutPreference must be l' });
  }

  const stock = input.stock.map((item, index): CalcStock => {
    const t = item.trim ?? {};
    const trimmed: Trim = { l1: t.l1 ?? t.x1 ?? 0, l2: t.l2 ?? t.x2 ?? 0, w1: t.w1 ?? t.y1 ?? 0, w2: t.w2 ?? t.y2 ?? 0 };
    if (s.stockType === 'linear') {
      // A bar's trims are its two ends: l1 at the start, l2 at the far end of the length.
      if (trimmed.l1 + trimmed.l2 >= item.l) issues.push({ path: ['stock', index, 'trim'], message: `end trims l1 + l2 (${trimmed.l1 + trimmed.l2}) leave nothing of the length ${item.l}` });
    } else {
      if (trimmed.w1 + trimmed.w2 >= item.l) issues.push({ path: ['stock', index, 'trim'], message: `trims w1 + w2 (${trimmed.w1 + trimmed.w2}) leave nothing of the length ${item.l}` });
      if (trimmed.l1 + trimmed.l2 >= item.w) issues.push({ path: ['stock', index, 'trim'], message: `trims l1 + l2 (${trimmed.l1 + trimmed.l2}) leave nothing of the width ${item.w}` });
    }
    return {
      index,
      id: item.id === undefined || item.id === '' ? String(index) : String(item.id),
      l: item.l,
      w: item.w,
      t: item.t,
      q: item.unlimitedQuantity ? undefined : item.q,
      name: item.name ?? '',
      material: item.material ?? '',
      cost: item.cost ?? 0,
      grain: item.grain ?? '',
      trim: trimmed,
      notes: item.notes ?? '',
      customData: item.customData,
    };
  });

  const parts = input.parts.map((item, index): CalcPart => ({
    index,
    l: item.l,
    w: item.w,
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
    extras: item.extras,
    outline: item.outline,
    holes: item.holes,
  }));

  // Shapes matter only when nested; otherwise parts are squared to l x w.
  if (cutType === 'nesting') issues.push(...shapeIssues(input.parts));

  if (issues.length) return { issues };
  const g = s.guillotineOptions ?? guillotineOptions.parse({});
  const o = s.options ?? sawOptions.parse({});
  return {
    request: {
      saw: {
        stockType: s.stockType,
        cutType: cutType ?? 'guillotine',
        cutPreference,
        bladeWidth: s.bladeWidth,
        stackHeight: s.stackHeight,
        guillotineOptions: g,
        ...(cutType === 'nesting' ? { nestingOptions: s.nestingOptions ?? nestingOptions.parse({}) } : {}),
        options: o,
      },
      stock,
      parts,
      webhook: input.webhook,
    },
  };
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
