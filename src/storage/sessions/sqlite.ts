// Sessions, sign-in links and passwords in the embedded database (the Sessions of store.ts).
import type { Db } from '../sqlite/db.js';
import { LINK_TTL_MS, SESSION_TTL_MS, hashPassword, sha256, token, verifyPassword, type Session, type Sessions } from './store.js';

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
