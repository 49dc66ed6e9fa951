// Account page sign-in as the service sees it: sessions, one-time sign-in links and passwords,
// with the token and password hashing both adapters (sqlite.ts, redis.ts) share. Tokens are
// random and only their SHA-256 is stored; a session carries its own CSRF token for forms.
import crypto from 'node:crypto';

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

export type MaybePromise<T> = T | Promise<T>;

/** Sessions, sign-in links and passwords: in the embedded database (sqlite.ts) or in Redis (redis.ts). */
export interface Sessions {
  open(accountId: number, now?: number): MaybePromise<{ token: string; session: Session }>;
  get(raw: string | undefined, now?: number): MaybePromise<Session | undefined>;
  close(raw: string): MaybePromise<void>;
  issueLink(accountId: number, now?: number): MaybePromise<string>;
  useLink(raw: string, now?: number): MaybePromise<number | undefined>;
  setPassword(accountId: number, password: string): MaybePromise<void>;
  checkPassword(email: string, password: string): MaybePromise<number | undefined>;
}
