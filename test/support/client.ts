// A small HTTP client for the tests: real requests with the global fetch, and the typed client
// (src/client) for submitting and polling, as an integrator's code would.
import http from 'node:http';
import { kerfClient, type CalculationRequest } from '../../src/client/client.js';
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export async function call(url: string, init: Omit<RequestInit, 'body'> & { key?: string | null; body?: unknown } = {}): Promise<Reply> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('authorization', init.key);
  let body = init.body as BodyInit | undefined;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
    body = JSON.stringify(body);
    headers.set('content-type', 'application/json');
  }
  const response = await fetch(url, { ...init, headers, body });
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const clientFor = (base: string, key: string) => kerfClient({ baseUrl: base, apiKey: key, pollMs: 50 });

/** Submits with the typed client; tests send requests of every shape, typed or not. */
export async function submit(base: string, key: string, request: unknown): Promise<number> {
  return clientFor(base, key).submit(request as CalculationRequest);
}

/**
 * Polls readiness with the typed client (faster than advised, for tests) until finished, then
 * fetches. The time limit only catches a job that never ends: a loaded machine may be many
 * times slower.
 */
export async function waitForResult(base: string, key: string, jobId: number, timeoutMs = 280_000): Promise<Reply> {
  const kerf = clientFor(base, key);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const state = await kerf.readiness(jobId);
    if (state === 'ready') return call(`${base}/v3/result?id=${jobId}`, { key });
    if (state === 'expired') throw new Error(`job ${jobId} has expired`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${jobId} not ready within ${timeoutMs} ms`);
}

/**
 * Sends a body with node:http in one attempt, as a plain client would (no retry on a reset):
 * a refused body must still get its answer (the server reads the rest first, refused-body.ts).
 */
export function postBody(url: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (response) => {
      answered = true;
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    request.end(body);
  });
}

/** Submits, polls and fetches a calculation that must succeed, and checks it with `validate`. */
export async function solveChecked(base: string, key: string, request: unknown, validate: (request: unknown, result: unknown) => string[]): Promise<any> {
  const jobId = await submit(base, key, request);
  const reply = await waitForResult(base, key, jobId);
  if (reply.status !== 200) throw new Error(`job ${jobId} answered ${reply.status}: ${reply.text}`);
  if (reply.json.jobId !== jobId) throw new Error(`job ${jobId} came back as ${reply.json.jobId}`);
  const violations = validate(request, reply.json);
  if (violations.length) throw new Error(`job ${jobId} layout is invalid:\n${violations.join('\n')}`);
  return reply.json;
}
