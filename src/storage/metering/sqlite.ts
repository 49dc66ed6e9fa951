// Monthly usage counters in the embedded database (the UsageMeter of store.ts).
import type { Db } from '../sqlite/db.js';
import { monthOf, type Usage, type UsageMeter } from './store.js';

export class SqliteMetering implements UsageMeter {
  private readonly statements;

  constructor(db: Db) {
    this.statements = {
      usage: db.prepare('SELECT calls, compute_ms FROM usage WHERE account_id = ? AND month = ?'),
      call: db.prepare(
        `INSERT INTO usage (account_id, month, calls) VALUES (?, ?, 1)
         ON CONFLICT (account_id, month) DO UPDATE SET calls = calls + 1`,
      ),
      compute: db.prepare(
        `INSERT INTO usage (account_id, month, compute_ms) VALUES (?, ?, ?)
         ON CONFLICT (account_id, month) DO UPDATE SET compute_ms = compute_ms + excluded.compute_ms`,
      ),
    };
  }

  usage(accountId: number, now = Date.now()): Usage {
    const month = monthOf(now);
    const row = this.statements.usage.get(accountId, month) as { calls: number; compute_ms: number } | undefined;
    return { month, calls: row?.calls ?? 0, computeSeconds: (row?.compute_ms ?? 0) / 1000 };
  }

  countCall(accountId: number, now = Date.now()): void {
    this.statements.call.run(accountId, monthOf(now));
  }

  addCompute(accountId: number, ms: number, now = Date.now()): void {
    this.statements.compute.run(accountId, monthOf(now), Math.round(ms));
  }
}
