// Webhook delivery against real HTTP receivers on loopback and a real SMTP server, with the
// outbox in a real SQLite file and a clock the test moves: a day of retries and five days of
// endpoint failure run in seconds.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteAccountStore } from '../../src/storage/accounts/sqlite.js';
import { type Account } from '../../src/storage/accounts/store.js';
import { ManualClock } from '../../src/clock.js';
import { openDatabase, type Db } from '../../src/storage/sqlite/db.js';
import { Deliverer } from '../../src/webhooks/deliverer.js';
import { SqliteEndpointHealth } from '../../src/storage/health/sqlite.js';
import { createMailer } from '../../src/webhooks/mailer.js';
import { SqliteOutbox } from '../../src/storage/outbox/sqlite.js';
import { RETRY_DELAYS_MS } from '../../src/webhooks/policy.js';
import { verifyDelivery } from '../../src/client/receiver.js';
import { startReceiver, startSmtp, type Receiver } from '../support/receivers.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let dir: string;
let db: Db;
let accounts: SqliteAccountStore;
let account: Account;
let outbox: SqliteOutbox;
let health: SqliteEndpointHealth;
let clock: ManualClock;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let receivers: Receiver[];
let deliverers: Deliverer[];

function deliverer(options: { allowLoopback?: boolean; allowPrivate?: boolean; timeoutMs?: number } = {}) {
  const d = new Deliverer(outbox, accounts, health, createMailer({ smtpUrl: smtp.url, from: 'kerf <no-reply@kerf.test>', dataDir: dir, log: pino({ level: 'silent' }) }),
    clock, pino({ level: 'silent' }), {
      policy: { allowLoopback: options.allowLoopback ?? true, allowPrivate: options.allowPrivate ?? false },
      timeoutMs: options.timeoutMs,
      accountPageUrl: 'http://kerf.test/account',
    });
  deliverers.push(d);
  return d;
}

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

function enqueue(url: string, accountDefault = false, body = JSON.stringify({ jobId: 7, stock: [] })) {
  const id = crypto.randomUUID();
  outbox.insert({ id, accountId: account.id, jobId: 7, event: 'job.completed', url, accountDefault, body }, clock.now());
  return id;
}

/** Moves the clock to the delivery's next attempt and runs the loop. */
async function nextAttempt(d: Deliverer, id: string) {
  const due = outbox.get(id)!.nextAttemptAt;
  if (due > clock.now()) clock.advance(due - clock.now());
  await d.tick();
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-hooks-'));
  db = openDatabase(dir);
  accounts = new SqliteAccountStore(db, { ratePerMinute: 60, monthlyCalls: 1000 });
  account = accounts.create('owner@example.com');
  outbox = new SqliteOutbox(db);
  health = new SqliteEndpointHealth(db, { warnAfterMs: 3 * DAY, disableAfterMs: 5 * DAY });
  clock = new ManualClock(Date.UTC(2026, 10, 1));
  smtp = await startSmtp();
  receivers = [];
  deliverers = [];
});

