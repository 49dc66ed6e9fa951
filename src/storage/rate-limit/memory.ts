// The rate limiter in this process's memory: the embedded service is one process (the RateLimiter of store.ts).
import { DEFAULT_WINDOW_MS, slidingDecision, type RateDecision, type RateLimiter } from './store.js';

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; current: number; previous: number }>();

  constructor(private readonly windowMs = DEFAULT_WINDOW_MS) {}

  hit(key: string, perMinute: number, now = Date.now()): RateDecision {
    const start = now - (now % this.windowMs);
    let w = this.windows.get(key);
    if (!w || start - w.start >= 2 * this.windowMs) w = { start, current: 0, previous: 0 };
    else if (start !== w.start) w = { start, current: 0, previous: w.current };
    this.windows.set(key, w);
    const decision = slidingDecision(w.current, w.previous, start, now, this.windowMs, perMinute);
    if (!decision.allowed) return decision;
    w.current++;
    if (this.windows.size > 100_000) this.sweep(now);
    return decision;
  }

  refund(key: string, window: number): void {
    const w = this.windows.get(key);
    if (!w) return;
    if (w.start === window && w.current > 0) w.current--;
    else if (w.start - this.windowMs === window && w.previous > 0) w.previous--;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (now - w.start >= 2 * this.windowMs) this.windows.delete(key);
  }
}
