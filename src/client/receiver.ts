// The reference receiver: how an integrator verifies a kerf delivery. Take `t` from the
// signature header, recompute HMAC-SHA256 of "<t>.<raw body>" with the signing secret, compare
// with each v1 in constant time, and refuse timestamps more than 300 s away.
import crypto from 'node:crypto';

export type Verification = { ok: true; timestamp: number } | { ok: false; reason: string };

export function verifyDelivery(options: {
  /** The X-Service-Signature header. */
  header: string | undefined;
  /** The raw request body, exactly as received. */
  body: string | Buffer;
  secret: string;
  toleranceSeconds?: number;
  nowSeconds?: number;
}): Verification {
  const { header, body, secret } = options;
  if (!header) return { ok: false, reason: 'missing signature header' };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) return { ok: false, reason: 'malformed signature header' };
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return { ok: false, reason: 'timestamp outside the tolerance' };
  const expected = crypto.createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  const match = signatures.some((hex) => crypto.timingSafeEqual(Buffer.from(hex, 'hex'), expected));
  return match ? { ok: true, timestamp } : { ok: false, reason: 'signature does not match' };
}
