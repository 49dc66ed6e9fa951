// The accounts and API keys every node shares through Redis, as one in-memory copy per node.
// Reads must stay synchronous (the key lookup runs on every request) and accounts are few, so
// each node keeps the whole directory and swaps in a fresh copy when it changes. Every write is
// one Lua script that also bumps a version counter and publishes it; nodes reload on the message,
// and a 100 ms poll of the counter covers a missed message. Until the new copy is in, lookups
// answer from the old one, so a change made anywhere takes effect everywhere within about 0.1 s.
// The account store (../accounts/redis.ts) and the key store (../api-keys/redis.ts) read and
// write through one directory, so a key always resolves to the account as of the same copy.
import type { Account } from '../accounts/store.js';
import type { ApiKeyInfo } from '../api-keys/store.js';
import type { Redis } from './client.js';
import type { RedisKeys } from './keys.js';
import { luaScript } from './lua.js';

// KEYS and ARGV are described in lua/accounts/read.lua.
const READ = luaScript('accounts/read');

/** [field, value, field, value...] as an object. */
function fields(flat: string[]): Record<string, string> {
  const row: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) row[flat[i]] = flat[i + 1];
  return row;
}

/** One node's copy of the directory, as of `version`. */
export interface Snapshot {
  version: number;
  accounts: Map<number, Account>;
  byEmail: Map<string, Account>;
  /** Hash of every active key -> its account. */
  byKeyHash: Map<string, Account>;
  /** Hash of every key ever issued, revoked ones too. */
  knownHashes: Set<string>;
  keys: Map<number, ApiKeyInfo[]>;
}

const EMPTY: Snapshot = { version: -1, accounts: new Map(), byEmail: new Map(), byKeyHash: new Map(), knownHashes: new Set(), keys: new Map() };

const numberOrNull = (value: string | undefined) => (value === undefined || value === '' ? null : Number(value));

function toAccount(id: number, row: Record<string, string>): Account {
  return {
    id,
    email: row.email,
    ratePerMinute: Number(row.ratePerMinute),
    monthlyCalls: Number(row.monthlyCalls),
    onHold: row.onHold === '1',
    webhookUrl: row.webhookUrl ?? null,
    signingSecret: row.signingSecret,
    previousSecret: row.previousSecret ?? null,
    previousSecretUntil: numberOrNull(row.previousSecretUntil),
  };
}

export interface RedisDirectoryOptions {
  /** Follow other nodes' changes (servers); a one-shot CLI run reads once and skips this. */
  watch: boolean;
  onError: (error: Error) => void;
}

export class RedisDirectory {
  /** The current copy; replaced whole, never changed in place (so identity tells a new copy). */
  snapshot = EMPTY;
  private loading?: Promise<void>;
  private subscriber?: Redis;
  private poller?: NodeJS.Timeout;
  private polling = false;

  private constructor(readonly redis: Redis, readonly k: RedisKeys, private readonly options: RedisDirectoryOptions) {}

  static async open(redis: Redis, keys: RedisKeys, options: RedisDirectoryOptions): Promise<RedisDirectory> {
    const directory = new RedisDirectory(redis, keys, options);
    await directory.refresh();
    if (options.watch) await directory.watch();
    return directory;
  }

  private async watch(): Promise<void> {
    const subscriber = this.redis.duplicate();
    subscriber.on('error', this.options.onError);
    await subscriber.connect();
    await subscriber.subscribe(this.k.directoryChanged, (message) => {
      // A read already under way may have started before this change: read again after it.
      if (Number(message) !== this.snapshot.version) this.reloadFresh().catch(this.options.onError);
    });
    this.subscriber = subscriber;
    this.poller = setInterval(() => void this.poll(), 100);
    this.poller.unref();
  }

  /** The fallback for a missed message (a subscriber reconnecting): compare the counter. */
  private async poll(): Promise<void> {
    // One poll at a time: while Redis is away a poll waits, and must not pile up behind itself.
    if (this.polling) return;
    this.polling = true;
    try {
      const version = Number((await this.redis.get(this.k.directoryVersion)) ?? 0);
      if (version !== this.snapshot.version) await this.refresh();
    } catch (error) {
      this.options.onError(error as Error);
    } finally {
      this.polling = false;
    }
  }

  /** Reads a new snapshot; calls while one is being read share it. */
  refresh(): Promise<void> {
    this.loading ??= this.read()
      .then((snapshot) => {
        this.snapshot = snapshot;
      })
      .finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** A snapshot read that starts after now (after this node's own write, or a change message). */
  async reloadFresh(): Promise<void> {
    await this.loading?.catch(() => {});
    await this.refresh();
  }

  private async read(): Promise<Snapshot> {
    // One script, so the copy is never torn between two writes; the version comes with it.
    const [rawVersion, accountList, keyList] = (await READ.run(this.redis, [this.k.directoryVersion, this.k.accountIds, this.k.keyIds], [this.k.prefix])) as
      [string, (string | string[])[], (string | string[])[]];
    const version = Number(rawVersion);
    const accountIds = accountList.filter((_, i) => i % 2 === 0) as string[];
    const accountRows = accountList.filter((_, i) => i % 2 === 1).map((flat) => fields(flat as string[]));
    const keyIds = keyList.filter((_, i) => i % 2 === 0) as string[];
    const keyRows = keyList.filter((_, i) => i % 2 === 1).map((flat) => fields(flat as string[]));
    const snapshot: Snapshot = { version, accounts: new Map(), byEmail: new Map(), byKeyHash: new Map(), knownHashes: new Set(), keys: new Map() };
    accountIds.forEach((id, i) => {
      if (!accountRows[i].email) return;
      const account = toAccount(Number(id), accountRows[i]);
      snapshot.accounts.set(account.id, account);
      snapshot.byEmail.set(account.email, account);
    });
    const infos: (ApiKeyInfo & { accountId: number })[] = [];
    keyIds.forEach((id, i) => {
      const row = keyRows[i];
      if (!row.hash) return;
      const accountId = Number(row.accountId);
      snapshot.knownHashes.add(row.hash);
      const revokedAt = numberOrNull(row.revokedAt);
      const account = snapshot.accounts.get(accountId);
      if (account && revokedAt === null) snapshot.byKeyHash.set(row.hash, account);
      infos.push({ id: Number(id), accountId, prefix: row.prefix, label: row.label ?? '', createdAt: Number(row.createdAt), revokedAt });
    });
    infos.sort((a, b) => a.id - b.id);
    for (const { accountId, ...info } of infos) {
      const list = snapshot.keys.get(accountId) ?? [];
      list.push(info);
      snapshot.keys.set(accountId, list);
    }
    return snapshot;
  }

  async close(): Promise<void> {
    if (this.poller) clearInterval(this.poller);
    await this.loading?.catch(() => {});
    await this.subscriber?.close().catch(() => {});
  }
}
