// Accounts, API keys, account-page sessions and webhook endpoint health shared over Redis: two
// API processes with separate data directories (as on two machines) and the CLI, from a
// directory of its own, on the shared Redis under a test prefix.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, submit, waitForResult } from '../support/client.js';
import { dropPrefix, redisCli, testPrefix, TEST_REDIS_URL, untilKeyIs } from '../support/redis.js';
import { startReceiver } from '../support/receivers.js';
import { startServer, type KerfServer } from '../support/server.js';

const cabinet = {
  saw: { cutType: 'guillotine', stockType: 'sheet', bladeWidth: 4, cutPreference: 'l' },
  stock: [{ l: 2800, w: 2070, t: 18, material: 'MDF' }],
  parts: [{ l: 720, w: 560, t: 18, q: 4, name: 'side', material: 'MDF' }],
};

const prefix = testPrefix('accounts');
const cluster = { url: TEST_REDIS_URL, prefix };
const nodes: KerfServer[] = [];
const urls = () => nodes.map((n) => n.url);
const kerf = (...args: string[]) => redisCli(cluster, 'accounts', ...args);

beforeAll(async () => {
  const env = {
    KERF_REDIS_URL: TEST_REDIS_URL,
    KERF_REDIS_PREFIX: prefix,
    KERF_POOL_THREADS: '1',
    KERF_WEBHOOK_ALLOW_LOOPBACK: '1',
    // The first failed delivery to a default webhook disables the endpoint at once.
    KERF_WEBHOOK_WARN_HOURS: '0',
    KERF_WEBHOOK_DISABLE_HOURS: '0',
  };
  // Started together: both find no development account and race to create it.
  nodes.push(...(await Promise.all([startServer({ env }), startServer({ env })])));
  expect(nodes[0].dataDir).not.toBe(nodes[1].dataDir);
});

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await dropPrefix(prefix);
  for (const n of nodes) fs.rmSync(n.dataDir, { recursive: true, force: true });
});

/** The one-time sign-in link's token in a printed link. */
const linkToken = (text: string) => /\/account\/login\/link\?token=([\w-]+)/.exec(text)![1];

/** Follows a sign-in link on a node and returns the session cookie it sets. */
async function signIn(url: string, token: string): Promise<string> {
  const reply = await call(`${url}/account/login/link?token=${token}`, { redirect: 'manual' });
  expect(reply.status, reply.text).toBe(303);
  const session = /kerf_session=([^;]+)/.exec(reply.headers.getSetCookie().join('\n'));
  expect(session).not.toBeNull();
  return `kerf_session=${session![1]}`;
}

const accountPage = async (url: string, cookie: string) => {
  const reply = await call(`${url}/account`, { headers: { cookie }, redirect: 'manual' });
  expect(reply.status).toBe(200);
  return reply.text;
};

