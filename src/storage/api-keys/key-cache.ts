// Raw API key -> account, in front of both key adapters: a repeated key skips the hash and
// the lookup. Only known keys are remembered (a flood of random keys must not grow it), and it
// is bounded; the adapter empties it whenever accounts or keys may have changed.
import type { Account } from '../accounts/store.js';

const MAX_KEYS = 10_000;

export class ApiKeyCache {
  private readonly byKey = new Map<string, Account>();

  /** The cached account for `key` (a lookup passes no closure: it runs on every call). */
  get(key: string): Account | undefined {
    return this.byKey.get(key);
  }

  /** Remembers a known key's account; returns it, undefined for an unknown key (not remembered). */
  remember(key: string, account: Account | undefined): Account | undefined {
    if (!account) return undefined;
    if (this.byKey.size >= MAX_KEYS) this.byKey.clear();
    this.byKey.set(key, account);
    return account;
  }

  clear(): void {
    this.byKey.clear();
  }
}
