// Per-key request budget over a sliding minute, kept in memory: the embedded service is one
// process. Two fixed windows weighted by overlap give a smooth limit with O(1) state per key.
export interface RateDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** A shared limiter (Redis) answers asynchronously. */
  hit(key: string, perMinute: number, now?: number): RateDecision | Promise<RateDecision>;
}

const WINDOW_MS = 60_000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; current: number; previous: number }>();

  hit(key: string, perMinute: number, now = Date.now()): RateDecision {
    const start = now - (now % WINDOW_MS);
    let w = this.windows.get(key);
    if (!w || start - w.start >= 2 * WINDOW_MS) w = { start, current: 0, previous: 0 };
    else if (start !== w.start) w = { start, current: 0, previous: w.current };
    this.windows.set(key, w);
    const overlap = 1 - (now - start) / WINDOW_MS;
    const used = w.current + w.previous * overlap;
    if (used + 1 > perMinute) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000)) };
    }
    w.current++;
    if (this.windows.size > 100_000) this.sweep(now);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (now - w.start >= 2 * WINDOW_MS) this.windows.delete(key);
  }
}
