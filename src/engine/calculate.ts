// One calculation, start to finish: picks the engine for the request's stock and cut type,
// runs it, and builds the result record, its numbers settled once for every engine. Runs
// inside a pool thread.
import type { CalcRequest } from '../schema/request.js';
import type { ResultRecord } from '../schema/result.js';
import { buildRecord } from '../result/record.js';
import { settleRecord } from '../result/settle.js';
import { loadEngineModule, solveGuillotine } from './guillotine.js';
import { toGuillotineProblem } from './problem.js';
import { linearBars } from './linear.js';
import { nestParts } from './nesting-runs.js';
import { searchPlan } from './search-policy.js';

export interface CalculateOptions {
  jobId: number;
  budgetMs: number;
  minOffcut: number;
  /** The operator's ceiling on the default search (KERF_DEFAULT_SEARCH_MS); absent: search-policy.ts's default. */
  defaultSearchMs?: number;
}

/** A calculation that cannot produce a layout; the job fails with this message. */
export class CalculationRefused extends Error {}

type Solver = (request: CalcRequest, options: CalculateOptions) => ResultRecord | Promise<ResultRecord>;

function guillotineSheets(request: CalcRequest, options: CalculateOptions): ResultRecord {
  const plan = searchPlan(request, options.budgetMs, options.defaultSearchMs);
  const mapped = toGuillotineProblem(request, options.budgetMs);
  const solution = solveGuillotine({ ...mapped.problem, stopRule: plan.rule, searchMs: plan.searchMs }, loadEngineModule());
  const record = buildRecord(request, mapped, solution, options);
  record.metadata.engine = { ...record.metadata.engine, lowerBound: solution.lengthBound ?? solution.lowerBound, searchLimitMs: plan.searchMs };
  return record;
}

/** Solvers by "<stockType>/<cutType>"; a combination the schema accepts but no solver serves yet is refused. */
const SOLVERS: Record<string, Solver> = {
  'sheet/guillotine': guillotineSheets,
  // CNC routers: the mapper asks for free placement (engine-as/free), no saw cuts in the result.
  'sheet/efficiency': guillotineSheets,
  'sheet/beam': guillotineSheets, // first cuts along the length, repeated patterns stacked into books
  'roll/guillotine': guillotineSheets, // open-length stock: band search and bisection of the roll length
  'roll/efficiency': guillotineSheets,
  'linear/-': linearBars,
  'sheet/nesting': nestParts, // true shapes: outline and holes
  'roll/nesting': nestParts,
};

export async function calculate(request: CalcRequest, options: CalculateOptions): Promise<ResultRecord> {
  const key = `${request.saw.stockType}/${request.saw.stockType === 'linear' ? '-' : request.saw.cutType}`;
  const solver = SOLVERS[key];
  if (!solver) {
    const what = request.saw.stockType === 'sheet' ? `cutType ${request.saw.cutType}` : `${request.saw.stockType} stock`;
    throw new CalculationRefused(`${what} is not available yet`);
  }
  return settleRecord(await solver(request, options), request);
}
