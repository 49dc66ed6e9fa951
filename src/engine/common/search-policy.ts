// How long an engine searches: the request's saw.options.searchTime, else the default policy
// (search while it improves, stop when it stalls or meets its lower bound), the operator's
// ceiling KERF_DEFAULT_SEARCH_MS over that, and the job budget over everything.
import type { CalcRequest } from '../../schema/request.js';
import type { StopReason } from './stop-reason.js';

export interface SearchPlan {
  /** The job budget: no search goes past it. */
  budgetMs: number;
  /** 'stall' (no searchTime: the default policy) or 'searchTime'. */
  rule: 'stall' | 'searchTime';
  /** The clock limit: searchTime, else the operator's ceiling; never more than budgetMs. */
  searchMs: number;
  /** The default policy's clock limit: the operator's ceiling, never more than budgetMs. */
  ceilingMs: number;
}

/** Default of KERF_DEFAULT_SEARCH_MS: the default policy usually stalls long before it. */
export const DEFAULT_SEARCH_MS = 10_000;

export function searchPlan(request: CalcRequest, budgetMs: number, defaultSearchMs = DEFAULT_SEARCH_MS): SearchPlan {
  const asked = request.saw.options.searchTime;
  const ceilingMs = Math.min(budgetMs, defaultSearchMs);
  if (asked !== undefined) return { budgetMs, rule: 'searchTime', searchMs: Math.min(budgetMs, asked * 1000), ceilingMs };
  return { budgetMs, rule: 'stall', searchMs: ceilingMs, ceilingMs };
}

/**
 * The clock of a run that must do at least what the default does (searchTime never does
 * less): the default's limit, or searchTime's when that is longer; and the reason to give
 * when this clock ends the run. `plan` may be a share of the job's (limits scaled alike).
 */
export function atLeastDefault(plan: SearchPlan): { limitMs: number; clock: StopReason } {
  const limitMs = Math.min(plan.budgetMs, Math.max(plan.searchMs, plan.ceilingMs));
  if (limitMs >= plan.budgetMs) return { limitMs, clock: 'budget' };
  return { limitMs, clock: plan.rule === 'searchTime' && plan.searchMs >= plan.ceilingMs ? 'searchTime' : 'ceiling' };
}

/**
 * Why a search that only the clock can stop early (the nesting engine) stopped
 * when it ran out of time: searchTime's or the ceiling's limit when that came before the
 * budget's, else the budget.
 */
export function clockStop(plan: SearchPlan): StopReason {
  if (plan.searchMs >= plan.budgetMs) return 'budget';
  return plan.rule === 'searchTime' ? 'searchTime' : 'ceiling';
}
