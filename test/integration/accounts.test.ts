// Authentication, limits and metering through the real server, with accounts managed by the
// `kerf accounts` CLI on the same data directory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, submit, waitForResult } from '../support/client.js';
import { DEV_KEY, cli, startServer, type KerfServer } from '../support/server.js';

let server: KerfServer;
const request = { stock: [{ l: 1000, w: 500 }], parts: [{ l: 200, w: 100, q: 3 }] };

async function newAccount(email: string, ...plan: string[]): Promise<string> {
  return newAccountOn(server, email, ...plan);
}

async function newAccountOn(on: KerfServer, email: string, ...plan: string[]): Promise<string> {
  const created = await cli(on.dataDir, 'accounts', 'create', '--email', email, ...plan);
  expect(created.code, created.stderr).toBe(0);
  return /api key \(shown once\): (\S+)/.exec(created.stdout)![1];
}

const calculate = (key: string | null, on = server) => call(`${on.url}/v3/calculate`, { method: 'POST', key, body: request });
const usage = async (email: string) => (await cli(server.dataDir, 'accounts', 'usage', '--account', email)).stdout;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('authentication', () => {
  it('401 without a key, with a Bearer prefix, and with an unknown key', async () => {
    for (const key of [null, `Bearer ${DEV_KEY}`, 'kerf_not_a_real_key']) {
      const reply = await calculate(key);
      expect(reply.status, String(key)).toBe(401);
      expect(reply.json).toEqual({ error: expect.any(String), details: {}, version: '3' });
    }
    expect((await calculate(`Bearer ${DEV_KEY}`)).json.error).toMatch(/without the "Bearer " prefix/);
    const ready = await call(`${server.url}/v3/result/ready?id=1`, {});
    expect(ready.status).toBe(401);
  });

  it('a revoked key stops working; a new key works', async () => {
    const key = await newAccount('revoke@example.com');
    expect((await calculate(key)).status).toBe(200);
    const keys = await cli(server.dataDir, 'accounts', 'keys', '--account', 'revoke@example.com');
    const keyId = keys.stdout.split('\t')[0];
    expect((await cli(server.dataDir, 'accounts', 'revoke-key', '--account', 'revoke@example.com', '--key', keyId)).code).toBe(0);
    expect((await calculate(key)).status).toBe(401);
    const issued = await cli(server.dataDir, 'accounts', 'issue-key', '--account', 'revoke@example.com');
    const fresh = /: (\S+)$/.exec(issued.stdout.trim())![1];
    expect((await calculate(fresh)).status).toBe(200);
  });

  it("another account's job answers 404 exactly like a missing one", async () => {
    const key = await newAccount('other@example.com');
    const jobId = await submit(server.url, DEV_KEY, request);
    await waitForResult(server.url, DEV_KEY, jobId);
    const ready = await call(`${server.url}/v3/result/ready?id=${jobId}`, { key });
    expect(ready.status).toBe(404);
    const result = await call(`${server.url}/v3/result?id=${jobId}`, { key });
    expect(result.status).toBe(404);
  });
});

describe('limits and metering', () => {
  it('429 with Retry-After past the per-minute rate; refused calls are not counted', async () => {
    const key = await newAccount('rate@example.com', '--rate', '3');
    for (let i = 0; i < 3; i++) expect((await calculate(key)).status).toBe(200);
    const refused = await calculate(key);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.json.details.limitPerMinute).toBe(3);
    expect(await usage('rate@example.com')).toMatch(/: 3 of \d+ calls/);
    // Reading results is not rate limited.
    expect((await call(`${server.url}/v3/result/ready?id=1`, { key })).status).not.toBe(429);
  });

  it('403 once the monthly allowance is used', async () => {
    const key = await newAccount('allowance@example.com', '--monthly', '2');
    expect((await calculate(key)).status).toBe(200);
    expect((await calculate(key)).status).toBe(200);
    const refused = await calculate(key);
    expect(refused.status).toBe(403);
    expect(refused.json.details).toMatchObject({ reason: 'allowance', calls: 2, allowance: 2 });
    expect(await usage('allowance@example.com')).toMatch(/: 2 of 2 calls/);
    await cli(server.dataDir, 'accounts', 'allowance', '--account', 'allowance@example.com', '--monthly', '3');
    expect((await calculate(key)).status).toBe(200);
  });

  it('403 while on hold, and back after release', async () => {
    const key = await newAccount('hold@example.com');
    await cli(server.dataDir, 'accounts', 'hold', '--account', 'hold@example.com');
    const refused = await calculate(key);
    expect(refused.status).toBe(403);
    expect(refused.json.details.reason).toBe('hold');
    await cli(server.dataDir, 'accounts', 'release', '--account', 'hold@example.com');
    expect((await calculate(key)).status).toBe(200);
    expect(await usage('hold@example.com')).toMatch(/: 1 of \d+ calls/);
  });

  it('bad requests are not billed; compute seconds are', async () => {
    const key = await newAccount('meter@example.com');
    const bad = await call(`${server.url}/v3/calculate`, { method: 'POST', key, body: { stock: [], parts: [] } });
    expect(bad.status).toBe(400);
    expect(await usage('meter@example.com')).toMatch(/: 0 of \d+ calls, 0\.000 compute seconds/);
    const work = { stock: [{ l: 2800, w: 2070 }], parts: Array.from({ length: 60 }, (_, i) => ({ l: 100 + i * 7, w: 80 + ((i * 31) % 300), q: 5 })) };
    const jobId = await submit(server.url, key, work);
    await waitForResult(server.url, key, jobId);
    const line = await usage('meter@example.com');
    expect(line).toMatch(/: 1 of \d+ calls/);
    expect(Number(/([\d.]+) compute seconds/.exec(line)![1])).toBeGreaterThan(0);
  });

  it('the CLI says what is wrong with its arguments', async () => {
    const unknown = await cli(server.dataDir, 'accounts', 'hold', '--account', 'nobody@example.com');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no account "nobody@example.com"/);
    const duplicate = await cli(server.dataDir, 'accounts', 'create', '--email', 'hold@example.com');
    expect(duplicate.code).toBe(2);
  });
});

