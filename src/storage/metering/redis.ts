// Calls and compute time per account and month in Redis, so every API and worker node counts
// into the same place (the allowance is checked against the sum).
import type { RedisKeys } from '../redis/keys.js';
import type { Redis } from '../redis/client.js';
import { monthOf, type Usage, type UsageMeter } from './store.js';

export class RedisMetering implements UsageMeter {
  constructor(private readonly redis: Redis, private readonly keys: RedisKeys) {}

  async usage(accountId: number, now = Date.now()): Promise<Usage> {
    const month = monthOf(now);
    const [calls, computeMs] = await this.redis.hmGet(this.keys.usage(accountId, month), ['calls', 'compute_ms']);
    return { month, calls: Number(calls ?? 0), computeSeconds: Number(computeMs ?? 0) / 1000 };
  }

  async countCall(accountId: number, now = Date.now()): Promise<void> {
    await this.redis.hIncrBy(this.keys.usage(accountId, monthOf(now)), 'calls', 1);
  }

  async addCompute(accountId: number, ms: number, now = Date.now()): Promise<void> {
    await this.redis.hIncrBy(this.keys.usage(accountId, monthOf(now)), 'compute_ms', Math.round(ms));
  }
}
