// Accounts and their API keys in the embedded database (the AccountStore of store.ts).
import type { Db } from '../sqlite/db.js';
import { hashKey, keyPrefix, newApiKey, newSigningSecret } from '../../accounts/keys.js';
import { ApiKeyCache } from './key-cache.js';
import { ROTATION_OVERLAP_MS, type Account, type AccountStore, type ApiKeyInfo, type Plan } from './store.js';

interface AccountRow {
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

function toAccount(row: AccountRow): Account {
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
  private readonly byKeyHash;
  private readonly dataVersion;
  /** Key -> account, dropped whenever another connection (the CLI, another process) commits. */
  private readonly keyCache = new ApiKeyCache();
  private seenVersion = -1;
  private versionCheckedAt = -Infinity;

  constructor(private readonly db: Db, private readonly defaults: { ratePerMinute: number; monthlyCalls: number }) {
    this.byKeyHash = db.prepare(
      `SELECT a.* FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.hash = ? AND k.revoked_at IS NULL`,
    );
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
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
    const row = this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
    return row && toAccount(row);
  }

  byEmail(email: string): Account | undefined {
    const row = this.db.prepare('SELECT * FROM accounts WHERE email = ?').get(email) as AccountRow | undefined;
    return row && toAccount(row);
  }

  list(): Account[] {
    return (this.db.prepare('SELECT * FROM accounts ORDER BY id').all() as AccountRow[]).map(toAccount);
  }

  /** The account a raw API key belongs to, or undefined for an unknown or revoked key. */
  byApiKey(key: string, now = Date.now()): Account | undefined {
    // Another process's commit (the CLI revoking a key) shows in data_version; looking at most
    // every 100 ms keeps that SQLite call off most requests and the change in effect within 0.1 s.
    if (now - this.versionCheckedAt >= 100) {
      this.versionCheckedAt = now;
      const version = this.dataVersion.get() as number;
      if (version !== this.seenVersion) {
        this.keyCache.clear();
        this.seenVersion = version;
      }
    }
    return this.keyCache.get(key, () => {
      const row = this.byKeyHash.get(hashKey(key)) as AccountRow | undefined;
      return row && toAccount(row);
    });
  }

  /** Every change made through this connection passes here, so cached accounts never go stale. */
  private changed(): void {
    this.keyCache.clear();
  }

  refresh(): void {
    this.changed();
  }

  /** Issues a key; the raw key is returned once and only its hash is kept. A known key may be imposed (development account). */
  issueKey(accountId: number, label = '', rawKey = newApiKey()): { key: string; info: ApiKeyInfo } {
    const now = Date.now();
    const info = this.db
      .prepare('INSERT INTO api_keys (account_id, hash, prefix, label, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(accountId, hashKey(rawKey), keyPrefix(rawKey), label, now);
    this.changed();
    return { key: rawKey, info: { id: Number(info.lastInsertRowid), prefix: keyPrefix(rawKey), label, createdAt: now, revokedAt: null } };
  }

  hasKey(rawKey: string): boolean {
    return this.db.prepare('SELECT 1 FROM api_keys WHERE hash = ?').get(hashKey(rawKey)) !== undefined;
  }

  keys(accountId: number): ApiKeyInfo[] {
    return this.db
      .prepare(
        `SELECT id, prefix, label, created_at AS createdAt, revoked_at AS revokedAt
         FROM api_keys WHERE account_id = ? ORDER BY id`,
      )
      .all(accountId) as ApiKeyInfo[];
  }

  revokeKey(accountId: number, keyId: number): boolean {
    const info = this.db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL')
      .run(Date.now(), keyId, accountId);
    this.changed();
    return info.changes === 1;
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

