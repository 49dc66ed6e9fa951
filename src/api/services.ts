// What the routes are given: the service's parts, wired once in main.
import type { AccountStore } from '../accounts/accounts.js';
import type { Metering } from '../accounts/metering.js';
import type { RateLimiter } from '../accounts/rate-limit.js';
import type { Sessions } from '../accounts/sessions.js';
import type { Config } from '../config.js';
import type { Dispatcher } from '../jobs/dispatcher.js';
import type { JobStore } from '../jobs/store.js';
import type { Metrics } from '../metrics.js';
import type { EnginePool } from '../pool/pool.js';
import type { Deliverer } from '../webhooks/deliverer.js';
import type { EndpointHealth } from '../webhooks/health.js';
import type { Outbox } from '../webhooks/outbox.js';

export interface Services {
  config: Config;
  accounts: AccountStore;
  metering: Metering;
  limiter: RateLimiter;
  jobs: JobStore;
  dispatcher: Dispatcher;
  pool: EnginePool;
  metrics: Metrics;
  sessions: Sessions;
  outbox: Outbox;
  health: EndpointHealth;
  deliverer: Deliverer;
}
