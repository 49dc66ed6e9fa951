// Budget clock. The host supplies `env.now()` (performance.now() in ms) so the engine can
// watch its own deadline and return the best complete solution instead of being killed.

@external("env", "now")
declare function hostNow(): f64;

/** Milliseconds on the host's monotonic clock. */
export function now(): f64 {
  return hostNow();
}

export class Budget {
  start: f64;
  deadline: f64;

  constructor(budgetMs: f64) {
    this.start = hostNow();
    // Non-finite or negative budgets mean "stop as soon as one solution exists".
    const b = isFinite(budgetMs) && budgetMs > 0 ? budgetMs : 0.0;
    this.deadline = this.start + b;
  }

  elapsed(): f64 {
    return hostNow() - this.start;
  }

  expired(): bool {
    return hostNow() >= this.deadline;
  }
}
