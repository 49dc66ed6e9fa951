// Delivery signatures: HMAC-SHA256 of "<t>.<raw body>" with the account's signing secret, as
// `t=<unix seconds>,v1=<hex>`; one v1 per valid secret while a rotation's old secret lives.
import crypto from 'node:crypto';

export function hmac(secret: string, timestamp: number, body: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export function signatureHeader(secrets: string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${hmac(secret, timestamp, body)}`)].join(',');
}
