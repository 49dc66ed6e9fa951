// The embedded database: one SQLite file in the data directory, in WAL mode so the API
// reads while the dispatcher writes. Migrations are numbered and applied once.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

const migrations: string[] = [
  `CREATE TABLE accounts (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     email TEXT NOT NULL UNIQUE COLLATE NOCASE,
     password_hash TEXT,
     signing_secret TEXT NOT NULL,
     webhook_url TEXT,
     rate_per_minute INTEGER NOT NULL,
     monthly_calls INTEGER NOT NULL,
     on_hold INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE api_keys (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     account_id INTEGER NOT NULL REFERENCES accounts(id),
     hash TEXT NOT NULL UNIQUE,
     prefix TEXT NOT NULL,
     label TEXT NOT NULL DEFAULT '',
     created_at INTEGER NOT NULL,
     revoked_at INTEGER
   );
   CREATE TABLE usage (
     account_id INTEGER NOT NULL REFERENCES accounts(id),
     month TEXT NOT NULL,
     calls INTEGER NOT NULL DEFAULT 0,
     compute_ms INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (account_id, month)
   );
   CREATE TABLE jobs (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     account_id INTEGER NOT NULL,
     kind TEXT NOT NULL,
     state TEXT NOT NULL,
     request TEXT NOT NULL,
     webhook TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     lease_owner TEXT,
     created_at INTEGER NOT NULL,
     started_at INTEGER,
     finished_at INTEGER,
     result TEXT,
     error TEXT,
     compute_ms INTEGER
   );
   CREATE INDEX jobs_queue ON jobs(state, id);
   CREATE INDEX jobs_finished ON jobs(state, finished_at);`,
  // Webhooks: the outbox (one row per delivery, stable id across attempts), its attempt log,
  // endpoint health on the account, and the previous signing secret during a rotation.
  `CREATE TABLE deliveries (
     id TEXT PRIMARY KEY,
     account_id INTEGER NOT NULL,
     job_id INTEGER NOT NULL,
     event TEXT NOT NULL,
     url TEXT NOT NULL,
     account_default INTEGER NOT NULL,
     body TEXT NOT NULL,
     state TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     last_status INTEGER,
     last_error TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX deliveries_due ON deliveries(state, next_attempt_at);
   CREATE INDEX deliveries_account ON deliveries(account_id, created_at);
   CREATE TABLE delivery_attempts (
     delivery_id TEXT NOT NULL REFERENCES deliveries(id),
     attempt INTEGER NOT NULL,
     at INTEGER NOT NULL,
     status INTEGER,
     error TEXT,
     duration_ms INTEGER NOT NULL,
     PRIMARY KEY (delivery_id, attempt)
   );
   ALTER TABLE accounts ADD COLUMN previous_secret TEXT;
   ALTER TABLE accounts ADD COLUMN previous_secret_until INTEGER;
   ALTER TABLE accounts ADD COLUMN webhook_failing_since INTEGER;
   ALTER TABLE accounts ADD COLUMN webhook_warned_at INTEGER;
   ALTER TABLE accounts ADD COLUMN webhook_disabled_at INTEGER;`,
  // The account page: signed-in sessions and one-time sign-in links, both stored as hashes.
  `CREATE TABLE sessions (
     hash TEXT PRIMARY KEY,
     account_id INTEGER NOT NULL REFERENCES accounts(id),
     csrf TEXT NOT NULL,
     expires_at INTEGER NOT NULL
   );
   CREATE TABLE login_tokens (
     hash TEXT PRIMARY KEY,
     account_id INTEGER NOT NULL REFERENCES accounts(id),
     expires_at INTEGER NOT NULL
   );`,
  // The account page lists an account's latest jobs.
  `CREATE INDEX jobs_account ON jobs(account_id, id);`,
  // Deliveries: the endpoint (host) each goes to, so slow endpoints get their own concurrency,
  // and the last attempt number handed out, so one cut short by a restart is not sent again under it.
  `ALTER TABLE deliveries ADD COLUMN endpoint TEXT NOT NULL DEFAULT '';
   ALTER TABLE deliveries ADD COLUMN sent INTEGER NOT NULL DEFAULT 0;
   DROP INDEX deliveries_due;
   CREATE INDEX deliveries_due ON deliveries(state, next_attempt_at, endpoint);
   CREATE INDEX jobs_account_queue ON jobs(state, account_id, id);`,
];

export function openDatabase(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'kerf.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version]);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
