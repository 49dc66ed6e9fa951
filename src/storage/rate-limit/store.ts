// Per-key request budget over a sliding window (a minute by default): two fixed windows weighted
// by overlap give a smooth limit with O(1) state per key. A call refused later with a 4xx is
// refunded: it does not count. Adapters: memory.ts (the embedded service is one process), redis.ts.

// Per-key request budget over a sliding window (a minute by default), kept in memory: the
// embedded service is one process. Two fixed windows weighted by overlap give a smooth limit
// with O(1) state per key. A call refused later with a 4xx is refunded: it does not count.
export interface RateDecision {
  allowed: boolean;
  retryAfterSeconds: number;
  /** Start of the fixed window the call was counted in (allowed calls): what a refund names. */
  window?: number;
}

export interface RateLimiter {
  /** A shared limiter (Redis) answers asynchronously. */
  hit(key: string, perMinute: number, now?: number): RateDecision | Promise<RateDecision>;
  /** Takes back a call counted in `window` (it was refused after admission). */
  refund(key: string, window: number): void | Promise<void>;
}

export const DEFAULT_WINDOW_MS = 60_000;

/**
 * The decision for one more call, given the calls counted in the current fixed window (from
 * `start`) and in the previous one, whose weight falls linearly as the sliding window leaves it.
 * A refusal names the first time the weighted count has room again (absent other calls).
 */
export function slidingDecision(current: number, previous: number, start: number, now: number, windowMs: number, perMinute: number): RateDecision {
  const limit = perMinute * windowMs / 60_000;
  const used = current + previous * (1 - (now - start) / windowMs);
  if (used + 1 <= limit) return { allowed: true, retryAfterSeconds: 0, window: start };
  let at: number;
  if (limit < 1) at = now + windowMs;
  // Room within this window once enough of the previous one has slid out...
  else if (current + 1 <= limit) at = start + windowMs * (1 - (limit - 1 - current) / previous);
  // ...else in the next, once enough of this one has.
  else at = start + windowMs * (2 - (limit - 1) / current);
  // A millisecond past the exact point, so rounding never lands the retry just short of it.
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((at + 1 - now) / 1000)) };
}