const healthOf = (page: string) => /<p class="\w+" id="webhook-health">([^<.:]*)/.exec(page)![1];

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('accounts, keys, sessions and endpoint health on Redis, two API nodes', () => {
  it('a key the CLI issues works on both nodes, and once the CLI revokes it both refuse it', async () => {
    const created = await kerf('create', '--email', 'carpenter@example.com');
    expect(created.code, created.stderr).toBe(0);
    const first = /api key \(shown once\): (\S+)/.exec(created.stdout)![1];
    await untilKeyIs('accepted', urls(), first);

    const issued = await kerf('issue-key', '--account', 'carpenter@example.com', '--label', 'workshop');
    expect(issued.code, issued.stderr).toBe(0);
    const [, keyId, second] = /key (\d+) \(shown once\): (\S+)/.exec(issued.stdout)!;
    await untilKeyIs('accepted', urls(), second);
    // A job submitted on one node with the new key is read on the other.
    const job = await submit(nodes[0].url, second, cabinet);
    expect((await waitForResult(nodes[1].url, second, job)).status).toBe(200);

    const revoked = await kerf('revoke-key', '--account', 'carpenter@example.com', '--key', keyId);
    expect(revoked.code, revoked.stderr).toBe(0);
    await untilKeyIs('refused', urls(), second);
    for (const url of urls()) {
      const refused = await call(`${url}/v3/calculate`, { method: 'POST', key: second, body: cabinet });
      expect(refused.status).toBe(401);
      expect(refused.json.error).toMatch(/Unknown API key/);
      // The account's other key is untouched.
      expect((await call(`${url}/v3/result?id=${job}`, { key: first })).status).toBe(200);
    }
    expect((await kerf('keys', '--account', 'carpenter@example.com')).stdout).toMatch(new RegExp(`^${keyId}\\t.*workshop.*revoked`, 'm'));
  });

  it('gives accounts created at the same time from several places distinct ids', async () => {
    const created = await Promise.all(['a', 'b', 'c'].map((who) => kerf('create', '--email', `${who}@example.com`)));
    const ids = created.map((c) => Number(/^account (\d+) /.exec(c.stdout)![1]));
    expect(new Set(ids).size).toBe(3);
    // One development account, though both nodes started at once and each wanted to create it.
    const listed = (await kerf('list')).stdout.split('\n').filter((line) => line.includes('\tdev@localhost\t'));
    expect(listed).toHaveLength(1);
    expect((await kerf('create', '--email', 'a@example.com')).stderr).toMatch(/exists already/);
  });

  it('a sign-in link from one node opens a session that works on the other, once', async () => {
    const devLink = linkToken(nodes[0].output());
    const cookie = await signIn(nodes[1].url, devLink);
    expect(await accountPage(nodes[0].url, cookie)).toContain('kerf account: dev@localhost');
    expect(await accountPage(nodes[1].url, cookie)).toContain('kerf account: dev@localhost');
    const again = await call(`${nodes[0].url}/account/login/link?token=${devLink}`, { redirect: 'manual' });
    expect(again.status).toBe(401);

    const cliLink = await kerf('login-link', '--account', 'carpenter@example.com');
    const carpenter = await signIn(nodes[0].url, linkToken(cliLink.stdout));
    expect(await accountPage(nodes[1].url, carpenter)).toContain('kerf account: carpenter@example.com');

    // A password set through one node signs in on the other.
    const page = await accountPage(nodes[0].url, carpenter);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1];
    const set = await call(`${nodes[0].url}/account/password`, {
      method: 'POST', redirect: 'manual', headers: { cookie: carpenter, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, password: 'sawdust-and-glue' }).toString(),
    });
    expect(set.status).toBe(303);
    const form = await call(`${nodes[1].url}/account/login`);
    const loginCsrf = /name="csrf" value="([^"]+)"/.exec(form.text)![1];
    const loginCookie = /kerf_login=[^;]+/.exec(form.headers.getSetCookie().join('\n'))![0];
    const login = await call(`${nodes[1].url}/account/login`, {
      method: 'POST', redirect: 'manual', headers: { cookie: loginCookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: loginCsrf, email: 'carpenter@example.com', password: 'sawdust-and-glue' }).toString(),
    });
    expect(login.status).toBe(303);
    expect(login.headers.getSetCookie().join('\n')).toMatch(/kerf_session=[^;]+/);
  });

  it('endpoint health and its disable state are the same on both nodes', async () => {
    const receiver = await startReceiver([{ status: 500 }]);
    try {
      expect((await kerf('create', '--email', 'hooks@example.com')).code).toBe(0);
      expect((await kerf('webhook', '--account', 'hooks@example.com', '--url', receiver.url)).code).toBe(0);
      const key = /\(shown once\): (\S+)/.exec((await kerf('issue-key', '--account', 'hooks@example.com')).stdout)![1];
      await untilKeyIs('accepted', urls(), key);
      const cookie = await signIn(nodes[1].url, linkToken((await kerf('login-link', '--account', 'hooks@example.com')).stdout));
      for (const url of urls()) expect(healthOf(await accountPage(url, cookie))).toBe('Healthy');

      const job = await submit(nodes[0].url, key, cabinet);
      await waitForResult(nodes[1].url, key, job);
      // The first failed delivery disables the endpoint (thresholds of 0 h), whichever node sent it.
      await until('both nodes to show the endpoint disabled', async () => {
        const pages = await Promise.all(urls().map((url) => accountPage(url, cookie)));
        return pages.every((page) => healthOf(page).startsWith('Disabled since')) ? true : undefined;
      });

      // Re-enabled on one node's page: both show it healthy once the replayed delivery succeeds.
      receiver.script = [{ status: 204 }];
      const csrf = /name="csrf" value="([^"]+)"/.exec(await accountPage(nodes[0].url, cookie))![1];
      const reenabled = await call(`${nodes[0].url}/account/webhook/reenable`, {
        method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf }).toString(),
      });
      expect(reenabled.status).toBe(303);
      for (const url of urls()) expect(healthOf(await accountPage(url, cookie))).toBe('Healthy');
      await until('the delivery to succeed', async () => (receiver.received.length >= 2 ? true : undefined));
    } finally {
      await receiver.close();
    }
  });
});