afterEach(async () => {
  for (const d of deliverers) await d.stop();
  for (const r of receivers) await r.close();
  await smtp.close();
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a delivery', () => {
  it('is a signed POST the reference receiver accepts, byte for byte', async () => {
    const r = await receiver();
    const body = JSON.stringify({ jobId: 7, note: 'é ünïcode' });
    const id = enqueue(r.url, false, body);
    await deliverer().tick();
    expect(r.received).toHaveLength(1);
    const { headers, body: got } = r.received[0];
    expect(got).toBe(body);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-service-event']).toBe('job.completed');
    expect(headers['x-service-delivery']).toBe(id);
    expect(headers['x-service-attempt']).toBe('1');
    expect(headers['x-service-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
    const verdict = verifyDelivery({ header: headers['x-service-signature'] as string, body: got, secret: account.signingSecret, nowSeconds: Math.floor(clock.now() / 1000) });
    expect(verdict).toEqual({ ok: true, timestamp: Math.floor(clock.now() / 1000) });
    expect(outbox.get(id)).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 204 });
  });

  it('is retried after a 5xx with the same id, a new attempt number and a fresh signature', async () => {
    const r = await receiver([{ status: 503 }, { status: 200 }]);
    const id = enqueue(r.url);
    const d = deliverer();
    await d.tick();
    const first = outbox.get(id)!;
    expect(first).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 503 });
    const wait = first.nextAttemptAt - clock.now();
    expect(wait).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0] * 0.9);
    expect(wait).toBeLessThanOrEqual(RETRY_DELAYS_MS[0] * 1.1);
    await d.tick(); // not due yet: nothing sent
    expect(r.received).toHaveLength(1);
    await nextAttempt(d, id);
    expect(r.received.map((x) => x.headers['x-service-delivery'])).toEqual([id, id]);
    expect(r.received.map((x) => x.headers['x-service-attempt'])).toEqual(['1', '2']);
    expect(r.received[1].headers['x-service-signature']).not.toBe(r.received[0].headers['x-service-signature']);
    expect(outbox.get(id)).toMatchObject({ state: 'delivered', attempts: 2 });
  });

  it('honours Retry-After on 429 and retries 408', async () => {
    const r = await receiver([{ status: 429, headers: { 'retry-after': '3600' } }, { status: 408 }, { status: 200 }]);
    const id = enqueue(r.url);
    const d = deliverer();
    await d.tick();
    expect(outbox.get(id)!.nextAttemptAt - clock.now()).toBe(3600_000);
    await nextAttempt(d, id);
    expect(outbox.get(id)).toMatchObject({ state: 'pending', attempts: 2, lastStatus: 408 });
    await nextAttempt(d, id);
    expect(outbox.get(id)).toMatchObject({ state: 'delivered', attempts: 3 });
  });

  it('is not retried after a 404, nor after a 301, whose redirect is not followed', async () => {
    const target = await receiver();
    const gone = await receiver([{ status: 404 }]);
    const moved = await receiver([{ status: 301, headers: { location: target.url } }]);
    const a = enqueue(gone.url);
    const b = enqueue(moved.url);
    const d = deliverer();
    await d.tick();
    clock.advance(2 * DAY);
    await d.tick();
    expect(outbox.get(a)).toMatchObject({ state: 'failed', attempts: 1, lastStatus: 404 });
    expect(outbox.get(b)).toMatchObject({ state: 'failed', attempts: 1, lastStatus: 301 });
    expect(gone.received).toHaveLength(1);
    expect(moved.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
  });

  it('gives up on a receiver that hangs past 10 s and retries it', async () => {
    const r = await receiver([{ status: 0, hang: true }]);
    const id = enqueue(r.url);
    await deliverer().tick();
    // The attempt ends by the 10 s timer (its own message), not by the receiver or the socket.
    expect(outbox.get(id)).toMatchObject({ state: 'pending', attempts: 1, lastStatus: null, lastError: expect.stringMatching(/no answer within 10 s/) });
  });

  it('reaches a receiver that was down for an hour, then gives up after the last of 8 attempts over about a day', async () => {
    const probe = await receiver();
    const port = probe.port;
    await probe.close();
    receivers = receivers.filter((x) => x !== probe);
    const id = enqueue(`http://127.0.0.1:${port}/hook`);
    const d = deliverer();
    await d.tick(); // refused: down
    await nextAttempt(d, id); // +5 s
    await nextAttempt(d, id); // +5 min
    await nextAttempt(d, id); // +30 min
    expect(outbox.get(id)).toMatchObject({ state: 'pending', attempts: 4, lastError: expect.stringMatching(/network/) });
    const back = await receiver([{ status: 200 }], port);
    await nextAttempt(d, id); // +2 h: back up
    expect(back.received).toHaveLength(1);
    expect(back.received[0].headers['x-service-attempt']).toBe('5');
    expect(outbox.get(id)).toMatchObject({ state: 'delivered', attempts: 5 });

    const down = enqueue(`http://127.0.0.1:${port}/other`);
    back.script = [{ status: 500 }];
    const firstAt = clock.now();
    for (let i = 0; i < 8; i++) await nextAttempt(d, down);
    const finished = outbox.get(down)!;
    expect(finished).toMatchObject({ state: 'failed', attempts: 8, lastStatus: 500 });
    const span = clock.now() - firstAt;
    expect(span).toBeGreaterThan(24 * HOUR);
    expect(span).toBeLessThan(31 * HOUR);
    expect(outbox.log(account.id, 0).find((x) => x.id === down)!.attemptLog).toHaveLength(8);
  });
});

describe('endpoint health of the account default URL', () => {
  it('warns by e-mail after 3 days of failure, disables at 5, skips while disabled, and replays after a manual re-enable', async () => {
    const r = await receiver([{ status: 500 }]);
    accounts.setWebhookUrl(account.id, r.url);
    const d = deliverer();
    // A job every 12 hours, each delivery retried and failing.
    const ids: string[] = [];
    for (let hour = 0; hour <= 5 * 24; hour += 12) {
      ids.push(enqueue(r.url, true));
      await d.tick();
      clock.advance(12 * HOUR);
      await d.tick();
      if (hour + 12 >= 3 * 24 && hour + 12 < 5 * 24) {
        expect(smtp.messages.length, `warned by hour ${hour + 12}`).toBeGreaterThanOrEqual(1);
        expect(health.state(account.id).disabledAt).toBeNull();
      }
    }
    expect(health.state(account.id).disabledAt).not.toBeNull();
    const mails = smtp.messages.map((m) => m.raw);
    expect(smtp.messages.every((m) => m.to.includes('owner@example.com'))).toBe(true);
    expect(mails[0]).toMatch(/Subject: kerf: your webhook endpoint is failing/);
    expect(mails.some((m) => /has been disabled/.test(m))).toBe(true);

    const sentBefore = r.received.length;
    const skipped = enqueue(r.url, true);
    clock.advance(HOUR);
    await d.tick();
    expect(r.received.length).toBe(sentBefore);
    expect(outbox.get(skipped)!.state).toBe('skipped');

    r.script = [{ status: 200 }];
    health.reenable(account.id);
    expect(outbox.replaySkipped(account.id, clock.now())).toBeGreaterThanOrEqual(1);
    await d.tick();
    expect(outbox.get(skipped)).toMatchObject({ state: 'delivered' });
    expect(health.state(account.id)).toEqual({ failingSince: null, warnedAt: null, disabledAt: null });
  });

  it('resets the failure clock on any success (a flapping endpoint is never disabled)', async () => {
    const r = await receiver([{ status: 500 }]);
    const d = deliverer();
    for (let day = 0; day < 8; day++) {
      r.script = day % 2 === 0 ? [{ status: 500 }] : [{ status: 200 }];
      enqueue(r.url, true);
      await d.tick();
      if (day % 2 === 0) expect(health.state(account.id).failingSince).not.toBeNull();
      else expect(health.state(account.id).failingSince).toBeNull();
      clock.advance(DAY);
    }
    expect(health.state(account.id).disabledAt).toBeNull();
    expect(smtp.messages).toHaveLength(0);
  });

  it('never tracks or disables a per-request URL', async () => {
    const r = await receiver([{ status: 500 }]);
    const d = deliverer();
    for (let day = 0; day < 7; day++) {
      enqueue(r.url, false);
      await d.tick();
      clock.advance(DAY);
      await d.tick();
    }
    expect(health.state(account.id)).toEqual({ failingSince: null, warnedAt: null, disabledAt: null });
    expect(smtp.messages).toHaveLength(0);
  });
});

