// The result record (SmartCut v3 ResultResponse) and the error bodies. The OpenAPI document
// is generated from these, and the builder in src/result is typed by them.
import { z } from 'zod';
import { CUT_TYPES, STOCK_TYPES } from './request-rules.js';

const ref = z.object({ id: z.string() });
const trim = z.object({ l1: z.number(), l2: z.number(), w1: z.number(), w2: z.number() });

export const stockAnalysis = z.object({
  areaEfficiency: z.number().describe('Part area over sheet area, 0..1.'),
  partArea: z.number(),
  totalParts: z.number().int().describe('Parts on one sheet of this entry.'),
  numberOfCuts: z.number().int().describe('Cuts on one sheet, trims included.'),
  cutLength: z.number(),
  stackedNumberOfCuts: z.number().int().describe('Cuts for all sheets of the entry: per book of `saw.stackHeight` sheets on a beam saw, else per sheet.'),
  stackedCutLength: z.number(),
  bandingLength: z.number().describe('Length of the banded edges of the parts on one sheet of this entry.'),
  finishArea: z.number(),
  rollLength: z.number(),
});

export const resultStock = z.object({
  id: z.string().describe('"<stock row>.<pattern>": the request stock row and the pattern number on it.'),
  name: z.string(),
  l: z.number(),
  w: z.number(),
  t: z.number().nullable(),
  material: z.string(),
  grain: z.string(),
  type: z.enum(['sheet', 'linear', 'roll']),
  used: z.boolean().describe('false for a stock row nothing was cut from (then stack is 0).'),
  trim,
  cost: z.number(),
  notes: z.string(),
  customData: z.unknown().optional(),
  stack: z.number().int().describe('How many identical sheets share this pattern.'),
  offcut: z.boolean().optional().describe('kerf addition: true when the stock row is an offcut (offcut: true in the request); absent otherwise.'),
  analysis: stockAnalysis,
});

export const resultPart = z.object({
  id: z.string().describe('"<part row>.<copy>"'),
  name: z.string(),
  l: z.number(),
  w: z.number(),
  t: z.number().nullable(),
  material: z.string(),
  notes: z.string(),
  grain: z.string(),
  orientationLock: z.string(),
  x: z.number().nullable(),
  y: z.number().nullable(),
  rot: z.union([z.literal(0), z.literal(1)]).nullable().describe('1: turned 90 degrees, l along y.'),
  added: z.boolean(),
  stock: ref.nullable(),
  extras: z.unknown().optional(),
  customData: z.unknown().optional(),
  machining: z.unknown().optional(),
  finished: z.object({ l: z.number(), w: z.number() }).optional()
    .describe('kerf addition, with saw.options.deductBanding: the size asked for, bands included; l and w are then the size cut, less the thickness of the band on each side (w1/w2 off l, l1/l2 off w).'),
  rotation: z.number().optional().describe('kerf addition (cutType nesting): turn in degrees, counter-clockwise, after the mirror image when mirrored. x and y are then where the bounding box of the turned l x w frame starts.'),
  mirrored: z.boolean().optional().describe('kerf addition (cutType nesting): placed as its mirror image (x -> -x in the part frame, before turning).'),
  placedOutline: z.array(z.object({ x: z.number(), y: z.number() })).optional()
    .describe('kerf addition (cutType nesting): the part\'s outline in stock coordinates as placed (its l x w rectangle when it has no outline).'),
  placedHoles: z.array(z.array(z.object({ x: z.number(), y: z.number() }))).optional()
    .describe('kerf addition (cutType nesting): the part\'s holes in stock coordinates as placed; other parts may sit inside them.'),
});

export const resultCut = z.object({
  x1: z.number(),
  y1: z.number(),
  x2: z.number(),
  y2: z.number(),
  dimension: z.enum(['l', 'w']).describe('l: the cut runs along the length (parallel to x); w: along the width.'),
  position: z.number().describe('Where the kerf starts (y of an l cut, x of a w cut); the blade removes [position, position + bladeWidth]. A trim cut sits on the edge of the usable area with its kerf inside the trim.'),
  isTrim: z.boolean(),
  order: z.number().int().describe('1-based sequence on one sheet of the stock entry.'),
  phase: z.number().int().describe('kerf addition: the cut stage (0 = trim).'),
  stock: ref,
});