describe('the rate window (4 s here, so the test waits seconds, not a minute)', () => {
  let short: KerfServer;
  beforeAll(async () => {
    short = await startServer({ env: { KERF_RATE_WINDOW_SECONDS: '4' } });
  });
  afterAll(async () => {
    await short?.stop();
  });

  it('accepts the next call once the advertised Retry-After has passed', async () => {
    const key = await newAccountOn(short, 'retry@example.com', '--rate', '45'); // 3 calls per 4 s
    for (let i = 0; i < 3; i++) expect((await calculate(key, short)).status).toBe(200);
    const refused = await calculate(key, short);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(refused.json.details.retryAfterSeconds).toBe(wait);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    expect((await calculate(key, short)).status).toBe(200);
  });

  it('calls refused with a 4xx do not count against the rate', async () => {
    const key = await newAccountOn(short, 'refused@example.com', '--rate', '45');
    for (let i = 0; i < 6; i++) {
      expect((await call(`${short.url}/v3/calculate`, { method: 'POST', key, body: { stock: [], parts: [] } })).status).toBe(400);
    }
    for (let i = 0; i < 3; i++) expect((await calculate(key, short)).status).toBe(200);
  });
});

describe('operations', () => {
  it('names every answer with a request id and counts answers by route and status', async () => {
    const count = async (route: string, status: number) => {
      const text = (await call(`${server.url}/metrics`)).text;
      const line = text.split('\n').find((l) => l.startsWith(`kerf_http_requests_total{route="${route}",status="${status}"}`));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const readyBefore = await count('/v3/result/ready', 404);
    const unmatchedBefore = await count('unmatched', 404);
    for (let i = 0; i < 3; i++) {
      const missing = await call(`${server.url}/v3/result/ready?id=987654`, { key: DEV_KEY });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('x-request-id')).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    }
    const nowhere = await call(`${server.url}/v3/nowhere`, { headers: { 'x-request-id': 'caller-chosen-id' } });
    expect(nowhere.status).toBe(404);
    expect(nowhere.headers.get('x-request-id')).toBe('caller-chosen-id');
    expect(nowhere.json.error).toMatch(/No route GET \/v3\/nowhere/);
    expect(await count('/v3/result/ready', 404)).toBe(readyBefore + 3);
    expect(await count('unmatched', 404)).toBe(unmatchedBefore + 1);
  });

  it('serves metrics, the OpenAPI document and the docs page', async () => {
    const metrics = await call(`${server.url}/metrics`);
    expect(metrics.status).toBe(200);
    for (const name of ['kerf_pool_threads_busy', 'kerf_queue_depth', 'kerf_job_duration_seconds_bucket{le="0.01",outcome="done"}']) {
      expect(metrics.text).toContain(name);
    }
    const openapi = await call(`${server.url}/openapi.json`);
    expect(openapi.json.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.json.paths)).toEqual(expect.arrayContaining(['/v3/calculate', '/v3/result/ready', '/v3/result', '/v3/result/export']));
    expect(openapi.json.components.schemas.CalculationRequest.properties.parts).toBeDefined();
    const docs = await call(`${server.url}/docs`, { redirect: 'follow' });
    expect(docs.status).toBe(200);
    expect(docs.text).toMatch(/swagger/i);
  });
});
