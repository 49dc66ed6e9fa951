// The local development account `make run` prints a key for. Keys are stored hashed, so the
// raw development key is kept in a 0600 file in the data directory to be shown again next run;
// KERF_DEV_API_KEY imposes a known key instead (scripts and benchmarks).
import fs from 'node:fs';
import path from 'node:path';
import type { Account, AccountStore } from '../storage/accounts/store.js';
import type { ApiKeyStore } from '../storage/api-keys/store.js';

export const DEV_EMAIL = 'dev@localhost';

export async function ensureDevAccount(accounts: AccountStore, apiKeys: ApiKeyStore, dataDir: string, knownKey?: string): Promise<{ accountId: number; apiKey: string }> {
  const account = accounts.byEmail(DEV_EMAIL) ?? await createDevAccount(accounts);
  if (knownKey) {
    if (!apiKeys.has(knownKey)) await apiKeys.issue(account.id, 'KERF_DEV_API_KEY', knownKey);
    return { accountId: account.id, apiKey: knownKey };
  }
  const file = path.join(dataDir, 'dev-api-key');
  const saved = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
  if (saved && apiKeys.byApiKey(saved)?.id === account.id) return { accountId: account.id, apiKey: saved };
  const { key } = await apiKeys.issue(account.id, 'development');
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return { accountId: account.id, apiKey: key };
}

/** Several API nodes on one Redis may start at once: the one that loses the race uses the winner's account. */
async function createDevAccount(accounts: AccountStore): Promise<Account> {
  try {
    return await accounts.create(DEV_EMAIL);
  } catch (error) {
    await accounts.refresh();
    const account = accounts.byEmail(DEV_EMAIL);
    if (!account) throw error;
    return account;
  }
}