export const resultOffcut = z.object({
  id: z.string(),
  l: z.number().describe('Extent along x.'),
  w: z.number().describe('Extent along y.'),
  t: z.number().nullable(),
  x: z.number(),
  y: z.number(),
  q: z.number().int().describe('One per sheet of the stack.'),
  material: z.string(),
  grain: z.string(),
  stock: ref,
  addToInventory: z.boolean().describe('kerf addition: both sides reach minOffcut (saw.options.minOffcut, else the service\'s default): worth keeping; send it back as a stock row with offcut: true.'),
});

export const partIssue = z.object({
  message: z.string(),
  type: z.enum(['error', 'warning']),
  category: z.enum(['saw', 'stock', 'part', 'group', 'machining', 'extras']),
  field: z.string(),
});

export const unusablePart = z.object({
  id: z.string().describe('The part row.'),
  name: z.string(),
  l: z.number(),
  w: z.number(),
  t: z.number().nullable(),
  q: z.number().int().describe('Instances not placed.'),
  material: z.string(),
  issues: z.array(partIssue),
});

export const resultMetadata = z.object({
  totalEfficiency: z.number(),
  totalCuts: z.number().int(),
  totalCutLength: z.number(),
  totalStackedCuts: z.number().int(),
  totalStackedCutLength: z.number(),
  totalStockArea: z.number(),
  totalStockUsedArea: z.number(),
  totalPartArea: z.number(),
  totalOffcutsArea: z.number(),
  totalOffcuts: z.number().int(),
  totalBladeArea: z.number(),
  totalTrimArea: z.number(),
  totalPartsProduced: z.number().int(),
  totalUsedStock: z.number().int(),
  totalRollLength: z.number(),
  totalStockCost: z.number(),
  usedStockTally: z.record(z.string(), z.number()),
  addedPartTally: z.record(z.string(), z.number()),
  unplacedParts: z.array(z.object({ id: z.string(), count: z.number().int(), name: z.string(), l: z.number(), w: z.number(), t: z.number().nullable(), material: z.string() })),
  materialSummary: z.record(z.string(), z.object({ stockUsed: z.number().int(), stockArea: z.number(), partArea: z.number() })),
  totalBandingLength: z.number().describe('Length of the banded edges of every placed part (l1/l2 are as long as the part\'s l, w1/w2 as its w, sizes as asked for).'),
  bandingLengthByType: z.record(z.string(), z.number()).describe('totalBandingLength per band type; bands without a type count under "default".'),
  hasMachining: z.boolean(),
  numHoles: z.number().int(),
  numCorners: z.number().int(),
  lowerBound: z.number().int().describe('kerf addition: no layout can use fewer sheets than this.'),
  lowerBoundGap: z.number().int().describe('kerf addition: sheets used minus the lower bound.'),
  optimal: z.boolean().optional().describe('kerf addition (linear stock): true only when the plan is proven optimal, i.e. its bar count (or cost, when stock costs are given) equals metadata.lowerBound.'),
  seed: z.number().int(),
  engine: z.looseObject({
    iterations: z.number(),
    elapsedMs: z.number(),
    timeToBestMs: z.number(),
    stoppedByDeadline: z.boolean(),
    stopReason: z.enum(['lower-bound', 'stalled', 'effort', 'searchTime', 'ceiling', 'budget']).optional()
      .describe('kerf addition: why the search stopped. lower-bound: nothing better can exist; stalled: no improvement for a whole effort limit\'s worth of work (the default policy); effort: its effort limit; searchTime: the time saw.options.searchTime asked for; ceiling: the service\'s default search time (KERF_DEFAULT_SEARCH_MS); budget: the job budget. The same request and seed give the same layout when it is lower-bound, stalled or effort.'),
    effort: z.number().optional().describe('kerf addition: work the search did, in the engine\'s own unit (sheets and rolls: fit-index visits; efficiency: rectangle scans; nesting: evaluations; linear: iterations). Repeatable when stopReason is not a clock.'),
    lowerBound: z.number().optional().describe('kerf addition: the bound the search measured itself against (sheets, roll length, bars or cost); lower-bound stops meet it.'),
    searchLimitMs: z.number().optional().describe('kerf addition: the search time asked for: saw.options.searchTime, else the service\'s ceiling, never more than the job budget. A searchTime never stops the search before the default would, so a short one may run up to the ceiling.'),
    greedy: z
      .object({ sheets: z.number(), stockArea: z.number(), placedArea: z.number() })
      .optional()
      .describe('kerf addition (sheet and roll stock): the greedy start, the first complete layout before the search: its sheets (roll pieces), their stock area (roll: length used x width) and the part area placed. The result never places less part area, and at equal part area never uses more stock area.'),
    runs: z
      .number()
      .int()
      .optional()
      .describe('kerf addition (nesting): searches run one after the other on the job thread, with seeds of their own, the best layout kept (2 on roll stock: the request seed and a second one derived from it; 1 on sheets; with searchTime, as many again when the time asked outlasts the default search); iterations add up over all of them.'),
    rootLpMs: z.number().nullable().optional().describe('kerf addition (linear stock): engine time until the root LP bound was known; null when it was not reached.'),
    pricings: z.number().int().optional().describe('kerf addition (linear stock): knapsack pricing rounds of the column generation.'),
    rootPivots: z.number().int().optional().describe('kerf addition (linear stock): simplex pivots of the root LP.'),
  }).describe('kerf addition: engine diagnostics (how long, how many iterations); engines may add fields.'),
});

