// Endpoint health in Redis (the rules are health.ts's): one hash per account, shared by every
// API node's delivery loop. A failure is recorded and the thresholds checked by one script, so
// two nodes failing at once send the warning and the disable e-mail once.
import type { AccountKeys } from '../redis/account-keys.js';
import { LuaScript, type Redis } from '../redis/client.js';
import type { EndpointHealth, EndpointHealthState, HealthEvent, HealthThresholds } from './store.js';

// KEYS: the account's health hash. ARGV: now, warn after ms, disable after ms. Returns the events.
const FAILED = new LuaScript(`
redis.call('HSETNX', KEYS[1], 'failingSince', ARGV[1])
local failingFor = tonumber(ARGV[1]) - tonumber(redis.call('HGET', KEYS[1], 'failingSince'))
local events = {}
if redis.call('HEXISTS', KEYS[1], 'warnedAt') == 0 and failingFor >= tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 'warnedAt', ARGV[1])
  table.insert(events, 'warn')
end
if redis.call('HEXISTS', KEYS[1], 'disabledAt') == 0 and failingFor >= tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], 'disabledAt', ARGV[1])
  table.insert(events, 'disable')
end
return events`);

const numberOrNull = (value: string | null | undefined) => (value === null || value === undefined ? null : Number(value));

export class RedisEndpointHealth implements EndpointHealth {
  constructor(private readonly redis: Redis, private readonly k: AccountKeys, readonly thresholds: HealthThresholds) {}

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
