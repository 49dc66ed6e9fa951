// One calculation, start to finish: picks the engine for the request's stock and cut type,
// runs it, and builds the result record, its numbers settled once for every engine. Runs
// inside a pool thread.
import type { CalcRequest } from '../schema/request.js';
import type { ResultRecord } from '../schema/result.js';
import { buildRecord } from './guillotine/record.js';
import { settleRecord } from '../result/settle.js';
import { checkLayout } from '../result/check-layout.js';
import { addBandingTotals } from '../result/banding.js';
import { markOffcuts } from '../result/offcuts.js';
import { gatherLeftovers } from './guillotine/leftover.js';
import { addGroupParts, expandGroups } from './guillotine/groups.js';
import { loadEngineModule } from './guillotine/boundary.js';
import { solveGuillotine } from './guillotine/solve.js';
import { toGuillotineProblem } from './guillotine/problem.js';
import { linearBars } from './linear/solve.js';
import { nestParts } from './nesting/runs.js';
import { searchPlan } from './common/search-policy.js';

export interface CalculateOptions {
  jobId: number;
  budgetMs: number;
  minOffcut: number;
  /** The operator's ceiling on the default search (KERF_DEFAULT_SEARCH_MS); absent: common/search-policy.ts's default. */
  defaultSearchMs?: number;
}

/** A calculation that cannot produce a layout; the job fails with this message. */
export class CalculationRefused extends Error {}

/** An engine produced a layout that fails the service's own check (src/result/check-layout.ts): never delivered. */
export class LayoutRejected extends Error {
  constructor(readonly violations: string[]) {
    super(`internal error: the computed layout failed the service's validity check and was not delivered (${violations[0]})`);
  }
}

type Solver = (request: CalcRequest, options: CalculateOptions) => ResultRecord | Promise<ResultRecord>;

/** Share of the budget the search keeps when saw.options.leftover asks for one big leftover. */
const SEARCH_SHARE_WITH_LEFTOVER = 0.85;

function guillotineSheets(request: CalcRequest, options: CalculateOptions): ResultRecord {
  const leftover = request.saw.options.leftover;
  const searchBudgetMs = options.budgetMs * (leftover ? SEARCH_SHARE_WITH_LEFTOVER : 1);
  const plan = searchPlan(request, searchBudgetMs, options.defaultSearchMs);
  const mapped = toGuillotineProblem(request, searchBudgetMs);
  const module = loadEngineModule();
  const shapes = addGroupParts(request, mapped.problem, mapped.blocked);
  let solution = solveGuillotine({ ...mapped.problem, stopRule: plan.rule, searchMs: plan.searchMs, ceilingMs: plan.ceilingMs }, module);
  if (leftover) {
    // One leftover per material: stock of one material and thickness is one rack.
    const rack = (row: number) => `${request.stock[row]!.material.trim().toLowerCase()}|${request.stock[row]!.t ?? ''}`;
    solution = gatherLeftovers(mapped.problem, solution, rack, module, options.budgetMs * (1 - SEARCH_SHARE_WITH_LEFTOVER));
  }
  solution = expandGroups(solution, shapes, mapped.problem, request.parts.length);
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

/** `beforeCheck` sees the record before the layout check (the fault tests' way to break one). */
export async function calculate(request: CalcRequest, options: CalculateOptions, beforeCheck?: (record: ResultRecord) => void): Promise<ResultRecord> {
  const key = `${request.saw.stockType}/${request.saw.stockType === 'linear' ? '-' : request.saw.cutType}`;
  const solver = SOLVERS[key];
  if (!solver) {
    const what = request.saw.stockType === 'sheet' ? `cutType ${request.saw.cutType}` : `${request.saw.stockType} stock`;
    throw new CalculationRefused(`${what} is not available yet`);
  }
  const solved = await solver(request, options);
  const record = settleRecord(addBandingTotals(markOffcuts(solved, request, options.minOffcut), request), request);
  beforeCheck?.(record);
  const violations = checkLayout(request, record);
  if (violations.length) throw new LayoutRejected(violations);
  return record;
}
