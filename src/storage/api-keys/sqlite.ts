// API keys in the embedded database (the ApiKeyStore of store.ts), beside the accounts they
// belong to: a lookup joins the two. Repeated keys answer from a cache, dropped when another
// connection (the CLI, another process) commits and, through refresh(), when the account store
// of this connection changes an account.
import type { Db } from '../sqlite/db.js';
import { hashKey, keyPrefix, newApiKey } from '../../accounts/keys.js';
import type { Account } from '../accounts/store.js';
import { toAccount, type AccountRow } from '../accounts/sqlite.js';
import { ApiKeyCache } from './key-cache.js';
import type { ApiKeyInfo, ApiKeyStore } from './store.js';

export class SqliteApiKeyStore implements ApiKeyStore {
  private readonly byKeyHash;
  private readonly dataVersion;
  private readonly cache = new ApiKeyCache();
  private seenVersion = -1;
  private versionCheckedAt = -Infinity;

  constructor(private readonly db: Db) {
    this.byKeyHash = db.prepare(
      `SELECT a.* FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.hash = ? AND k.revoked_at IS NULL`,
    );
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  byApiKey(key: string, now = Date.now()): Account | undefined {
    // Another process's commit (the CLI revoking a key) shows in data_version; looking at most
    // every 100 ms keeps that SQLite call off most requests and the change in effect within 0.1 s.
    if (now - this.versionCheckedAt >= 100) {
      this.versionCheckedAt = now;
      const version = this.dataVersion.get() as number;
      if (version !== this.seenVersion) {
        this.cache.clear();
        this.seenVersion = version;
      }
    }
    const cached = this.cache.get(key);
    if (cached) return cached;
    const row = this.byKeyHash.get(hashKey(key)) as AccountRow | undefined;
    return this.cache.remember(key, row && toAccount(row));
  }

  refresh(): void {
    this.cache.clear();
  }

  issue(accountId: number, label = '', rawKey = newApiKey()): { key: string; info: ApiKeyInfo } {
    const now = Date.now();
    const info = this.db
      .prepare('INSERT INTO api_keys (account_id, hash, prefix, label, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(accountId, hashKey(rawKey), keyPrefix(rawKey), label, now);
    this.refresh();
    return { key: rawKey, info: { id: Number(info.lastInsertRowid), prefix: keyPrefix(rawKey), label, createdAt: now, revokedAt: null } };
  }

  has(rawKey: string): boolean {
    return this.db.prepare('SELECT 1 FROM api_keys WHERE hash = ?').get(hashKey(rawKey)) !== undefined;
  }

  list(accountId: number): ApiKeyInfo[] {
    return this.db
      .prepare(
        `SELECT id, prefix, label, created_at AS createdAt, revoked_at AS revokedAt
         FROM api_keys WHERE account_id = ? ORDER BY id`,
      )
      .all(accountId) as ApiKeyInfo[];
  }

  revoke(accountId: number, keyId: number): boolean {
    const info = this.db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL')
      .run(Date.now(), keyId, accountId);
    this.refresh();
    return info.changes === 1;
  }
}
