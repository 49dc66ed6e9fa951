// Endpoint health in Redis (the rules are health.ts's): one hash per account, shared by every
// API node's delivery loop. A failure is recorded and the thresholds checked by one script, so
// two nodes failing at once send the warning and the disable e-mail once.
import type { RedisKeys } from '../redis/keys.js';
import type { Redis } from '../redis/client.js';
import { luaScript } from '../redis/lua.js';
import type { EndpointHealth, EndpointHealthState, HealthEvent, HealthThresholds } from './store.js';

// The scripts' KEYS and ARGV are described in src/storage/redis/lua/<concern>/<name>.lua.
const FAILED = luaScript('health/failed');

const numberOrNull = (value: string | null | undefined) => (value === null || value === undefined ? null : Number(value));

export class RedisEndpointHealth implements EndpointHealth {
  constructor(private readonly redis: Redis, private readonly k: RedisKeys, readonly thresholds: HealthThresholds) {}

  async state(accountId: number): Promise<EndpointHealthState> {
    const [failingSince, warnedAt, disabledAt] = await this.redis.hmGet(this.k.webhookHealth(accountId), ['failingSince', 'warnedAt', 'disabledAt']);
    return { failingSince: numberOrNull(failingSince), warnedAt: numberOrNull(warnedAt), disabledAt: numberOrNull(disabledAt) };
  }

  async succeeded(accountId: number): Promise<void> {
    await this.redis.hDel(this.k.webhookHealth(accountId), ['failingSince', 'warnedAt']);
  }

  async failed(accountId: number, now: number): Promise<HealthEvent[]> {
    return (await FAILED.run(this.redis, [this.k.webhookHealth(accountId)],
      [now, this.thresholds.warnAfterMs, this.thresholds.disableAfterMs])) as HealthEvent[];
  }

  async reenable(accountId: number): Promise<void> {
    await this.redis.del(this.k.webhookHealth(accountId));
  }
}
