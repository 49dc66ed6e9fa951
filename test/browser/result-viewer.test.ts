// The result viewer in real Chromium (playwright-core), against the running service: the
// account page lists the account's jobs, a finished one opens with every pattern drawn, zoom,
// the totals, the parts and those left out, and every export downloads under the session.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_JOBS } from '../support/export-jobs.js';
import { call, submit, waitForResult } from '../support/client.js';
import { DEV_KEY, cli, startServer, type KerfServer } from '../support/server.js';

let server: KerfServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cabinet: { id: number; record: any };

beforeAll(async () => {
  server = await startServer({ env: { KERF_TEST_FAULTS: '1', KERF_MAX_ATTEMPTS: '1' } });
  // A cabinet with a part too long for the stock, so something is left out.
  const request = { ...EXPORT_JOBS.cabinet, parts: [...EXPORT_JOBS.cabinet.parts, { l: 3000, w: 100, q: 2, name: 'too long', material: 'Oak' }] };
  const id = await submit(server.url, DEV_KEY, request);
  cabinet = { id, record: (await waitForResult(server.url, DEV_KEY, id)).json };
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  context = await browser.newContext({ acceptDownloads: true });
  page = await context.newPage();
  const link = /account page \(one-time sign-in link, 24 h\): (\S+)/.exec(server.output())![1];
  await page.goto(link);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the result viewer', () => {
  it('is reached from the account page\'s job list, under the account page\'s CSP', async () => {
    const failed = await submit(server.url, DEV_KEY, { stock: [{ l: 1000, w: 1000 }], parts: [{ l: 300, w: 200, name: '__exit__' }] });
    await waitForResult(server.url, DEV_KEY, failed);
    await page.goto(`${server.url}/account`);
    const row = page.locator(`#jobs tr[data-job-id="${cabinet.id}"]`);
    await expect(row.locator('.state').textContent()).resolves.toBe('done');
    expect(await page.locator(`#jobs tr[data-job-id="${failed}"] .state`).textContent()).toBe('failed');
    expect(await page.locator(`#jobs tr[data-job-id="${failed}"] a`).count()).toBe(0);
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/account/jobs/${cabinet.id}`)), row.locator('a:has-text("View result")').click()]);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-security-policy']).toMatch(/default-src 'none'/);
    expect(response.headers()['cache-control']).toBe('no-store');
    await expect(page.locator('h1').textContent()).resolves.toBe(`Job ${cabinet.id}`);
  });

  it('draws every pattern, shows the totals, the parts and the parts left out', async () => {
    await page.goto(`${server.url}/account/jobs/${cabinet.id}`);
    const used = cabinet.record.stock.filter((s: any) => s.used);
    expect(await page.locator('.pattern svg').count()).toBe(used.length);
    for (const s of used) {
      const svg = page.locator(`#pattern-${s.id.replace('.', '\\.')} svg`);
      expect(await svg.locator('[data-part]').count()).toBe(new Set(cabinet.record.parts.filter((p: any) => p.added && p.stock.id === s.id).map((p: any) => `${p.x},${p.y}`)).size);
      // The drawing is laid out: it has a size on the page.
      const box = (await svg.boundingBox())!;
      expect(box.width).toBeGreaterThan(300);
      expect(box.height).toBeGreaterThan(100);
    }
    const m = cabinet.record.metadata;
    expect(await page.locator('#total-used-stock strong').textContent()).toBe(String(m.totalUsedStock));
    expect(await page.locator('#total-efficiency strong').textContent()).toBe(`${(m.totalEfficiency * 100).toFixed(1)} %`);
    expect(await page.locator('#parts tr[data-part-row]').count()).toBe(6);
    const tooLong = page.locator('#unusable tr[data-part-row="5"]');
    await expect(tooLong.textContent()).resolves.toMatch(/too long.*2/s);
  });

  it('zooms without script: 200 % and 400 % widen the drawings', async () => {
    await page.goto(`${server.url}/account/jobs/${cabinet.id}`);
    const svg = page.locator('.pattern svg').first();
    const width = async () => (await svg.boundingBox())!.width;
    const at100 = await width();
    await page.click('label[for=zoom-2]');
    expect(await width()).toBeCloseTo(at100 * 2, 0);
    await page.click('label[for=zoom-4]');
    expect(await width()).toBeCloseTo(at100 * 4, 0);
    await page.click('label[for=zoom-1]');
    expect(await width()).toBeCloseTo(at100, 0);
  });

  it('downloads every export under the session, the same files the API gives', async () => {
    await page.goto(`${server.url}/account/jobs/${cabinet.id}`);
    const links = page.locator('#exports a');
    const count = await links.count();
    expect(count).toBe(9); // pdf x2, csv x4, dxf, svg, ptx
    for (let i = 0; i < count; i++) {
      const link = links.nth(i);
      const [format, option] = [await link.getAttribute('data-format'), await link.getAttribute('data-option')];
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe(`job-${cabinet.id}.${format}`);
      const viaBrowser = await download.createReadStream().then(async (stream) => {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      });
      const viaApi = await fetch(`${server.url}/v3/result/export?id=${cabinet.id}&format=${format}&option=${option}`, { headers: { authorization: DEV_KEY } });
      const apiBytes = Buffer.from(await viaApi.arrayBuffer());
      if (format === 'pdf') {
        // PDFs carry their creation time: compare the start and the size.
        expect(viaBrowser.subarray(0, 5).toString()).toBe('%PDF-');
        expect(Math.abs(viaBrowser.length - apiBytes.length)).toBeLessThan(64);
      } else expect(viaBrowser.equals(apiBytes), `${format} ${option}`).toBe(true);
    }
  });

  it('answers 404 for another account\'s job and sends a signed-out visitor to sign in', async () => {
    const created = await cli(server.dataDir, 'accounts', 'create', '--email', 'viewer-other@example.com');
    const otherKey = /api key \(shown once\): (\S+)/.exec(created.stdout)![1];
    const foreign = await submit(server.url, otherKey, { stock: [{ l: 1000, w: 1000 }], parts: [{ l: 300, w: 200 }] });
    await waitForResult(server.url, otherKey, foreign);
    const reply = await page.goto(`${server.url}/account/jobs/${foreign}`);
    expect(reply!.status()).toBe(404);
    const exportReply = await context.request.get(`${server.url}/account/jobs/${foreign}/export?format=csv`);
    expect(exportReply.status()).toBe(404);
    expect((await context.request.get(`${server.url}/account/jobs/${cabinet.id}/export?format=xlsx`)).status()).toBe(400);
    const anonymous = await call(`${server.url}/account/jobs/${cabinet.id}`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/account/login');
    expect((await call(`${server.url}/account/jobs/${cabinet.id}/export?format=csv`)).status).toBe(403);
  });
});
