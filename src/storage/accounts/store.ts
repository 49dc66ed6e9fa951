// Accounts, their plans, hold flag, default webhook and signing secrets, as the service sees
// them (their API keys are the ApiKeyStore of ../api-keys/). Two adapters: the embedded database
// (sqlite.ts) and Redis (redis.ts). Reads are synchronous in both, since an authenticated request
// reads its account; writes may be asynchronous, so callers await them.

export interface Account {
  id: number;
  email: string;
  ratePerMinute: number;
  monthlyCalls: number;
  onHold: boolean;
  webhookUrl: string | null;
  signingSecret: string;
  /** The secret before the last rotation, still signed with until `previousSecretUntil`. */
  previousSecret: string | null;
  previousSecretUntil: number | null;
}

/** How long an old signing secret keeps signing after a rotation, so receivers can switch. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export type MaybePromise<T> = T | Promise<T>;

export type Plan = Partial<{ ratePerMinute: number; monthlyCalls: number }>;

export interface AccountStore {
  get(id: number): Account | undefined;
  byEmail(email: string): Account | undefined;
  list(): Account[];
  create(email: string, plan?: Plan): MaybePromise<Account>;
  setPlan(accountId: number, plan: Plan): MaybePromise<void>;
  setWebhookUrl(accountId: number, url: string | null): MaybePromise<void>;
  rotateSigningSecret(accountId: number, now?: number): MaybePromise<string>;
  setHold(accountId: number, onHold: boolean): MaybePromise<void>;
  /** Makes the reads see every write committed anywhere so far (another node, the CLI). */
  refresh(): MaybePromise<void>;
}

/** The secrets a delivery is signed with now: the current one, and the previous one during the overlap. */
export function signingSecrets(account: Account, now: number): string[] {
  const previous = account.previousSecret && (account.previousSecretUntil ?? 0) > now ? [account.previousSecret] : [];
  return [account.signingSecret, ...previous];
}
