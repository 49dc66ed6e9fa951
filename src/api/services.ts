// What the routes are given: the service's parts, wired once in main.
import type { AccountStore } from '../storage/accounts/store.js';
import type { ApiKeyStore } from '../storage/api-keys/store.js';
import type { UsageMeter } from '../storage/metering/store.js';
import type { RateLimiter } from '../storage/rate-limit/store.js';
import type { Sessions } from '../storage/sessions/store.js';
import type { Config } from '../config.js';
import type { Dispatcher } from '../jobs/dispatcher.js';
import type { JobStore } from '../storage/jobs/store.js';
import type { ServerStorage } from '../storage/open.js';
import type { Metrics } from '../metrics.js';
import type { EnginePool } from '../pool/pool.js';
import type { Deliverer } from '../webhooks/deliverer.js';
import type { EndpointHealth } from '../storage/health/store.js';
import type { OutboxStore } from '../storage/outbox/store.js';

export interface Services {
  config: Config;
  accounts: AccountStore;
  apiKeys: ApiKeyStore;
  metering: UsageMeter;
  limiter: RateLimiter;
  jobs: JobStore;
  /** Queues an accepted job and counts its call (one transaction on SQLite). */
  acceptJob: ServerStorage['acceptJob'];
  dispatcher: Dispatcher;
  pool: EnginePool;
  metrics: Metrics;
  sessions: Sessions;
  outbox: OutboxStore;
  health: EndpointHealth;
  deliverer: Deliverer;
}

/** The options every route family is registered with. */
export interface FamilyOptions {
  services: Services;
}
