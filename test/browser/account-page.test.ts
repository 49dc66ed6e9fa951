// The account page in real Chromium (playwright-core), against the running service: every action
// a user takes there, checked by what the page shows and by what the API then does.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, submit, waitForResult } from '../support/client.js';
import { startReceiver, type Receiver } from '../support/receivers.js';
import { DEV_KEY, cli, startServer, type KerfServer } from '../support/server.js';

let server: KerfServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let hook: Receiver;

const calculate = (key: string) =>
  call(`${server.url}/v3/calculate`, { method: 'POST', key, body: { stock: [{ l: 1000, w: 500 }], parts: [{ l: 200, w: 100, q: 2 }] } });

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  // Thresholds of zero: the first failed delivery to the default URL disables the endpoint.
  server = await startServer({ env: { KERF_WEBHOOK_ALLOW_LOOPBACK: '1', KERF_WEBHOOK_WARN_HOURS: '0', KERF_WEBHOOK_DISABLE_HOURS: '0' } });
  hook = await startReceiver([{ status: 500 }]);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  context = await browser.newContext();
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await hook?.close();
});

describe('the account page', () => {
  it('signs in with the one-time link make run prints, once only, with a secure session cookie', async () => {
    const link = /account page \(one-time sign-in link, 24 h\): (\S+)/.exec(server.output())![1];
    await page.goto(link);
    await expect(page.locator('h1').textContent()).resolves.toContain('dev@localhost');
    const session = (await context.cookies()).find((c) => c.name === 'kerf_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/account' });
    const again = await browser.newPage();
    await again.goto(link);
    await expect(again.locator('[role=alert]').textContent()).resolves.toMatch(/unknown, used or expired/);
    await again.close();
  });

  it('creates an API key shown once that works, and revokes it', async () => {
    await page.goto(`${server.url}/account`);
    await page.fill('input[name=label]', 'browser test');
    await page.click('button:has-text("Create key")');
    const key = (await page.locator('#shown-once').textContent())!.trim();
    expect(key).toMatch(/^kerf_/);
    expect((await calculate(key)).status).toBe(200);
    await page.goto(`${server.url}/account`);
    expect(await page.locator('#shown-once').count()).toBe(0);
    const row = page.locator('#keys tr', { hasText: 'browser test' });
    await row.locator('button:has-text("Revoke")').click();
    await expect(page.locator('[role=status]').textContent()).resolves.toMatch(/revoked/);
    expect((await calculate(key)).status).toBe(401);
  });

  it('reveals and rotates the signing secret', async () => {
    await page.goto(`${server.url}/account`);
    await page.click('button:has-text("Reveal secret")');
    const shown = (await page.locator('#shown-once').textContent())!.trim();
    const onFile = (await cli(server.dataDir, 'accounts', 'secret', '--account', 'dev@localhost')).stdout.trim();
    expect(shown).toBe(onFile);
    await page.click('button:has-text("Rotate secret")');
    await expect(page.locator('body').textContent()).resolves.toMatch(/previous secret also signs deliveries until/);
    await page.click('button:has-text("Reveal secret")');
    const rotated = (await page.locator('#shown-once').textContent())!.trim();
    expect(rotated).not.toBe(shown);
    expect(rotated).toBe((await cli(server.dataDir, 'accounts', 'secret', '--account', 'dev@localhost')).stdout.trim());
  });

  it('sets the default webhook, shows its failure and disabling, re-enables it and redelivers from the log', async () => {
    await page.goto(`${server.url}/account`);
    await page.fill('input[name=url]', hook.url);
    await page.click('button:has-text("Save")');
    await expect(page.locator('[role=status]').textContent()).resolves.toMatch(/default webhook is saved/);

    // The receiver fails: the first delivery disables the endpoint (thresholds 0 in this server).
    const failedJob = await submit(server.url, DEV_KEY, { stock: [{ l: 1000, w: 500 }], parts: [{ l: 100, w: 100 }] });
    await waitForResult(server.url, DEV_KEY, failedJob);
    await until(() => hook.received.length >= 1);
    await until(async () => {
      await page.goto(`${server.url}/account`);
      return (await page.locator('#webhook-health').textContent())!.includes('Disabled since');
    });
    // While disabled, a new delivery is recorded as skipped.
    const skippedJob = await submit(server.url, DEV_KEY, { stock: [{ l: 1000, w: 500 }], parts: [{ l: 120, w: 100 }] });
    await waitForResult(server.url, DEV_KEY, skippedJob);
    await until(async () => {
      await page.goto(`${server.url}/account`);
      return (await page.locator('#deliveries tr', { hasText: 'skipped' }).count()) === 1;
    });
    const received = hook.received.length;

    hook.script = [{ status: 200 }];
    await page.click('button:has-text("Re-enable")');
    await expect(page.locator('[role=status]').textContent()).resolves.toMatch(/enabled again/);
    await until(() => hook.received.some((r) => JSON.parse(r.body).jobId === skippedJob));
    expect(hook.received.length).toBeGreaterThan(received);
    await until(async () => {
      await page.goto(`${server.url}/account`);
      return (await page.locator('#webhook-health').textContent())!.includes('Healthy');
    });

    // Redeliver a delivered one from the log: the same delivery id arrives again.
    const row = page.locator('#deliveries tr', { hasText: 'delivered' }).first();
    const deliveryId = await row.getAttribute('data-delivery-id');
    const before = hook.received.filter((r) => r.headers['x-service-delivery'] === deliveryId).length;
    await row.locator('button:has-text("Redeliver")').click();
    await until(() => hook.received.filter((r) => r.headers['x-service-delivery'] === deliveryId).length === before + 1);
  });

  it("shows this month's calls and compute seconds against the allowance", async () => {
    const usage = (await cli(server.dataDir, 'accounts', 'usage', '--account', 'dev@localhost')).stdout;
    const calls = Number(/: (\d+) of/.exec(usage)![1]);
    await page.goto(`${server.url}/account`);
    expect(Number(await page.locator('#calls').textContent())).toBe(calls);
    expect(Number(await page.locator('#allowance').textContent())).toBe(100000);
    expect(Number(await page.locator('#compute').textContent())).toBeGreaterThan(0);
  });

  it('sets a password, signs out, and signs in with it (a wrong one is refused)', async () => {
    await page.goto(`${server.url}/account`);
    await page.fill('input[name=password]', 'correct horse battery');
    await page.click('button:has-text("Set password")');
    await expect(page.locator('[role=status]').textContent()).resolves.toMatch(/password is set/);
    await page.click('button:has-text("Sign out")');
    expect(page.url()).toContain('/account/login');
    await page.goto(`${server.url}/account`);
    expect(page.url()).toContain('/account/login');
    await page.fill('input[name=email]', 'dev@localhost');
    await page.fill('input[name=password]', 'wrong password here');
    await page.click('button:has-text("Sign in")');
    await expect(page.locator('[role=alert]').textContent()).resolves.toMatch(/Wrong e-mail or password/);
    await page.fill('input[name=password]', 'correct horse battery');
    await page.click('button:has-text("Sign in")');
    await expect(page.locator('h1').textContent()).resolves.toContain('dev@localhost');
  });

  it('refuses a form posted without the CSRF token, even with the session cookie', async () => {
    const cookie = (await context.cookies()).find((c) => c.name === 'kerf_session')!;
    const forged = await call(`${server.url}/account/secret/rotate`, {
      method: 'POST', body: 'csrf=nope', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `kerf_session=${cookie.value}` },
    });
    expect(forged.status).toBe(403);
    expect(forged.json.error).toMatch(/CSRF/);
  });
});
