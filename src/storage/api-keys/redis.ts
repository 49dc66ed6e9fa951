// API keys shared by every node through Redis (the ApiKeyStore of store.ts): read from the
// node's copy of the directory (../redis/directory.ts), written by one Lua script each, after
// which this node reads a fresh copy. Repeated keys skip the hash through a cache dropped with
// every new copy.
import type { Account } from '../accounts/store.js';
import { hashKey, keyPrefix, newApiKey } from '../../accounts/keys.js';
import type { RedisDirectory, Snapshot } from '../redis/directory.js';
import { luaScript } from '../redis/lua.js';
import { ApiKeyCache } from './key-cache.js';
import type { ApiKeyInfo, ApiKeyStore } from './store.js';

// The scripts' KEYS and ARGV are described in src/storage/redis/lua/<concern>/<name>.lua.
const ISSUE = luaScript('api-keys/issue');
const REVOKE = luaScript('api-keys/revoke');

export class RedisApiKeyStore implements ApiKeyStore {
  private readonly cache = new ApiKeyCache();
  /** The copy the cache's answers came from. */
  private cachedFrom?: Snapshot;

  constructor(private readonly directory: RedisDirectory) {}

  byApiKey(key: string): Account | undefined {
    const snapshot = this.directory.snapshot;
    if (snapshot !== this.cachedFrom) {
      this.cache.clear();
      this.cachedFrom = snapshot;
    }
    return this.cache.get(key) ?? this.cache.remember(key, snapshot.byKeyHash.get(hashKey(key)));
  }

  has(rawKey: string): boolean {
    return this.directory.snapshot.knownHashes.has(hashKey(rawKey));
  }

  list(accountId: number): ApiKeyInfo[] {
    return this.directory.snapshot.keys.get(accountId) ?? [];
  }

  refresh(): Promise<void> {
    return this.directory.refresh();
  }

  async issue(accountId: number, label = '', rawKey = newApiKey()): Promise<{ key: string; info: ApiKeyInfo }> {
    const { redis, k } = this.directory;
    const now = Date.now();
    const id = Number(await ISSUE.run(redis, [k.directoryVersion, k.keyHashIndex, k.keySequence, k.keyIds], [
      k.directoryChanged, k.prefix, accountId, hashKey(rawKey), keyPrefix(rawKey), label, now,
    ]));
    if (id === 0) throw new Error(`no account ${accountId}`);
    await this.directory.reloadFresh();
    const info = this.list(accountId).find((key) => key.id === Math.abs(id))
      ?? { id: Math.abs(id), prefix: keyPrefix(rawKey), label, createdAt: now, revokedAt: null };
    return { key: rawKey, info };
  }

  async revoke(accountId: number, keyId: number): Promise<boolean> {
    const { redis, k } = this.directory;
    const revoked = await REVOKE.run(redis, [k.directoryVersion], [k.directoryChanged, k.prefix, accountId, keyId, Date.now()]);
    await this.directory.reloadFresh();
    return revoked === 1;
  }
}
