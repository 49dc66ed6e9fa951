// Authentication and admission. The raw API key travels in Authorization (no "Bearer "). The
// auth plugin, registered in the scope of the API's route families, checks it on every call
// and sets request.account; calls that start work also pass admission (admitCall): the hold
// flag, the per-minute rate and the monthly allowance.
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Account, AccountStore } from '../../storage/accounts/store.js';
import type { UsageMeter } from '../../storage/metering/store.js';
import type { RateLimiter } from '../../storage/rate-limit/store.js';
import { ApiError } from '../errors.js';
import { requestLog } from './request-log.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's account, on every route in the auth plugin's scope (the API's route families). */
    account: Account;
    /** The raw API key the call came with (the rate limit counts per key). */
    apiKey: string;
    /** The rate window an admitted call was counted in, until it is answered. */
    rateWindow: number | undefined;
  }
}

const BEARER = /^bearer\s/i;

export const authentication = fp<{ accounts: AccountStore }>(async (app, { accounts }) => {
  // Declared up front, so every request object has the same shape (no property added per call).
  app.decorateRequest('account', null as unknown as Account);
  app.decorateRequest('apiKey', '');
  app.decorateRequest('rateWindow', undefined);
  app.addHook('onRequest', authenticate(accounts));
}, { name: 'kerf-auth' });

function authenticate(accounts: AccountStore) {
  // Callback style: it runs on every authenticated call, and a promise per call is measurable.
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const header = request.headers.authorization;
    if (!header) return done(new ApiError(401, 'Missing API key: send it in the Authorization header'));
    const key = header.trim();
    // A known key is the common case: the Bearer check only words the refusal of an unknown one.
    const account = accounts.byApiKey(key);
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
    const { account } = request;
    if (account.onHold) throw new ApiError(403, 'The account is on hold; contact support', { reason: 'hold' });
    const decision = await limiter.hit(request.apiKey, account.ratePerMinute);
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
    const window = request.rateWindow;
    if (window !== undefined && reply.statusCode >= 400 && reply.statusCode < 500) {
      Promise.resolve(limiter.refund(request.apiKey, window))
        .catch((error) => requestLog(request).warn({ err: error }, 'could not refund a refused call'));
    }
    done();
  };
}