export const resultSaw = z.object({
  stockType: z.enum(STOCK_TYPES),
  cutType: z.enum(CUT_TYPES).optional().describe('Absent for linear stock.'),
  cutPreference: z.enum(['l', 'w']).optional().describe('Absent for linear stock.'),
  bladeWidth: z.number(),
  stackHeight: z.number().int().optional().describe('Absent for linear stock.'),
  guillotineOptions: z.object({ strategy: z.enum(['efficiency', 'time']), maxPhase: z.number().int(), headCuts: z.boolean() }).optional()
    .describe('Absent for linear stock.'),
  nestingOptions: z.object({ freeRotation: z.boolean(), rotationStep: z.number(), mirror: z.boolean(), searchTime: z.number().optional() }).optional()
    .describe('Present for cutType nesting.'),
  options: z.looseObject({
    stockSelection: z.enum(['efficiency', 'smallest']),
    minSpacing: z.number(),
    stackingMode: z.enum(['dimensions', 'identical', 'none']),
    minOffcut: z.number().optional(),
    seed: z.number().int(),
    searchTime: z.number().optional().describe('kerf addition: the search time asked for, in seconds (from saw.options or saw.nestingOptions).'),
    offcutPriority: z.boolean(),
    leftover: z.boolean(),
    deductBanding: z.boolean(),
  }),
}).describe('The saw settings the job ran with: the request\'s, defaults filled in, legacy places and spellings resolved.');

export const resultRecord = z.object({
  jobId: z.number().int(),
  saw: resultSaw,
  stock: z.array(resultStock),
  parts: z.array(resultPart),
  cuts: z.array(resultCut),
  offcuts: z.array(resultOffcut),
  unusableParts: z.array(unusablePart),
  metadata: resultMetadata,
}).meta({ id: 'ResultResponse' });

export type ResultRecord = z.infer<typeof resultRecord>;
export type ResultStock = z.infer<typeof resultStock>;
export type ResultPart = z.infer<typeof resultPart>;
export type ResultCut = z.infer<typeof resultCut>;
export type ResultOffcut = z.infer<typeof resultOffcut>;
export type UnusablePart = z.infer<typeof unusablePart>;

export const errorBody = z.object({
  error: z.string().describe('What is wrong, naming the field or parameter.'),
  details: z.record(z.string(), z.unknown()).describe('More about it: for a 400, issues lists { path, message } per offending field; for a 500, the requestId.'),
  version: z.literal('3'),
}).meta({ id: 'Error' });

/** The job.failed webhook body. */
export const jobFailedEvent = z.object({
  statusCode: z.literal(422),
  message: z.string().describe('Why the job failed.'),
}).meta({ id: 'JobFailedEvent' });

/** GET /v3/result of a failed job: the job.failed body plus the version. */
export const failedJobBody = jobFailedEvent.extend({ version: z.literal('3') }).meta({ id: 'FailedJob' });

export const jobAccepted = z.object({ jobId: z.number().int().positive().describe('Poll GET /v3/result/ready?id=<jobId>.') }).meta({ id: 'JobAccepted' });
