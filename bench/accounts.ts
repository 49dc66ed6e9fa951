// bench/accounts: what sharing accounts over Redis costs. (1) The API key lookup every request
// makes, embedded (SQLite) and on Redis: both answer synchronously from memory on a cache hit.
// (2) How long a key issued or revoked through one node takes to work or stop working on another
// (each node reloads its copy on the change message, or the 100 ms poll). (3) How long one
// node's full reload of the directory takes, with ACCOUNTS accounts of two keys each.
//   BENCH_REDIS_URL       Redis to use (default redis://127.0.0.1:6379); keys under their own prefix, deleted after
//   BENCH_ACCOUNTS        accounts in the directory (default 1000)
//   BENCH_ACCOUNTS_ROUNDS issue/revoke rounds timed (default 50)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SqliteAccountStore } from '../src/storage/accounts/sqlite.js';
import { newApiKey } from '../src/accounts/keys.js';
import { RedisAccountStore } from '../src/storage/accounts/redis.js';
import { RedisApiKeyStore } from '../src/storage/api-keys/redis.js';
import { SqliteApiKeyStore } from '../src/storage/api-keys/sqlite.js';
import type { ApiKeyStore } from '../src/storage/api-keys/store.js';
import { RedisDirectory } from '../src/storage/redis/directory.js';
import { RedisKeys } from '../src/storage/redis/keys.js';
import { openDatabase } from '../src/storage/sqlite/db.js';
import { connectRedis, deletePrefix } from '../src/storage/redis/client.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ACCOUNTS_ROUNDS ?? 50);
const LOOKUPS = 2_000_000;
const defaults = { ratePerMinute: 120, monthlyCalls: 100_000 };

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

/** Nanoseconds per lookup of a known key, after a warm-up. */
function lookupNs(store: ApiKeyStore, key: string): number {
  for (let i = 0; i < 100_000; i++) store.byApiKey(key);
  const started = performance.now();
  for (let i = 0; i < LOOKUPS; i++) store.byApiKey(key);
  return ((performance.now() - started) * 1e6) / LOOKUPS;
}

/** Milliseconds from `started` until `check` holds, checked as often as the event loop lets it. */
async function msUntil(started: number, check: () => boolean): Promise<number> {
  while (!check()) {
    if (performance.now() - started > 5_000) throw new Error('change did not arrive within 5 s');
    await new Promise((r) => setTimeout(r, 0.2));
  }
  return performance.now() - started;
}

async function main() {
  const prefix = `kerf-bench:accounts:${crypto.randomBytes(4).toString('hex')}:`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-bench-accounts-'));
  const [writerClient, readerClient] = await Promise.all([connectRedis(REDIS_URL, () => {}), connectRedis(REDIS_URL, () => {})]);
  const keys = new RedisKeys(prefix);
  const options = { watch: true, onError: (error: Error) => process.stderr.write(`redis: ${error.message}\n`) };
  // Two nodes: each with its own copy of the directory.
  const [writer, reader] = await Promise.all([RedisDirectory.open(writerClient, keys, options), RedisDirectory.open(readerClient, keys, options)]);
  const writerAccounts = new RedisAccountStore(writer, defaults);
  const writerKeys = new RedisApiKeyStore(writer);
  const readerKeys = new RedisApiKeyStore(reader);
  const db = openDatabase(dataDir);
  const sqliteKeys = new SqliteApiKeyStore(db);
  const sqlite = new SqliteAccountStore(db, defaults, () => sqliteKeys.refresh());
  try {
    // The directory: ACCOUNTS accounts with two keys each, in both stores.
    let redisKey = '';
    let sqliteKey = '';
    for (let i = 0; i < ACCOUNTS; i++) {
      const a = await writerAccounts.create(`bench${i}@example.com`);
      await writerKeys.issue(a.id, 'one');
      redisKey = (await writerKeys.issue(a.id, 'two')).key;
      const s = sqlite.create(`bench${i}@example.com`);
      sqliteKeys.issue(s.id, 'one');
      sqliteKey = sqliteKeys.issue(s.id, 'two').key;
    }
    await reader.refresh();

    const reloads: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      await reader.refresh();
      reloads.push(performance.now() - started);
    }

    const account = writerAccounts.byEmail('bench0@example.com')!;
    const issued: number[] = [];
    const revoked: number[] = [];
    // Timed from the write call: it includes the writing node's own script and reload.
    for (let i = 0; i < ROUNDS; i++) {
      const key = newApiKey();
      let started = performance.now();
      const issuing = writerKeys.issue(account.id, 'round', key);
      issued.push(await msUntil(started, () => readerKeys.byApiKey(key) !== undefined));
      const { info } = await issuing;
      started = performance.now();
      const revoking = writerKeys.revoke(account.id, info.id);
      revoked.push(await msUntil(started, () => readerKeys.byApiKey(key) === undefined));
      await revoking;
    }

    const rows = [
      ['key lookup, embedded (SQLite), cache hit', `${lookupNs(sqliteKeys, sqliteKey).toFixed(0)} ns`],
      ['key lookup, Redis (in-memory copy), cache hit', `${lookupNs(readerKeys, redisKey).toFixed(0)} ns`],
      [`reload of ${ACCOUNTS} accounts / ${2 * ACCOUNTS + 2 * ROUNDS} keys, median`, `${quantile(reloads, 0.5).toFixed(1)} ms`],
      [`issued on node A -> works on node B, median / p95 (${ROUNDS})`, `${quantile(issued, 0.5).toFixed(1)} / ${quantile(issued, 0.95).toFixed(1)} ms`],
      [`revoked on node A -> refused on node B, median / p95 (${ROUNDS})`, `${quantile(revoked, 0.5).toFixed(1)} / ${quantile(revoked, 0.95).toFixed(1)} ms`],
    ];
    const width = Math.max(...rows.map((r) => r[0].length));
    process.stdout.write(`\naccounts over Redis (${REDIS_URL})\n\n| ${'measure'.padEnd(width)} | value |\n|${'-'.repeat(width + 2)}|-------|\n`);
    for (const [what, value] of rows) process.stdout.write(`| ${what.padEnd(width)} | ${value} |\n`);
    process.stdout.write('\n');
  } finally {
    await Promise.all([writer.close(), reader.close()]);
    await deletePrefix(writerClient, prefix);
    await Promise.all([writerClient.close(), readerClient.close()]);
    db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench accounts failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
