// Accounts and API keys shared by every node through Redis. Reads must stay synchronous (the
// key lookup runs on every request), so each node keeps the whole directory in memory (accounts
// are few) and swaps in a fresh copy when it changes. Every write is one Lua script that also
// bumps a version counter and publishes it; nodes reload on the message, and a 100 ms poll of the
// counter covers a missed message. Until the new copy is in, lookups answer from the old one, so
// a key issued or revoked anywhere takes effect everywhere within about 0.1 s.
import type { Redis } from '../redis/client.js';
import { luaScript } from '../redis/lua.js';
import { ApiKeyCache } from './key-cache.js';
import { ROTATION_OVERLAP_MS, type Account, type AccountStore, type ApiKeyInfo, type Plan } from './store.js';
import { hashKey, keyPrefix, newApiKey, newSigningSecret } from '../../accounts/keys.js';
import type { AccountKeys } from '../redis/account-keys.js';

// The scripts' KEYS and ARGV are described in src/storage/redis/lua/<concern>/<name>.lua.
const CREATE = luaScript('accounts/create');
const ISSUE = luaScript('accounts/issue');
const REVOKE = luaScript('accounts/revoke');
const UPDATE = luaScript('accounts/update');
const ROTATE = luaScript('accounts/rotate');
const READ = luaScript('accounts/read');

/** [field, value, field, value...] as an object. */
function fields(flat: string[]): Record<string, string> {
  const row: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) row[flat[i]] = flat[i + 1];
  return row;
}

/** One node's copy of the directory, as of `version`. */
interface Snapshot {
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

export interface RedisAccountStoreOptions {
  defaults: { ratePerMinute: number; monthlyCalls: number };
  /** Follow other nodes' changes (servers); a one-shot CLI run reads once and skips this. */
  watch: boolean;
  onError: (error: Error) => void;
}

export class RedisAccountStore implements AccountStore {
  private snapshot = EMPTY;
  /** Raw key -> account, so a repeated key skips the hash; emptied with every new snapshot. */
  private readonly keyCache = new ApiKeyCache();
  private loading?: Promise<void>;
  private subscriber?: Redis;
  private poller?: NodeJS.Timeout;
  private polling = false;

  private constructor(private readonly redis: Redis, private readonly k: AccountKeys, private readonly options: RedisAccountStoreOptions) {}

  static async open(redis: Redis, keys: AccountKeys, options: RedisAccountStoreOptions): Promise<RedisAccountStore> {
    const store = new RedisAccountStore(redis, keys, options);
    await store.refresh();
    if (options.watch) await store.watch();
    return store;
  }

  private async watch(): Promise<void> {
    const subscriber = this.redis.duplicate();
    subscriber.on('error', this.options.onError);
    await subscriber.connect();
    await subscriber.subscribe(this.k.changed, (message) => {
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
      const version = Number((await this.redis.get(this.k.version)) ?? 0);
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
        this.keyCache.clear();
      })
      .finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** A snapshot read that starts after now (after this node's own write, or a change message). */
  private async reloadFresh(): Promise<void> {
    await this.loading?.catch(() => {});
    await this.refresh();
  }

  private async read(): Promise<Snapshot> {
    // One script, so the copy is never torn between two writes; the version comes with it.
    const [rawVersion, accountList, keyList] = (await READ.run(this.redis, [this.k.version, this.k.accountIds, this.k.keyIds], [this.k.prefix])) as
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

  get(id: number): Account | undefined {
    return this.snapshot.accounts.get(id);
  }

  byEmail(email: string): Account | undefined {
    return this.snapshot.byEmail.get(email);
  }

  list(): Account[] {
    return [...this.snapshot.accounts.values()].sort((a, b) => a.id - b.id);
  }

  byApiKey(key: string): Account | undefined {
    return this.keyCache.get(key, () => this.snapshot.byKeyHash.get(hashKey(key)));
  }

  hasKey(rawKey: string): boolean {
    return this.snapshot.knownHashes.has(hashKey(rawKey));
  }

  keys(accountId: number): ApiKeyInfo[] {
    return this.snapshot.keys.get(accountId) ?? [];
  }

  async create(email: string, plan: Plan = {}): Promise<Account> {
    const id = Number(await CREATE.run(this.redis, [this.k.version, this.k.emailIndex, this.k.accountSequence, this.k.accountIds], [
      this.k.changed, this.k.prefix, email, newSigningSecret(), plan.ratePerMinute ?? this.options.defaults.ratePerMinute,
      plan.monthlyCalls ?? this.options.defaults.monthlyCalls, Date.now(),
    ]));
    if (id === 0) throw new Error(`an account for ${email} exists already`);
    await this.reloadFresh();
    return this.get(id)!;
  }

  async issueKey(accountId: number, label = '', rawKey = newApiKey()): Promise<{ key: string; info: ApiKeyInfo }> {
    const now = Date.now();
    const id = Number(await ISSUE.run(this.redis, [this.k.version, this.k.keyHashIndex, this.k.keySequence, this.k.keyIds], [
      this.k.changed, this.k.prefix, accountId, hashKey(rawKey), keyPrefix(rawKey), label, now,
    ]));
    if (id === 0) throw new Error(`no account ${accountId}`);
    await this.reloadFresh();
    const info = this.keys(accountId).find((k) => k.id === Math.abs(id))
      ?? { id: Math.abs(id), prefix: keyPrefix(rawKey), label, createdAt: now, revokedAt: null };
    return { key: rawKey, info };
  }

  async revokeKey(accountId: number, keyId: number): Promise<boolean> {
    const revoked = await REVOKE.run(this.redis, [this.k.version], [this.k.changed, this.k.prefix, accountId, keyId, Date.now()]);
    await this.reloadFresh();
    return revoked === 1;
  }

  /** Sets account fields; false for an unknown account. */
  private async update(accountId: number, fields: Record<string, string | number>): Promise<boolean> {
    const pairs = Object.entries(fields).flat();
    const done = await UPDATE.run(this.redis, [this.k.version, this.k.account(accountId)], [this.k.changed, ...pairs]);
    await this.reloadFresh();
    return done === 1;
  }

  async setPlan(accountId: number, plan: Plan): Promise<void> {
    const account = this.get(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    await this.update(accountId, {
      ratePerMinute: plan.ratePerMinute ?? account.ratePerMinute,
      monthlyCalls: plan.monthlyCalls ?? account.monthlyCalls,
    });
  }

  async setWebhookUrl(accountId: number, url: string | null): Promise<void> {
    await this.update(accountId, { webhookUrl: url ?? '' });
  }

  async setHold(accountId: number, onHold: boolean): Promise<void> {
    await this.update(accountId, { onHold: onHold ? '1' : '0' });
  }

  /** A new signing secret; the old one keeps signing for ROTATION_OVERLAP_MS. */
  async rotateSigningSecret(accountId: number, now = Date.now()): Promise<string> {
    const secret = newSigningSecret();
    await ROTATE.run(this.redis, [this.k.version, this.k.account(accountId)], [this.k.changed, secret, now + ROTATION_OVERLAP_MS]);
    await this.reloadFresh();
    return secret;
  }

  async close(): Promise<void> {
    if (this.poller) clearInterval(this.poller);
    await this.loading?.catch(() => {});
    await this.subscriber?.close().catch(() => {});
  }
}
