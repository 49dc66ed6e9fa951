// One error body everywhere: { error, details, version: "3" }. Handlers throw ApiError; the
// app's error handler turns it, and Fastify's own errors, into that body. A 500 names the
// request id and never a stack trace.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodError } from 'zod';
import { requestLog } from './plugins/request-log.js';
import { bodyStillArriving, drainBody } from './refused-body.js';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function errorBody(error: string, details: Record<string, unknown> = {}) {
  return { error, details, version: '3' as const };
}

/** "parts[3].l" from a zod path. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

const REQUIRED = 'is required';

export function validationError(issues: { path: readonly PropertyKey[]; message: string }[]): ApiError {
  const listed = issues.map((i) => ({ path: fieldPath(i.path) || '(body)', message: i.message }));
  const summary = listed.slice(0, 5).map((i) => `${i.path}${i.message === REQUIRED ? ' ' : ': '}${i.message}`).join('; ');
  const more = listed.length > 5 ? ` (and ${listed.length - 5} more)` : '';
  return new ApiError(400, `Invalid request: ${summary}${more}`, { issues: listed });
}

/** The issues of a failed parse of `input`; a field that is not there "is required". */
export function fromZod(error: ZodError, input: unknown): ApiError {
  return validationError(error.issues.map((issue) => (missing(input, issue.path) ? { path: issue.path, message: REQUIRED } : issue)));
}

function missing(input: unknown, path: readonly PropertyKey[]): boolean {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value === undefined;
}

export function handleError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  // Refused before the body was all read (a 413, or a refusal at admission): read the rest first
  // so that the client, still sending, gets the answer and not a reset (refused-body.ts).
  if (bodyStillArriving(request)) {
    return drainBody(request).then(() => {
      answerError(error, request, reply);
    });
  }
  return answerError(error, request, reply);
}

function answerError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) {
    return reply.code(error.statusCode).headers(error.headers).send(errorBody(error.message, error.details));
  }
  const status = error.statusCode ?? 500;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return reply.code(413).send(errorBody('The request body is larger than the 8 MB limit', { limitBytes: 8 * 1024 * 1024 }));
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return reply.code(415).send(errorBody(`Unsupported Content-Type "${request.headers['content-type'] ?? ''}"; send application/json`));
  }
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return reply.code(400).send(errorBody('The request body is empty; send the calculation request as JSON'));
  }
  if (status >= 400 && status < 500) {
    const message = error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
      ? `Malformed JSON: ${error.message}` : error.message;
    return reply.code(status).send(errorBody(message));
  }
  requestLog(request).error({ err: error }, 'unhandled error');
  return reply.code(500).send(errorBody('Internal error; quote the request id when reporting it', { requestId: request.id }));
}
