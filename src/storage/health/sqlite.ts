// Endpoint health in the embedded database (the EndpointHealth of store.ts).
import type { Db } from '../sqlite/db.js';
import type { EndpointHealth, EndpointHealthState, HealthEvent, HealthThresholds } from './store.js';

export class SqliteEndpointHealth implements EndpointHealth {
  private readonly s;

  constructor(db: Db, readonly thresholds: HealthThresholds) {
    this.s = {
      get: db.prepare(`SELECT webhook_failing_since AS failingSince, webhook_warned_at AS warnedAt, webhook_disabled_at AS disabledAt FROM accounts WHERE id = ?`),
      ok: db.prepare(`UPDATE accounts SET webhook_failing_since = NULL, webhook_warned_at = NULL WHERE id = ?`),
      failing: db.prepare(`UPDATE accounts SET webhook_failing_since = COALESCE(webhook_failing_since, ?) WHERE id = ?`),
      warned: db.prepare(`UPDATE accounts SET webhook_warned_at = ? WHERE id = ?`),
      disabled: db.prepare(`UPDATE accounts SET webhook_disabled_at = ? WHERE id = ? AND webhook_disabled_at IS NULL`),
      enable: db.prepare(`UPDATE accounts SET webhook_disabled_at = NULL, webhook_failing_since = NULL, webhook_warned_at = NULL WHERE id = ?`),
    };
  }

  state(accountId: number): EndpointHealthState {
    return this.s.get.get(accountId) as EndpointHealthState;
  }

  succeeded(accountId: number): void {
    this.s.ok.run(accountId);
  }

  /** Records a failed delivery and returns the thresholds it crossed, the warning always first. */
  failed(accountId: number, now: number): HealthEvent[] {
    this.s.failing.run(now, accountId);
    const state = this.state(accountId);
    const failingFor = now - (state.failingSince ?? now);
    const events: HealthEvent[] = [];
    if (state.warnedAt === null && failingFor >= this.thresholds.warnAfterMs) {
      this.s.warned.run(now, accountId);
      events.push('warn');
    }
    if (state.disabledAt === null && failingFor >= this.thresholds.disableAfterMs) {
      this.s.disabled.run(now, accountId);
      events.push('disable');
    }
    return events;
  }

  reenable(accountId: number): void {
    this.s.enable.run(accountId);
  }
}

