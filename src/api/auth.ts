// Authentication and admission. The raw API key travels in Authorization (no "Bearer ");
// calls that start work also pass the hold flag, the per-minute rate and the monthly allowance.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../storage/accounts/store.js';
import type { ApiKeyStore } from '../storage/api-keys/store.js';
import type { UsageMeter } from '../storage/metering/store.js';
import type { RateLimiter } from '../storage/rate-limit/store.js';
import { ApiError } from './errors.js';
import { requestLog } from './request-log.js';

declare module 'fastify' {
  interface FastifyRequest {
    account?: Account;
    apiKey?: string;
    /** The rate window this call was counted in, until it is answered. */
    rateWindow?: number;
  }
}

const BEARER = /^bearer\s/i;

/** The caller's account on a route behind `authenticate` (a 401 if a route forgot the hook). */
export function accountOf(request: FastifyRequest): Account {
  if (!request.account) throw new ApiError(401, 'Missing API key: send it in the Authorization header');
  return request.account;
}

export function authenticate(apiKeys: ApiKeyStore) {
  // Callback style: it runs on every authenticated call, and a promise per call is measurable.
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const header = request.headers.authorization;
    if (!header) return done(new ApiError(401, 'Missing API key: send it in the Authorization header'));
    const key = header.trim();
    // A known key is the common case: the Bearer check only words the refusal of an unknown one.
    const account = apiKeys.byApiKey(key);
    if (!account) {
      if (BEARER.test(header)) return done(new ApiError(401, 'Send the raw API key in the Authorization header, without the "Bearer " prefix'));
      return done(new ApiError(401, 'Unknown API key'));
    }
    request.account = account;
    request.apiKey = key;
    done();
  };
}

/**
 * For calls that count against the plan: hold, then rate, then allowance. The rate counts the
 * call at once (concurrent calls see each other); refundRefused takes it back if it is refused.
 */
export function admitCall(limiter: RateLimiter, metering: UsageMeter) {
  return async (request: FastifyRequest) => {
    const account = accountOf(request);
    if (account.onHold) throw new ApiError(403, 'The account is on hold; contact support', { reason: 'hold' });
    const decision = await limiter.hit(request.apiKey!, account.ratePerMinute);
    if (!decision.allowed) {
      throw new ApiError(429, `Rate limit of ${account.ratePerMinute} calls per minute exceeded; retry after ${decision.retryAfterSeconds} s`,
        { limitPerMinute: account.ratePerMinute, retryAfterSeconds: decision.retryAfterSeconds },
        { 'retry-after': String(decision.retryAfterSeconds) });
    }
    request.rateWindow = decision.window;
    const usage = await metering.usage(account.id);
    if (usage.calls >= account.monthlyCalls) {
      throw new ApiError(403, `Monthly allowance of ${account.monthlyCalls} calls used up for ${usage.month}`,
        { reason: 'allowance', month: usage.month, calls: usage.calls, allowance: account.monthlyCalls });
    }
  };
}

/** onResponse: a call refused with a 4xx after admission (invalid, over the allowance) does not count against the rate. */
export function refundRefused(limiter: RateLimiter) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (request.rateWindow !== undefined && reply.statusCode >= 400 && reply.statusCode < 500) {
      Promise.resolve(limiter.refund(request.apiKey!, request.rateWindow))
        .catch((error) => requestLog(request).warn({ err: error }, 'could not refund a refused call'));
    }
    done();
  };
}
