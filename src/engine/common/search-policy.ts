// How long an engine searches: the request's saw.options.searchTime, else the default policy
// (search while it improves, stop when it stalls or meets its lower bound), the operator's
// ceiling KERF_DEFAULT_SEARCH_MS over that, and the job budget over everything.
import type { CalcRequest } from '../../schema/request.js';
import type { StopReason } from '../guillotine/types.js';

export interface SearchPlan {
  /** The job budget: no search goes past it. */
  budgetMs: number;
  /** 'stall' (no searchTime: the default policy) or 'searchTime'. */
  rule: 'stall' | 'searchTime';
  /** The clock limit: searchTime, else the operator's ceiling; never more than budgetMs. */
  searchMs: number;
}

/** Default of KERF_DEFAULT_SEARCH_MS: the default policy usually stalls long before it. */
export const DEFAULT_SEARCH_MS = 10_000;

export function searchPlan(request: CalcRequest, budgetMs: number, defaultSearchMs = DEFAULT_SEARCH_MS): SearchPlan {
  const asked = request.saw.options.searchTime;
  if (asked !== undefined) return { budgetMs, rule: 'searchTime', searchMs: Math.min(budgetMs, asked * 1000) };
  return { budgetMs, rule: 'stall', searchMs: Math.min(budgetMs, defaultSearchMs) };
}

/**
 * Why a search that only the clock can stop early (the linear and nesting engines) stopped
 * when it ran out of time: searchTime's or the ceiling's limit when that came before the
 * budget's, else the budget.
 */
export function clockStop(plan: SearchPlan): StopReason {
  if (plan.searchMs >= plan.budgetMs) return 'budget';
  return plan.rule === 'searchTime' ? 'searchTime' : 'ceiling';
}
