// A result webhook delivery as a receiver sees it: the headers every attempt carries and the
// body of each event. The OpenAPI document's webhooks section is made from these, and the
// delivery tests check real deliveries against that section.
import { z } from 'zod';
import { MAX_ATTEMPTS } from '../webhooks/policy.js';
import { jobFailedEvent, resultRecord } from './result.js';

export const deliveryHeaders = {
  'X-Service-Event': z.enum(['job.completed', 'job.failed']).describe('The event.'),
  'X-Service-Delivery': z.string().min(1).describe('Unique delivery id, the same on every retry: use it to drop repeats.'),
  'X-Service-Attempt': z.number().int().min(1).max(MAX_ATTEMPTS).describe(`Attempt number, from 1 (at most ${MAX_ATTEMPTS}).`),
  'X-Service-Timestamp': z.number().int().nonnegative().describe('Unix time in seconds of this attempt.'),
  'X-Service-Signature': z.string().regex(/^t=\d+(,v1=[0-9a-f]{64})+$/)
    .describe('t=<unix seconds>,v1=<hex>: v1 is the lowercase hex HMAC-SHA256 of "<t>.<raw body>" keyed with the account\'s signing secret; during 24 h after a rotation one v1 per valid secret. Recompute it over the raw bytes, compare in constant time, refuse a t more than 300 s away.'),
};

export const WEBHOOK_EVENTS = {
  'job.completed': {
    summary: 'A job finished',
    description: 'The full result record, identical to the GET /v3/result answer.',
    body: resultRecord,
  },
  'job.failed': {
    summary: 'A job failed',
    description: 'No partial result exists. GET /v3/result answers the same body plus version (FailedJob).',
    body: jobFailedEvent,
  },
} as const;
