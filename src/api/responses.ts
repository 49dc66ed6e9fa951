// Response declarations the routes share: a status, what it means and its body schema. Fastify
// takes them as the route's response schemas and the OpenAPI document is made from them.
import { z } from 'zod';
import { errorBody } from '../schema/result.js';

export const json = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema } } });
/** A status that carries no body (the readiness endpoint). */
export const noBody = (description: string) => z.undefined().describe(description);
export const failure = (description: string) => json(description, errorBody);

export const unauthorized = { 401: failure('Missing, prefixed ("Bearer ...") or unknown API key.') };

/** Calls that start work pass the hold flag, the per-minute rate and the monthly allowance. */
export const admission = {
  403: failure('The account is on hold, or its monthly allowance is used up (details.reason: hold or allowance).'),
  429: failure('Over the API key\'s per-minute rate, shared by calculate and model analysis; retry after Retry-After seconds. Refused calls are not counted.'),
};

export const invalid = (what: string) => ({
  400: failure(`${what} details.issues lists each offending field or parameter as { path, message }.`),
});

export const notReady = {
  404: failure('Not finished yet, or no such job for this account (the same answer, so nothing leaks across accounts).'),
  410: failure('Expired and gone (results are kept 7 days unless the operator says otherwise).'),
};
