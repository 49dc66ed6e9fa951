// The per-key rate limit shared by every API node: the same two weighted fixed windows as
// MemoryRateLimiter, as counters in Redis checked and bumped by one script. Keys are stored as
// a hash of the API key, and each window's counter expires when it can no longer matter.
import crypto from 'node:crypto';
import { LuaScript, type Redis } from '../queue/redis-client.js';
import type { RedisKeys } from '../queue/redis-keys.js';
import type { RateDecision, RateLimiter } from './rate-limit.js';

const WINDOW_MS = 60_000;

// KEYS: current window, previous window. ARGV: limit, overlap of the previous window (0..1), ttl ms.
const HIT = new LuaScript(`
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
if current + previous * tonumber(ARGV[2]) + 1 > tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`);

export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: Redis, private readonly keys: RedisKeys) {}

  async hit(key: string, perMinute: number, now = Date.now()): Promise<RateDecision> {
    const start = now - (now % WINDOW_MS);
    const hashed = crypto.createHash('sha256').update(key).digest('hex').slice(0, 32);
    const overlap = 1 - (now - start) / WINDOW_MS;
    const allowed = await HIT.run(this.redis, [this.keys.rateWindow(hashed, start), this.keys.rateWindow(hashed, start - WINDOW_MS)],
      [perMinute, overlap, 2 * WINDOW_MS]);
    if (allowed === 1) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000)) };
  }
}
