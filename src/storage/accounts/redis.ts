// Accounts shared by every node through Redis (the AccountStore of store.ts): read from the
// node's copy of the directory of accounts and keys (../redis/directory.ts, which says how it
// stays fresh), written by one Lua script each, after which this node reads a fresh copy.
import { newSigningSecret } from '../../accounts/keys.js';
import type { RedisDirectory } from '../redis/directory.js';
import { luaScript } from '../redis/lua.js';
import { ROTATION_OVERLAP_MS, type Account, type AccountStore, type Plan } from './store.js';

// The scripts' KEYS and ARGV are described in src/storage/redis/lua/<concern>/<name>.lua.
const CREATE = luaScript('accounts/create');
const UPDATE = luaScript('accounts/update');
const ROTATE = luaScript('accounts/rotate');

export class RedisAccountStore implements AccountStore {
  constructor(private readonly directory: RedisDirectory, private readonly defaults: { ratePerMinute: number; monthlyCalls: number }) {}

  get(id: number): Account | undefined {
    return this.directory.snapshot.accounts.get(id);
  }

  byEmail(email: string): Account | undefined {
    return this.directory.snapshot.byEmail.get(email);
  }

  list(): Account[] {
    return [...this.directory.snapshot.accounts.values()].sort((a, b) => a.id - b.id);
  }

  refresh(): Promise<void> {
    return this.directory.refresh();
  }

  async create(email: string, plan: Plan = {}): Promise<Account> {
    const { redis, k } = this.directory;
    const id = Number(await CREATE.run(redis, [k.directoryVersion, k.emailIndex, k.accountSequence, k.accountIds], [
      k.directoryChanged, k.prefix, email, newSigningSecret(), plan.ratePerMinute ?? this.defaults.ratePerMinute,
      plan.monthlyCalls ?? this.defaults.monthlyCalls, Date.now(),
    ]));
    if (id === 0) throw new Error(`an account for ${email} exists already`);
    await this.directory.reloadFresh();
    return this.get(id)!;
  }

  /** Sets account fields; false for an unknown account. */
  private async update(accountId: number, fields: Record<string, string | number>): Promise<boolean> {
    const { redis, k } = this.directory;
    const pairs = Object.entries(fields).flat();
    const done = await UPDATE.run(redis, [k.directoryVersion, k.account(accountId)], [k.directoryChanged, ...pairs]);
    await this.directory.reloadFresh();
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
    const { redis, k } = this.directory;
    const secret = newSigningSecret();
    await ROTATE.run(redis, [k.directoryVersion, k.account(accountId)], [k.directoryChanged, secret, now + ROTATION_OVERLAP_MS]);
    await this.directory.reloadFresh();
    return secret;
  }
}
