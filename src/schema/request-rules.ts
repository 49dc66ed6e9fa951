// Rules across the fields of a calculation request (which cut types a stock type takes, which
// sizes it needs), written once as data. The server checks them on the parsed request, and the
// OpenAPI document carries the same data as JSON Schema, so a validator refuses what the
// server refuses. A saw field counts where the client put it: in `saw`, or for a legacy client
// in `saw.options`; `saw` wins when both have it.
import { wordsPattern } from './words.js';

export const STOCK_TYPES = ['sheet', 'linear', 'roll'] as const;
export const CUT_TYPES = ['guillotine', 'efficiency', 'beam', 'nesting'] as const;
export type StockType = (typeof STOCK_TYPES)[number];
export type CutType = (typeof CUT_TYPES)[number];

/** Saw fields that legacy clients send under saw.options instead of saw. */
export const SAW_FIELDS_IN_OPTIONS = ['stockType', 'cutType', 'cutPreference', 'bladeWidth', 'stackHeight', 'guillotineOptions'] as const;

/** Cut types each stock type takes; linear takes none, but a "guillotine" sent with it is ignored. */
export const CUT_TYPES_FOR: Record<StockType, readonly CutType[]> = {
  sheet: CUT_TYPES,
  roll: ['guillotine', 'efficiency', 'nesting'],
  linear: ['guillotine'],
};

/** The legacy cutPreference words that choose the cut type when cutType is absent. */
const CUT_TYPE_PREFERENCES = ['efficiency', 'beam'] as const;

/** What a saw asks for once defaults and legacy places and words are resolved. */
export interface SawChoice {
  stockType: StockType;
  /** Absent only for linear stock. */
  cutType?: CutType;
  /** As sent, lowercased: l, w or a legacy word. */
  cutPreference?: string;
  /** Where each field was found, for error paths. */
  at: Record<'cutType' | 'cutPreference', (string | number)[]>;
}

type SawFields = Partial<Record<'stockType' | 'cutType' | 'cutPreference', unknown>>;

/** What the saw asks for; its fields may still be raw (rules also run on a request with other issues). */
export function sawChoice(saw: SawFields & { options?: SawFields } = {}): SawChoice {
  const place = (field: keyof SawFields) => (saw[field] !== undefined
    ? { value: saw[field], at: ['saw', field] }
    : { value: saw.options?.[field], at: saw.options?.[field] !== undefined ? ['saw', 'options', field] : ['saw', field] });
  const stockType = (place('stockType').value ?? 'sheet') as StockType;
  const cut = place('cutType');
  const preference = place('cutPreference');
  const legacyCut = CUT_TYPE_PREFERENCES.find((word) => word === preference.value);
  const cutType = (cut.value ?? legacyCut ?? (stockType === 'linear' ? undefined : 'guillotine')) as CutType | undefined;
  return {
    stockType, cutType, cutPreference: preference.value as string | undefined,
    at: { cutType: cut.value !== undefined ? cut.at : preference.at, cutPreference: preference.at },
  };
}

interface SawRule {
  when: { stockType?: StockType[]; cutType: CutType[]; cutPreference?: string[] };
  field: 'cutType' | 'cutPreference';
  message: (saw: SawChoice) => string;
  /** The rule in the OpenAPI document. */
  summary: string;
}

const SAW_RULES: SawRule[] = [
  ...(['linear', 'roll'] as const).map((stockType): SawRule => ({
    when: { stockType: [stockType], cutType: CUT_TYPES.filter((c) => !CUT_TYPES_FOR[stockType].includes(c)) },
    field: 'cutType',
    message: (saw) => (stockType === 'linear'
      ? `linear stock takes no cutType (got "${saw.cutType}")`
      : `cutType "${saw.cutType}" is not available for ${stockType} stock; use ${CUT_TYPES_FOR[stockType].join(' or ')}`),
    summary: `${stockType === 'linear' ? 'Linear' : 'Roll'} stock takes cutType ${CUT_TYPES_FOR[stockType].join(' or ')} only${stockType === 'linear' ? ' (ignored), or none' : ''}; a legacy cutPreference efficiency or beam counts as that cutType when cutType is absent`,
  })),
  {
    when: { stockType: ['roll'], cutType: ['guillotine'], cutPreference: ['l', 'length'] },
    field: 'cutPreference',
    message: () => 'roll guillotine cuts across the roll first: cutPreference must be w',
    summary: 'Roll stock with cutType guillotine (the default) takes cutPreference w only',
  },
  {
    when: { cutType: ['beam'], cutPreference: ['w', 'width'] },
    field: 'cutPreference',
    message: () => 'beam saws cut along the length first: cutPreference must be l',
    summary: 'With cutType beam, cutPreference is l only',
  },
];

