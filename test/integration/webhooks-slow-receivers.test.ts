// One slow receiver holds up only its own deliveries, through the running service on both
// deployments (the SQLite outbox, and the Redis outbox): while deliveries to a receiver that
// never answers hang, a healthy receiver gets its delivery, and the slow one never has more
// than its endpoint's share of connections. Judged by order of events, not by durations.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submit } from '../support/client.js';
import { dropPrefix, testPrefix, TEST_REDIS_URL } from '../support/redis.js';
import { DEV_KEY, startServer, type KerfServer } from '../support/server.js';

const request = (webhook: string) => ({ stock: [{ l: 1000, w: 600 }], parts: [{ l: 300, w: 200, q: 2 }], webhook });

/** A loopback receiver that writes what happens to a shared log; `hang` keeps requests open until kerf gives up. */
async function receiver(name: string, log: string[], hang: boolean) {
  let open = 0;
  let mostOpen = 0;
  const server = http.createServer((req, res) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    log.push(`${name}: received job ${'pending'}`);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      log[log.length - 1] = `${name}: received job ${JSON.parse(Buffer.concat(chunks).toString()).jobId}`;
      if (!hang) res.writeHead(204).end();
    });
    res.on('close', () => {
      open--;
      if (hang) log.push(`${name}: gave up`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    get open() { return open; },
    get mostOpen() { return mostOpen; },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function until(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const deployments: [string, () => { env: Record<string, string>; cleanup: () => Promise<unknown> }][] = [
  ['embedded (SQLite outbox)', () => ({ env: {}, cleanup: async () => {} })],
  ['Redis', () => {
    const prefix = testPrefix('slow-hooks');
    return { env: { KERF_REDIS_URL: TEST_REDIS_URL, KERF_REDIS_PREFIX: prefix }, cleanup: () => dropPrefix(prefix) };
  }],
];

describe.each(deployments)('webhook deliveries with a receiver that never answers: %s', (_, deployment) => {
  let server: KerfServer;
  let cleanup: () => Promise<unknown>;
  const log: string[] = [];
  let slow: Awaited<ReturnType<typeof receiver>>;
  let healthy: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    const setup = deployment();
    cleanup = setup.cleanup;
    slow = await receiver('slow', log, true);
    healthy = await receiver('healthy', log, false);
    server = await startServer({ env: { ...setup.env, KERF_WEBHOOK_ALLOW_LOOPBACK: '1', KERF_WEBHOOK_ENDPOINT_CONCURRENCY: '2' } });
  });
  afterAll(async () => {
    // Closing the receivers ends the hanging requests, so the server stops without waiting for them.
    await slow?.close();
    await healthy?.close();
    await server?.stop();
    await cleanup?.();
  });

  it('delivers to a healthy endpoint while the slow one hangs, and gives the slow one only its share', async () => {
    for (let i = 0; i < 6; i++) await submit(server.url, DEV_KEY, request(slow.url));
    await until('a delivery hanging at the slow receiver', () => slow.open >= 1);
    const jobId = await submit(server.url, DEV_KEY, request(healthy.url));
    await until('the healthy delivery', () => log.includes(`healthy: received job ${jobId}`));
    // Nothing at the slow receiver had ended when the healthy one was served.
    const healthyAt = log.indexOf(`healthy: received job ${jobId}`);
    expect(log.slice(0, healthyAt).filter((line) => line.startsWith('slow: gave up'))).toEqual([]);
    // The slow endpoint has its two connections, never more, and the rest of its deliveries wait.
    await until('two deliveries hanging at the slow receiver', () => slow.open === 2);
    expect(slow.mostOpen).toBe(2);
    expect(log.filter((line) => line.startsWith('slow: received'))).toHaveLength(2);
    expect(log.filter((line) => line.startsWith('slow: gave up'))).toEqual([]);
  });
});
