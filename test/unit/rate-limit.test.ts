// The sliding-window rate limit, in memory and on the real Redis (own key prefix, deleted
// after), driven by the time each call names: Retry-After is exactly when the next call is
// accepted (not before: 2 ms earlier it is still refused), and a refunded call does not count.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/storage/rate-limit/memory.js';
import { type RateLimiter } from '../../src/storage/rate-limit/store.js';
import { RedisRateLimiter } from '../../src/storage/rate-limit/redis.js';
import { connectRedis, type Redis } from '../../src/storage/redis/client.js';
import { RedisKeys } from '../../src/storage/redis/keys.js';
import { dropPrefix, testPrefix, TEST_REDIS_URL } from '../support/redis.js';

const WINDOW = 60_000;
let redis: Redis;
let prefix: string;

beforeAll(async () => {
  prefix = testPrefix('rate');
  redis = await connectRedis(TEST_REDIS_URL, () => {});
});
afterAll(async () => {
  await redis?.close();
  await dropPrefix(prefix);
});

const limiters: [string, () => RateLimiter][] = [
  ['memory', () => new MemoryRateLimiter(WINDOW)],
  ['redis', () => new RedisRateLimiter(redis, new RedisKeys(prefix), WINDOW)],
];

describe.each(limiters)('rate limit (%s)', (_, make) => {
  it('accepts the next call exactly after the advertised Retry-After, wherever the calls fall in the windows', async () => {
    const limiter = make();
    let scenario = 0;
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 30 }),
      fc.integer({ min: 0, max: 10 * WINDOW }),
      fc.array(fc.integer({ min: 0, max: 4_000 }), { minLength: 1, maxLength: 80 }),
      async (perMinute, startAt, gaps) => {
        const key = `scenario-${scenario++}`;
        let now = 1_800_000_000_000 + startAt;
        for (const gap of gaps) {
          now += gap;
          const decision = await limiter.hit(key, perMinute, now);
          if (decision.allowed) continue;
          const wait = decision.retryAfterSeconds * 1000;
          expect(wait).toBeGreaterThanOrEqual(1000);
          expect(wait).toBeLessThanOrEqual(2 * WINDOW);
          if (wait > 1000) expect((await limiter.hit(key, perMinute, now + wait - 1002)).allowed).toBe(false);
          expect((await limiter.hit(key, perMinute, now + wait)).allowed).toBe(true);
          return;
        }
      },
    ), { numRuns: 150, seed: 34 });
  });

  it('does not count a refunded call', async () => {
    const limiter = make();
    const now = 1_800_000_000_000;
    for (let i = 0; i < 5; i++) {
      const counted = await limiter.hit('refunds', 3, now + i);
      expect(counted.allowed).toBe(true);
      await limiter.refund('refunds', counted.window!);
    }
    for (let i = 0; i < 3; i++) expect((await limiter.hit('refunds', 3, now + 10 + i)).allowed).toBe(true);
    expect((await limiter.hit('refunds', 3, now + 20)).allowed).toBe(false);
  });
});