/** Sizes a stock type needs beyond those every request needs (part l). */
const SIZES: { list: 'stock' | 'parts'; field: 'l' | 'w'; unless: StockType }[] = [
  { list: 'stock', field: 'l', unless: 'roll' }, // a roll without length (or l 0) is unlimited
  { list: 'stock', field: 'w', unless: 'linear' }, // bars and parts of bars may leave out the profile
  { list: 'parts', field: 'w', unless: 'linear' },
];

/** A problem found beside the field schemas: a field path and a message, like a zod issue. */
export interface RequestIssue {
  path: (string | number)[];
  message: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const rows = (value: unknown) => (Array.isArray(value) ? value : []);

/** The rules broken by a request, parsed as far as it goes (fields that failed are still raw). */
export function ruleIssues(request: unknown): RequestIssue[] {
  if (!isObject(request)) return [];
  const saw = sawChoice(isObject(request.saw) ? { ...request.saw, options: isObject(request.saw.options) ? request.saw.options : undefined } : {});
  const issues: RequestIssue[] = [];
  for (const rule of SAW_RULES) {
    const { stockType, cutType, cutPreference } = rule.when;
    if (stockType && !stockType.includes(saw.stockType)) continue;
    if (!saw.cutType || !cutType.includes(saw.cutType)) continue;
    if (cutPreference && !cutPreference.includes(saw.cutPreference ?? '')) continue;
    issues.push({ path: saw.at[rule.field], message: rule.message(saw) });
  }
  for (const size of SIZES) {
    if (saw.stockType === size.unless) continue;
    rows(request[size.list]).forEach((row, index) => {
      const value = isObject(row) ? row[size.field] : 0;
      if (value === undefined) issues.push({ path: [size.list, index, size.field], message: 'is required' });
      else if (value === 0) issues.push({ path: [size.list, index, size.field], message: 'must be greater than 0' });
    });
  }
  return issues;
}

// ---- The same rules as JSON Schema, for the OpenAPI document ----

type Json = Record<string, unknown>;
const word = (values: readonly string[]) => ({ type: 'string', pattern: wordsPattern(values).source });
const object = (schema: Json) => ({ type: 'object', ...schema });
/** The field is there (properties names it too, as strict validators want). */
const present = (field: string) => object({ required: [field], properties: { [field]: {} } });

/** The request's saw field (in saw, or else in saw.options) is one of `values`. */
function sawHas(field: string, values: readonly string[]): Json {
  return object({
    required: ['saw'],
    properties: {
      saw: object({
        anyOf: [
          object({ required: [field], properties: { [field]: word(values) } }),
          object({ not: present(field), required: ['options'], properties: { options: object({ required: [field], properties: { [field]: word(values) } }) } }),
        ],
      }),
    },
  });
}

/** The request's saw field is in neither place. */
function sawLacks(field: string): Json {
  return object({ properties: { saw: object({ not: present(field), properties: { options: object({ not: present(field) }) } }) } });
}

function stockTypeIs(types: readonly StockType[]): Json {
  return { anyOf: [sawHas('stockType', types), ...(types.includes('sheet') ? [sawLacks('stockType')] : [])] };
}

function cutTypeIs(types: readonly CutType[]): Json {
  const legacy = CUT_TYPE_PREFERENCES.filter((word) => types.includes(word));
  return {
    anyOf: [
      sawHas('cutType', types),
      ...(legacy.length ? [{ allOf: [sawLacks('cutType'), sawHas('cutPreference', legacy)] }] : []),
      ...(types.includes('guillotine')
        ? [{ allOf: [sawLacks('cutType'), { not: sawHas('cutPreference', CUT_TYPE_PREFERENCES) }, { not: stockTypeIs(['linear']) }] }]
        : []),
    ],
  };
}

/** allOf entries for the request schema: one per rule, each with the server's message. */
export function rulesJsonSchema(): Json[] {
  const sawRules = SAW_RULES.map((rule) => ({
    description: `${rule.summary}; otherwise 400.`,
    not: {
      allOf: [
        ...(rule.when.stockType ? [stockTypeIs(rule.when.stockType)] : []),
        cutTypeIs(rule.when.cutType),
        ...(rule.when.cutPreference ? [sawHas('cutPreference', rule.when.cutPreference)] : []),
      ],
    },
  }));
  const sizeRules = SIZES.map((size) => ({
    description: `${size.list}[].${size.field} is required (greater than 0) unless saw.stockType is ${size.unless}.`,
    if: stockTypeIs([size.unless]),
    else: object({ properties: { [size.list]: { type: 'array', items: object({ required: [size.field], properties: { [size.field]: { not: { const: 0 } } } }) } } }),
  }));
  return [...sawRules, ...sizeRules];
}
