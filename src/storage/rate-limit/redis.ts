// The per-key rate limit shared by every API node: the same two weighted fixed windows as
// MemoryRateLimiter, as counters in Redis checked and bumped by one script. Keys are stored as
// a hash of the API key, and each window's counter expires when it can no longer matter.
import crypto from 'node:crypto';
import type { Redis } from '../redis/client.js';
import { luaScript } from '../redis/lua.js';
import type { RedisKeys } from '../redis/keys.js';
import { DEFAULT_WINDOW_MS, slidingDecision, type RateDecision, type RateLimiter } from './store.js';

// The scripts' KEYS and ARGV are described in src/storage/redis/lua/<concern>/<name>.lua.
const HIT = luaScript('rate-limit/hit');
const REFUND = luaScript('rate-limit/refund');

export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: Redis, private readonly keys: RedisKeys, private readonly windowMs = DEFAULT_WINDOW_MS) {}

  async hit(key: string, perMinute: number, now = Date.now()): Promise<RateDecision> {
    const start = now - (now % this.windowMs);
    const overlap = 1 - (now - start) / this.windowMs;
    const [counted, current, previous] = await HIT.run(this.redis, [this.window(key, start), this.window(key, start - this.windowMs)],
      [perMinute * this.windowMs / 60_000, overlap, 2 * this.windowMs]) as number[];
    if (counted === 1) return { allowed: true, retryAfterSeconds: 0, window: start };
    return slidingDecision(current, previous, start, now, this.windowMs, perMinute);
  }

  async refund(key: string, window: number): Promise<void> {
    await REFUND.run(this.redis, [this.window(key, window)], []);
  }

  private window(key: string, start: number): string {
    return this.keys.rateWindow(crypto.createHash('sha256').update(key).digest('hex').slice(0, 32), start);
  }
}
