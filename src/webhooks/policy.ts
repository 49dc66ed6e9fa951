// What a receiver's answer means, and when to try again: decisions.md section 4.
// 2xx delivered; 5xx, 408, 429, timeouts and network errors retried; 3xx and other 4xx final.

/** Waits after attempt 1, 2, ... 7 fail: 8 attempts over about 27.6 hours. */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** No wait, Retry-After included, may push an attempt past this from the first one. */
export const RETRY_WINDOW_MS = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);

export type Verdict = 'delivered' | 'retry' | 'final';

export function classify(status: number | undefined): Verdict {
  if (status === undefined) return 'retry';
  if (status >= 200 && status < 300) return 'delivered';
  if (status >= 500 || status === 408 || status === 429) return 'retry';
  return 'final';
}

/**
 * When the next attempt is due, or undefined when the delivery is given up. Jitter of +-10 %
 * spreads retries of many deliveries; a Retry-After may lengthen the wait within the window.
 */
export function nextAttemptAt(
  attempt: number,
  firstAttemptAt: number,
  now: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= MAX_ATTEMPTS) return undefined;
  const base = RETRY_DELAYS_MS[attempt - 1];
  let wait = Math.round(base * (0.9 + 0.2 * random()));
  if (retryAfterMs !== undefined && retryAfterMs > wait) wait = retryAfterMs;
  const due = now + wait;
  const windowEnd = firstAttemptAt + RETRY_WINDOW_MS;
  return due > windowEnd ? Math.max(now + base, Math.min(due, windowEnd)) : due;
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
