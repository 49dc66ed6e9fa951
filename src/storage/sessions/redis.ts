// Account page sessions and one-time sign-in links in Redis, so a link issued on one node (or
// by the CLI) and the session it opens work on every node. As in the embedded store only the
// tokens' SHA-256 is kept; Redis expires them, and a link is taken with GETDEL so it works once.
// Password hashes sit on the account's hash, outside the snapshot nodes keep of accounts.
import type { Redis } from '../redis/client.js';
import type { RedisKeys } from '../redis/keys.js';
import { hashPassword, LINK_TTL_MS, SESSION_TTL_MS, sha256, token, verifyPassword, type Session, type Sessions } from './store.js';

export class RedisSessions implements Sessions {
  constructor(private readonly redis: Redis, private readonly k: RedisKeys) {}

  async open(accountId: number): Promise<{ token: string; session: Session }> {
    const raw = token();
    const csrf = token();
    const key = this.k.session(sha256(raw));
    await this.redis.multi().hSet(key, { accountId, csrf }).pExpire(key, SESSION_TTL_MS).exec();
    return { token: raw, session: { accountId, csrf } };
  }

  async get(raw: string | undefined): Promise<Session | undefined> {
    if (!raw) return undefined;
    const row = (await this.redis.hGetAll(this.k.session(sha256(raw)))) as Record<string, string>;
    return row.accountId ? { accountId: Number(row.accountId), csrf: row.csrf } : undefined;
  }

  async close(raw: string): Promise<void> {
    await this.redis.del(this.k.session(sha256(raw)));
  }

  async issueLink(accountId: number): Promise<string> {
    const raw = token();
    await this.redis.set(this.k.loginLink(sha256(raw)), String(accountId), { PX: LINK_TTL_MS });
    return raw;
  }

  async useLink(raw: string): Promise<number | undefined> {
    const accountId = await this.redis.getDel(this.k.loginLink(sha256(raw)));
    return accountId ? Number(accountId) : undefined;
  }

  async setPassword(accountId: number, password: string): Promise<void> {
    // Only on an existing account, as the embedded UPDATE: never a stray hash.
    if (await this.redis.exists(this.k.account(accountId))) {
      await this.redis.hSet(this.k.account(accountId), 'passwordHash', hashPassword(password));
    }
  }

  async checkPassword(email: string, password: string): Promise<number | undefined> {
    const id = await this.redis.hGet(this.k.emailIndex, email);
    if (!id) return undefined;
    const stored = await this.redis.hGet(this.k.account(id), 'passwordHash');
    return verifyPassword(password, stored ?? null) ? Number(id) : undefined;
  }
}
