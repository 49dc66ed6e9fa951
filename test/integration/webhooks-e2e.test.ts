// Webhooks through the running service: a finished job is delivered to the request's URL or the
// account default, signed with the account's secret, byte-identical to GET /v3/result; the
// outbox survives a restart.
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelivery } from '../../src/client/receiver.js';
import { call, submit, waitForResult } from '../support/client.js';
import { contractOf } from '../support/contract.js';
import { startReceiver, type Receiver } from '../support/receivers.js';
import { DEV_KEY, cli, startServer, tempDataDir, type KerfServer } from '../support/server.js';

const request = { stock: [{ l: 1000, w: 600 }], parts: [{ l: 300, w: 200, q: 4 }] };
const env = { KERF_WEBHOOK_ALLOW_LOOPBACK: '1' };
/** A job that always fails: it spins past its budget and the pool's backstop stops it. */
const failing = { KERF_TEST_FAULTS: '1', KERF_JOB_BUDGET_MS: '3000', KERF_ABORT_GRACE_MS: '300' };

async function until<T>(check: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('webhooks from the running service', () => {
  let server: KerfServer;
  let hook: Receiver;
  let secret: string;

  beforeAll(async () => {
    server = await startServer({ env: { ...env, ...failing } });
    hook = await startReceiver();
    secret = (await cli(server.dataDir, 'accounts', 'secret', '--account', 'dev@localhost')).stdout.trim();
  });
  afterAll(async () => {
    await server?.stop();
    await hook?.close();
  });

  it('delivers job.completed to the request URL, signed, with the exact result body', async () => {
    const jobId = await submit(server.url, DEV_KEY, { ...request, webhook: hook.url });
    const result = await waitForResult(server.url, DEV_KEY, jobId);
    const delivery = await until(() => hook.received.find((r) => JSON.parse(r.body).jobId === jobId));
    expect(delivery.body).toBe(result.text);
    expect(delivery.headers['x-service-event']).toBe('job.completed');
    expect(verifyDelivery({ header: delivery.headers['x-service-signature'] as string, body: delivery.body, secret }).ok).toBe(true);
    // Headers and body as the OpenAPI document's webhooks section says.
    const contract = contractOf((await call(`${server.url}/openapi.json`)).json);
    expect(contract.webhookErrors('job.completed', delivery.headers as Record<string, string>, delivery.body)).toEqual([]);
  });

  it('delivers job.failed with the failure body', async () => {
    const jobId = await submit(server.url, DEV_KEY, { stock: [{ l: 1000, w: 600 }], parts: [{ l: 300, w: 200, name: '__hang__' }], webhook: hook.url });
    const result = await waitForResult(server.url, DEV_KEY, jobId);
    expect(result.status).toBe(422);
    const failed = await until(() => hook.received.find((r) => r.headers['x-service-event'] === 'job.failed'));
    expect(JSON.parse(failed.body)).toEqual({ statusCode: 422, message: result.json.message });
    const contract = contractOf((await call(`${server.url}/openapi.json`)).json);
    expect(contract.webhookErrors('job.failed', failed.headers as Record<string, string>, failed.body)).toEqual([]);
  });

  it('uses the account default when the request names no URL, and the request URL when it does', async () => {
    const other = await startReceiver();
    try {
      expect((await cli(server.dataDir, 'accounts', 'webhook', '--account', 'dev@localhost', '--url', other.url)).code).toBe(0);
      const byDefault = await submit(server.url, DEV_KEY, request);
      const byRequest = await submit(server.url, DEV_KEY, { ...request, webhook: hook.url });
      await until(() => other.received.find((r) => JSON.parse(r.body).jobId === byDefault));
      await until(() => hook.received.find((r) => JSON.parse(r.body).jobId === byRequest));
      expect(other.received.some((r) => JSON.parse(r.body).jobId === byRequest)).toBe(false);
    } finally {
      await cli(server.dataDir, 'accounts', 'webhook', '--account', 'dev@localhost', '--clear');
      await other.close();
    }
  });

  it('sends nothing when neither URL is set', async () => {
    const before = hook.received.length;
    const jobId = await submit(server.url, DEV_KEY, request);
    await waitForResult(server.url, DEV_KEY, jobId);
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.received.length).toBe(before);
  });
});

describe('the outbox across a restart', () => {
  it('a delivery pending when the server stops goes out after it starts again', async () => {
    const dataDir = tempDataDir();
    const probe = await startReceiver();
    const port = probe.port;
    await probe.close();
    const first = await startServer({ dataDir, env });
    const jobId = await submit(first.url, DEV_KEY, { ...request, webhook: `http://127.0.0.1:${port}/hook` });
    await waitForResult(first.url, DEV_KEY, jobId);
    const rows = () => {
      const db = new Database(path.join(dataDir, 'kerf.sqlite'), { readonly: true });
      try {
        return db.prepare('SELECT id, state, attempts FROM deliveries WHERE job_id = ?').all(jobId) as { id: string; state: string; attempts: number }[];
      } finally {
        db.close();
      }
    };
    await until(() => rows()[0]?.attempts === 1);
    expect(rows()[0].state).toBe('pending');
    await first.stop('SIGKILL');

    const back = await startReceiver([{ status: 200 }], port);
    const second = await startServer({ dataDir, env });
    try {
      const delivery = await until(() => back.received[0], 20_000);
      expect(delivery.headers['x-service-delivery']).toBe(rows()[0].id);
      expect(delivery.headers['x-service-attempt']).toBe('2');
      await until(() => rows()[0].state === 'delivered');
      const result = await call(`${second.url}/v3/result?id=${jobId}`, { key: DEV_KEY });
      expect(delivery.body).toBe(result.text);
    } finally {
      await second.stop();
      await back.close();
    }
  });

  it('a delivery cut short by a kill mid-send is sent again under the next attempt number', async () => {
    const dataDir = tempDataDir();
    // Attempt 1 hangs (the server is killed while it waits); the next is answered.
    const hook = await startReceiver([{ status: 0, hang: true }, { status: 204 }]);
    const first = await startServer({ dataDir, env });
    let second: KerfServer | undefined;
    try {
      await submit(first.url, DEV_KEY, { ...request, webhook: hook.url });
      await until(() => hook.received[0]);
      await first.stop('SIGKILL');
      second = await startServer({ dataDir, env });
      await until(() => hook.received[1], 20_000);
      const [cut, resent] = hook.received;
      expect(resent.headers['x-service-delivery']).toBe(cut.headers['x-service-delivery']);
      expect([cut.headers['x-service-attempt'], resent.headers['x-service-attempt']]).toEqual(['1', '2']);
    } finally {
      await second?.stop();
      await hook.close();
    }
  });
});
