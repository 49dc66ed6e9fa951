// API keys are random and high-entropy, so a plain SHA-256 is the right stored form:
// a lookup by hash is one index probe, and a leaked table reveals no usable key.
import crypto from 'node:crypto';

export function newApiKey(): string {
  return `kerf_${crypto.randomBytes(24).toString('base64url')}`;
}

export function hashKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

export function keyPrefix(key: string): string {
  return key.slice(0, 9);
}

export function newSigningSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64url')}`;
}