describe('SSRF guard', () => {
  it('refuses loopback, private, link-local and metadata addresses in every notation, without connecting', async () => {
    const r = await receiver();
    const port = r.port;
    const d = deliverer({ allowLoopback: false });
    const urls = [
      `http://127.0.0.1:${port}/`, `http://0x7f.0.0.1:${port}/`, `http://2130706433:${port}/`, `http://0177.0.0.1:${port}/`,
      `http://127.1:${port}/`, `http://[::1]:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://localhost:${port}/`,
      'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'http://192.168.1.1/', 'http://[fd00:ec2::254]/', 'http://0.0.0.0/',
      // Loopback wrapped in IPv6: IPv4-compatible, NAT64, 6to4.
      `http://[::127.0.0.1]:${port}/`, `http://[64:ff9b::7f00:1]:${port}/`, `http://[2002:7f00:1::]:${port}/`,
    ];
    const ids = urls.map((u) => enqueue(u));
    await d.tick();
    for (const [i, id] of ids.entries()) {
      expect(outbox.get(id), urls[i]).toMatchObject({ state: 'failed', attempts: 1, lastError: expect.stringMatching(/refused|loopback|private/) });
    }
    expect(r.received).toHaveLength(0);
  });
});

describe('signing secret rotation', () => {
  it('signs with both secrets for 24 hours, then with the new one only', async () => {
    const r = await receiver();
    const d = deliverer();
    const old = account.signingSecret;
    const fresh = accounts.rotateSigningSecret(account.id, clock.now());
    enqueue(r.url);
    await d.tick();
    const header = r.received[0].headers['x-service-signature'] as string;
    expect(header.match(/v1=/g)).toHaveLength(2);
    const now = Math.floor(clock.now() / 1000);
    for (const secret of [old, fresh]) expect(verifyDelivery({ header, body: r.received[0].body, secret, nowSeconds: now }).ok).toBe(true);
    clock.advance(DAY + 1);
    enqueue(r.url);
    await d.tick();
    const later = r.received[1].headers['x-service-signature'] as string;
    expect(later.match(/v1=/g)).toHaveLength(1);
    const laterNow = Math.floor(clock.now() / 1000);
    expect(verifyDelivery({ header: later, body: r.received[1].body, secret: fresh, nowSeconds: laterNow }).ok).toBe(true);
    expect(verifyDelivery({ header: later, body: r.received[1].body, secret: old, nowSeconds: laterNow })).toEqual({ ok: false, reason: 'signature does not match' });
  });
});

describe('the reference receiver', () => {
  const secret = 'whsec_test';
  const body = '{"jobId":1}';
  const t = 1_800_000_000;
  const sign = (ts: number) => `t=${ts},v1=${crypto.createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`;

  it('accepts a good signature and refuses tampering, stale timestamps and malformed headers', () => {
    expect(verifyDelivery({ header: sign(t), body, secret, nowSeconds: t + 10 }).ok).toBe(true);
    expect(verifyDelivery({ header: sign(t), body: '{"jobId":2}', secret, nowSeconds: t })).toEqual({ ok: false, reason: 'signature does not match' });
    expect(verifyDelivery({ header: sign(t), body, secret, nowSeconds: t + 301 })).toEqual({ ok: false, reason: 'timestamp outside the tolerance' });
    for (const header of [undefined, '', 'v1=abc', `t=abc,v1=${'0'.repeat(64)}`, `t=${t}`, `t=${t},v1=xyz`]) {
      expect(verifyDelivery({ header, body, secret, nowSeconds: t }).ok, String(header)).toBe(false);
    }
  });
});
