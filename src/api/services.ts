// What the routes are given: the service's parts, wired once in main.
import type { AccountStore } from '../accounts/accounts.js';
import type { UsageMeter } from '../accounts/metering.js';
import type { RateLimiter } from '../accounts/rate-limit.js';
import type { Sessions } from '../accounts/sessions.js';
import type { Config } from '../config.js';
import type { Dispatcher } from '../jobs/dispatcher.js';
import type { JobStore } from '../jobs/store.js';
import type { Metrics } from '../metrics.js';
import type { EnginePool } from '../pool/pool.js';
import type { Deliverer } from '../webhooks/deliverer.js';
import type { EndpointHealth } from '../webhooks/health.js';
import type { OutboxStore } from '../webhooks/outbox-store.js';

export interface Services {
  config: Config;
  accounts: AccountStore;
  metering: UsageMeter;
  limiter: RateLimiter;
  jobs: JobStore;
  dispatcher: Dispatcher;
  pool: EnginePool;
  metrics: Metrics;
  sessions: Sessions;
  outbox: OutboxStore;
  health: EndpointHealth;
  deliverer: Deliverer;
}
