// Account page sign-in: passwords (scrypt), one-time sign-in links, and sessions. Tokens are
// random and only their SHA-256 is stored; a session carries its own CSRF token for forms.
import crypto from 'node:crypto';
import type { Db } from '../sqlite/db.js';

export const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');
export const token = () => crypto.randomBytes(32).toString('base64url');

export function hashPassword(password: string): string {
  const salt = crypto.randomBytes(16);
  const key = crypto.scryptSync(password, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export function verifyPassword(password: string, stored: string | null): boolean {
  const [scheme, salt, key] = (stored ?? '').split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = crypto.scryptSync(password, Buffer.from(salt, 'base64url'), expected.length);
  return crypto.timingSafeEqual(actual, expected);
}

export interface Session {
  accountId: number;
  csrf: string;
}

export const SESSION_TTL_MS = 12 * 3600 * 1000;
export const LINK_TTL_MS = 24 * 3600 * 1000;

type MaybePromise<T> = T | Promise<T>;

/** Sessions, sign-in links and passwords: in the embedded database here, in Redis by redis-sessions.ts. */
export interface Sessions {
  open(accountId: number, now?: number): MaybePromise<{ token: string; session: Session }>;
  get(raw: string | undefined, now?: number): MaybePromise<Session | undefined>;
  close(raw: string): MaybePromise<void>;
  issueLink(accountId: number, now?: number): MaybePromise<string>;
  useLink(raw: string, now?: number): MaybePromise<number | undefined>;
  setPassword(accountId: number, password: string): MaybePromise<void>;
  checkPassword(email: string, password: string): MaybePromise<number | undefined>;
}

export class SqliteSessions implements Sessions {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      create: db.prepare('INSERT INTO sessions (hash, account_id, csrf, expires_at) VALUES (?, ?, ?, ?)'),
      get: db.prepare('SELECT account_id AS accountId, csrf FROM sessions WHERE hash = ? AND expires_at > ?'),
      drop: db.prepare('DELETE FROM sessions WHERE hash = ?'),
      sweep: db.prepare('DELETE FROM sessions WHERE expires_at <= ?'),
      link: db.prepare('INSERT INTO login_tokens (hash, account_id, expires_at) VALUES (?, ?, ?)'),
      takeLink: db.prepare('DELETE FROM login_tokens WHERE hash = ? AND expires_at > ? RETURNING account_id AS accountId'),
      password: db.prepare('UPDATE accounts SET password_hash = ? WHERE id = ?'),
      passwordOf: db.prepare('SELECT id, password_hash AS hash FROM accounts WHERE email = ?'),
    };
  }

  /** Starts a session; the raw token goes in the cookie. */
  open(accountId: number, now = Date.now()): { token: string; session: Session } {
    const raw = token();
    const csrf = token();
    this.s.sweep.run(now);
    this.s.create.run(sha256(raw), accountId, csrf, now + SESSION_TTL_MS);
    return { token: raw, session: { accountId, csrf } };
  }

  get(raw: string | undefined, now = Date.now()): Session | undefined {
    return raw ? (this.s.get.get(sha256(raw), now) as Session | undefined) : undefined;
  }

  close(raw: string): void {
    this.s.drop.run(sha256(raw));
  }

  /** A sign-in link token, usable once within LINK_TTL_MS. */
  issueLink(accountId: number, now = Date.now()): string {
    const raw = token();
    this.s.link.run(sha256(raw), accountId, now + LINK_TTL_MS);
    return raw;
  }

  /** The account a link signs into, consuming it; undefined when unknown, used or expired. */
  useLink(raw: string, now = Date.now()): number | undefined {
    return (this.s.takeLink.get(sha256(raw), now) as { accountId: number } | undefined)?.accountId;
  }

  setPassword(accountId: number, password: string): void {
    this.s.password.run(hashPassword(password), accountId);
  }

  /** The account whose e-mail and password match. */
  checkPassword(email: string, password: string): number | undefined {
    const row = this.s.passwordOf.get(email) as { id: number; hash: string | null } | undefined;
    return row && verifyPassword(password, row.hash) ? row.id : undefined;
  }
}
