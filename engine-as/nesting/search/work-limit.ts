// How much work (order evaluations, separation sweeps) a search phase may do. At the effort
// limit (stop rule 0) it stops there. Under the default rule (1, the stall rule of the
// guillotine engine: engine-as/sheets/sheet-search.ts) it goes on past it while it still
// improves, and stops once as much work again as the last improvement took (at least one
// effort limit's worth) found nothing, or at STALL_CAP effort limits. Counted in work units,
// never in time, so a phase that ends here ends the same on every machine.

export const STOP_AT_EFFORT = 0;
export const STOP_ON_STALL = 1;
/** The default rule's hard stop, in effort limits. */
export const STALL_CAP: i64 = 8;

export class WorkLimit {
  /** Work at which the phase stops (i64.MAX_VALUE: no effort limit, only the clock). */
  limit: i64;
  private readonly cap: i64;

  constructor(private readonly effort: i64, private readonly rule: i32) {
    const unlimited = effort <= 0;
    this.limit = unlimited ? i64.MAX_VALUE : effort;
    this.cap = unlimited ? i64.MAX_VALUE : rule == STOP_ON_STALL && effort < i64.MAX_VALUE / STALL_CAP ? effort * STALL_CAP : effort;
  }

  reached(work: i64): bool {
    return work >= this.limit;
  }

  /** The objective improved after `work` units: under the stall rule the limit moves on. */
  improved(work: i64): void {
    if (this.rule != STOP_ON_STALL || this.limit == i64.MAX_VALUE) return;
    const next = work + max<i64>(this.effort, work);
    this.limit = min<i64>(this.cap, max<i64>(this.limit, next));
  }

  /** Stopping at the limit now is the effort limit's doing (or the stall rule's hard stop), not a stall. */
  atEffortLimit(): bool {
    return this.rule != STOP_ON_STALL || this.limit >= this.cap;
  }
}
