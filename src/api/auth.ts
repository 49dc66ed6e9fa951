// Authentication and admission. The raw API key travels in Authorization (no "Bearer ");
// calls that start work also pass the hold flag, the per-minute rate and the monthly allowance.
import type { FastifyRequest } from 'fastify';
import type { Account, AccountStore } from '../accounts/accounts.js';
import type { Metering } from '../accounts/metering.js';
import type { RateLimiter } from '../accounts/rate-limit.js';
import { ApiError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    account?: Account;
    apiKey?: string;
  }
}

export function authenticate(accounts: AccountStore) {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (!header) throw new ApiError(401, 'Missing API key: send it in the Authorization header');
    if (/^bearer\s/i.test(header)) {
      throw new ApiError(401, 'Send the raw API key in the Authorization header, without the "Bearer " prefix');
    }
    const account = accounts.byApiKey(header.trim());
    if (!account) throw new ApiError(401, 'Unknown API key');
    request.account = account;
    request.apiKey = header.trim();
  };
}

/** For calls that count against the plan: hold, then rate, then allowance. Nothing is counted here. */
export function admitCall(limiter: RateLimiter, metering: Metering) {
  return async (request: FastifyRequest) => {
    const account = request.account!;
    if (account.onHold) throw new ApiError(403, 'The account is on hold; contact support', { reason: 'hold' });
    const decision = limiter.hit(request.apiKey!, account.ratePerMinute);
    if (!decision.allowed) {
      throw new ApiError(429, `Rate limit of ${account.ratePerMinute} calls per minute exceeded; retry after ${decision.retryAfterSeconds} s`,
        { limitPerMinute: account.ratePerMinute, retryAfterSeconds: decision.retryAfterSeconds },
        { 'retry-after': String(decision.retryAfterSeconds) });
    }
    const usage = metering.usage(account.id);
    if (usage.calls >= account.monthlyCalls) {
      throw new ApiError(403, `Monthly allowance of ${account.monthlyCalls} calls used up for ${usage.month}`,
        { reason: 'allowance', month: usage.month, calls: usage.calls, allowance: account.monthlyCalls });
    }
  };
}
