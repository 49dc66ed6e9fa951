// Accounts in the embedded database (the AccountStore of store.ts). Their keys are in the same
// database (../api-keys/sqlite.ts), whose lookup caches accounts: `onChange` tells it to drop them.
import type { Db } from '../sqlite/db.js';
import { newSigningSecret } from '../../accounts/keys.js';
import { ROTATION_OVERLAP_MS, type Account, type AccountStore, type Plan } from './store.js';

export interface AccountRow {
  id: number;
  email: string;
  rate_per_minute: number;
  monthly_calls: number;
  on_hold: number;
  webhook_url: string | null;
  signing_secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
}

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    email: row.email,
    ratePerMinute: row.rate_per_minute,
    monthlyCalls: row.monthly_calls,
    onHold: row.on_hold === 1,
    webhookUrl: row.webhook_url,
    signingSecret: row.signing_secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: row.previous_secret_until,
  };
}

export class SqliteAccountStore implements AccountStore {
  /** Prepared once: the dispatcher reads the account of every finished job. */
  private readonly byId;

  constructor(
    private readonly db: Db,
    private readonly defaults: { ratePerMinute: number; monthlyCalls: number },
    /** Called after every change through this store (the factory points it at the key store's refresh). */
    private readonly onChange: () => void = () => {},
  ) {
    this.byId = db.prepare('SELECT * FROM accounts WHERE id = ?');
  }

  create(email: string, plan: Plan = {}): Account {
    const info = this.db
      .prepare(
        `INSERT INTO accounts (email, signing_secret, rate_per_minute, monthly_calls, created_at)
         VALUES (?, ?, ?, ?, ?)`,
      )
      .run(email, newSigningSecret(), plan.ratePerMinute ?? this.defaults.ratePerMinute,
        plan.monthlyCalls ?? this.defaults.monthlyCalls, Date.now());
    return this.get(Number(info.lastInsertRowid))!;
  }

  get(id: number): Account | undefined {
    const row = this.byId.get(id) as AccountRow | undefined;
    return row && toAccount(row);
  }

  byEmail(email: string): Account | undefined {
    const row = this.db.prepare('SELECT * FROM accounts WHERE email = ?').get(email) as AccountRow | undefined;
    return row && toAccount(row);
  }

  list(): Account[] {
    return (this.db.prepare('SELECT * FROM accounts ORDER BY id').all() as AccountRow[]).map(toAccount);
  }

  /** Every change made through this connection passes here: the key lookup's cache must drop it. */
  private changed(): void {
    this.onChange();
  }

  refresh(): void {
    this.changed();
  }

  setPlan(accountId: number, plan: Plan): void {
    const account = this.get(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    this.db
      .prepare('UPDATE accounts SET rate_per_minute = ?, monthly_calls = ? WHERE id = ?')
      .run(plan.ratePerMinute ?? account.ratePerMinute, plan.monthlyCalls ?? account.monthlyCalls, accountId);
    this.changed();
  }

  setWebhookUrl(accountId: number, url: string | null): void {
    this.db.prepare('UPDATE accounts SET webhook_url = ? WHERE id = ?').run(url, accountId);
    this.changed();
  }

  /** A new signing secret; the old one keeps signing for ROTATION_OVERLAP_MS. */
  rotateSigningSecret(accountId: number, now = Date.now()): string {
    const secret = newSigningSecret();
    this.db
      .prepare('UPDATE accounts SET previous_secret = signing_secret, previous_secret_until = ?, signing_secret = ? WHERE id = ?')
      .run(now + ROTATION_OVERLAP_MS, secret, accountId);
    this.changed();
    return secret;
  }

  setHold(accountId: number, onHold: boolean): void {
    this.db.prepare('UPDATE accounts SET on_hold = ? WHERE id = ?').run(onHold ? 1 : 0, accountId);
    this.changed();
  }
}

