// Why a search stopped, as every solver reports it in metadata.engine.stopReason.

/**
 * Why an engine stopped searching: 'lower-bound' (nothing better can exist), 'stalled' (no
 * improvement for a whole effort limit's worth of work), 'effort' (its effort limit),
 * 'searchTime' (the time the request asked for), 'ceiling' (the operator's default search
 * time, KERF_DEFAULT_SEARCH_MS), 'budget' (the job budget). The first three do not depend on
 * the clock: the same request and seed then give the same layout.
 */
export type StopReason = 'lower-bound' | 'stalled' | 'effort' | 'searchTime' | 'ceiling' | 'budget';

const STOP_ORDER: readonly StopReason[] = ['lower-bound', 'stalled', 'effort', 'ceiling', 'searchTime', 'budget'];

/** The reason of a search made of several, which says the most about the result: the clock's over effort's over the bound's. */
export function laterStop(a: StopReason, b: StopReason): StopReason {
  return STOP_ORDER.indexOf(a) >= STOP_ORDER.indexOf(b) ? a : b;
}

/** The clock ended the search (searchTime, ceiling, budget): the layout may differ between runs. */
export function byClock(reason: StopReason): boolean {
  return reason === 'searchTime' || reason === 'ceiling' || reason === 'budget';
}
