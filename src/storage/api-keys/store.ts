// API keys: issued to an account, shown once, kept only as a hash, revoked for good. Two
// adapters: the embedded database (sqlite.ts) and Redis (redis.ts). The lookup is synchronous in
// both, since every authenticated request makes it; writes may be asynchronous, so callers await them.
import type { Account, MaybePromise } from '../accounts/store.js';

export interface ApiKeyInfo {
  id: number;
  prefix: string;
  label: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface ApiKeyStore {
  /** The account a raw API key belongs to, or undefined for an unknown or revoked key. Synchronous: it runs on every call. */
  byApiKey(rawKey: string, now?: number): Account | undefined;
  /** Whether this key was ever issued (revoked ones too). */
  has(rawKey: string): boolean;
  /** The account's keys, oldest first, revoked ones too. */
  list(accountId: number): ApiKeyInfo[];
  /** Issues a key; the raw key is returned once and only its hash is kept. A known key may be imposed (development account). */
  issue(accountId: number, label?: string, rawKey?: string): MaybePromise<{ key: string; info: ApiKeyInfo }>;
  /** True when an active key of this account was revoked. */
  revoke(accountId: number, keyId: number): MaybePromise<boolean>;
  /** Makes the reads see every write committed anywhere so far (another node, the CLI). */
  refresh(): MaybePromise<void>;
}
