// Raw API key -> account, in front of both key adapters: a repeated key skips the hash and
// the lookup. Only known keys are remembered (a flood of random keys must not grow it), and it
// is bounded; the adapter empties it whenever accounts or keys may have changed.
import type { Account } from '../accounts/store.js';

const MAX_KEYS = 10_000;

export class ApiKeyCache {
  private readonly byKey = new Map<string, Account>();

  /** The cached account for `key`, else `lookup`'s answer (remembered when there is one). */
  get(key: string, lookup: () => Account | undefined): Account | undefined {
    const cached = this.byKey.get(key);
    if (cached) return cached;
    const account = lookup();
    if (!account) return undefined;
    if (this.byKey.size >= MAX_KEYS) this.byKey.clear();
    this.byKey.set(key, account);
    return account;
  }

  clear(): void {
    this.byKey.clear();
  }
}
