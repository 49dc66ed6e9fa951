// Tests on Redis use the shared server at 127.0.0.1:6379 (or KERF_TEST_REDIS_URL), each under
// its own key prefix, and delete every key under it when done.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectRedis, deletePrefix } from '../../src/storage/redis/client.js';
import { call } from './client.js';
import { cli } from './server.js';

export const TEST_REDIS_URL = process.env.KERF_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export function testPrefix(label: string): string {
  return `kerf-test:${label}:${process.pid}-${crypto.randomBytes(4).toString('hex')}:`;
}

export async function dropPrefix(prefix: string, url = TEST_REDIS_URL): Promise<number> {
  const client = await connectRedis(url, () => {});
  try {
    return await deletePrefix(client, prefix);
  } finally {
    await client.close();
  }
}

/** Runs the CLI against a cluster's Redis (and a data directory of its own, as on another machine). */
export async function redisCli(redis: { url: string; prefix: string }, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const previous = { url: process.env.KERF_REDIS_URL, prefix: process.env.KERF_REDIS_PREFIX };
  process.env.KERF_REDIS_URL = redis.url;
  process.env.KERF_REDIS_PREFIX = redis.prefix;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-cli-'));
  try {
    return await cli(dataDir, ...args);
  } finally {
    restore('KERF_REDIS_URL', previous.url);
    restore('KERF_REDIS_PREFIX', previous.prefix);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/**
 * Polls until every node accepts (anything but 401) or refuses (401) the key: a key issued or
 * revoked on one node or by the CLI reaches the others within about 0.1 s, not at once.
 */
export async function untilKeyIs(state: 'accepted' | 'refused', urls: string[], key: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const statuses = await Promise.all(urls.map(async (url) => (await call(`${url}/v3/result/ready?id=1`, { key })).status));
    if (statuses.every((status) => (state === 'refused') === (status === 401))) return;
    if (Date.now() > deadline) throw new Error(`key not ${state} on every node: ${statuses.join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
