// The pieces around deliveries: mail without SMTP lands in the data directory, and the example
// receiver (a real process) accepts a signed delivery once and refuses a forged one.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMailer } from '../../src/webhooks/mailer.js';
import { signatureHeader } from '../../src/webhooks/signing.js';
import { ROOT, tempDataDir } from '../support/server.js';

describe('mail without an SMTP server', () => {
  it('is written to <data dir>/mail as an .eml file', async () => {
    const dataDir = tempDataDir();
    const mailer = createMailer({ from: 'kerf <no-reply@kerf.test>', dataDir, log: pino({ level: 'silent' }) });
    await mailer.send({ to: 'owner@example.com', subject: 'kerf: your webhook endpoint is failing', text: 'Deliveries to https://x have failed.' });
    const files = fs.readdirSync(path.join(dataDir, 'mail'));
    expect(files).toHaveLength(1);
    const raw = fs.readFileSync(path.join(dataDir, 'mail', files[0]), 'utf8');
    expect(raw).toMatch(/^To: owner@example.com$/m);
    expect(raw).toMatch(/^Subject: kerf: your webhook endpoint is failing$/m);
    expect(raw).toContain('Deliveries to https://x have failed.');
  });
});

describe('the example receiver', () => {
  it('answers 204 to a signed delivery, handles a repeat once, and refuses a forged one with 400', async () => {
    const secret = 'whsec_example';
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/client/example-receiver.js')], {
      env: { ...process.env, KERF_SIGNING_SECRET: secret, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    try {
      const port = await new Promise<number>((resolve) => child.stdout.on('data', () => {
        const m = /receiving on port (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      }));
      const body = JSON.stringify({ jobId: 42 });
      const t = Math.floor(Date.now() / 1000);
      const id = crypto.randomUUID();
      const send = (signature: string) => fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST', body,
        headers: { 'content-type': 'application/json', 'x-service-event': 'job.completed', 'x-service-delivery': id, 'x-service-signature': signature },
      });
      expect((await send(signatureHeader([secret], t, body))).status).toBe(204);
      expect((await send(signatureHeader([secret], t, body))).status).toBe(204);
      const forged = await send(signatureHeader(['whsec_wrong'], t, body));
      expect(forged.status).toBe(400);
      expect(await forged.text()).toBe('signature does not match');
      await new Promise((r) => setTimeout(r, 100));
      expect(out.match(/job\.completed delivery/g)).toHaveLength(1);
      expect(out).toContain(`delivery ${id}: job 42`);
    } finally {
      child.kill();
    }
  });
});
