// Where accounts, API keys, sessions and endpoint health live in Redis, under the deployment's
// prefix (KERF_REDIS_PREFIX) like everything else, so a test run or deployment drops as a whole.
export class AccountKeys {
  constructor(readonly prefix: string) {}

  /** INCR counters behind account and key ids: unique across every node. */
  get accountSequence() { return `${this.prefix}account-seq`; }
  get keySequence() { return `${this.prefix}apikey-seq`; }
  /** Ids of every account and every key (the snapshot each node keeps is read from these). */
  get accountIds() { return `${this.prefix}accounts:ids`; }
  get keyIds() { return `${this.prefix}apikeys:ids`; }
  /** E-mail -> account id (e-mails are unique), and key hash -> key id. */
  get emailIndex() { return `${this.prefix}accounts:email`; }
  get keyHashIndex() { return `${this.prefix}apikeys:hash`; }
  /** Hash per account (plan, hold, webhook, secrets, password hash) and per key. */
  account(id: number | string) { return `${this.prefix}account:${id}`; }
  apiKey(id: number | string) { return `${this.prefix}apikey:${id}`; }
  /** Bumped by every account or key change; its new value is published on `changed`. */
  get version() { return `${this.prefix}accounts:version`; }
  get changed() { return `${this.prefix}accounts:changed`; }

  session(tokenHash: string) { return `${this.prefix}session:${tokenHash}`; }
  loginLink(tokenHash: string) { return `${this.prefix}login-link:${tokenHash}`; }
  webhookHealth(accountId: number) { return `${this.prefix}webhook-health:${accountId}`; }
}
