// A typed kerf client: the types are generated from the OpenAPI document by openapi-typescript
// at its default settings (schema.d.ts), the calls go through openapi-fetch, and this file adds
// what every integration writes anyway: submit, poll, fetch, and the model upload.
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type CalculationRequest = components['schemas']['CalculationRequest'];
export type ResultResponse = components['schemas']['ResultResponse'];
export type AnalysisResponse = components['schemas']['AnalysisResponse'];
export type ErrorBody = components['schemas']['Error'];
export type FailedJob = components['schemas']['FailedJob'];
export type JobFailedEvent = components['schemas']['JobFailedEvent'];
export type AnalysisQuery = NonNullable<paths['/v3/model/analysis']['post']['parameters']['query']>;
export type ExportQuery = paths['/v3/result/export']['get']['parameters']['query'];

/** An answer that is not the one asked for: the status, kerf's error body, and Retry-After on a 429. */
export class KerfError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | FailedJob | undefined,
    readonly retryAfterSeconds?: number,
  ) {
    super(`kerf answered ${status}: ${body && 'error' in body ? body.error : body?.message ?? 'no body'}`);
  }
}

export interface KerfClientOptions {
  /** Where kerf runs, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  /** The raw API key (no "Bearer "). */
  apiKey: string;
  /** Readiness polling interval; kerf advises 2 to 3 seconds. */
  pollMs?: number;
  fetch?: typeof fetch;
}

export type Readiness = 'ready' | 'running' | 'expired';

export function kerfClient(options: KerfClientOptions) {
  const api = createClient<paths>({ baseUrl: options.baseUrl, headers: { authorization: options.apiKey }, fetch: options.fetch });
  const pollMs = options.pollMs ?? 2500;
  const fail = (response: Response, body: unknown): never => {
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new KerfError(response.status, body as ErrorBody | undefined, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
  };

  async function submit(request: CalculationRequest): Promise<number> {
    const { data, error, response } = await api.POST('/v3/calculate', { body: request });
    return data ? data.jobId : fail(response, error);
  }

  async function readiness(jobId: number): Promise<Readiness> {
    const { response } = await api.GET('/v3/result/ready', { params: { query: { id: jobId } }, parseAs: 'stream' });
    await response.body?.cancel();
    if (response.status === 200) return 'ready';
    if (response.status === 404) return 'running';
    if (response.status === 410) return 'expired';
    return fail(response, undefined);
  }

  /** The result of a finished job; a failed job throws KerfError 422 with its message. */
  async function result(jobId: number): Promise<ResultResponse> {
    const { data, error, response } = await api.GET('/v3/result', { params: { query: { id: jobId } } });
    return data ?? fail(response, error);
  }

  /** Polls readiness until the job is finished, backing off on 429, then fetches the result. */
  async function waitForResult(jobId: number, wait: { timeoutMs?: number } = {}): Promise<ResultResponse> {
    const deadline = Date.now() + (wait.timeoutMs ?? 120_000);
    for (;;) {
      let delay = pollMs;
      try {
        const state = await readiness(jobId);
        if (state === 'ready') return await result(jobId);
        if (state === 'expired') throw new KerfError(410, undefined);
      } catch (error) {
        if (!(error instanceof KerfError && error.status === 429)) throw error;
        delay = (error.retryAfterSeconds ?? 1) * 1000;
      }
      if (Date.now() + delay > deadline) throw new Error(`job ${jobId} did not finish within ${wait.timeoutMs ?? 120_000} ms`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /** The model file (raw bytes) in, a parts list out; its parts post unchanged as a request's parts. */
  async function analyse(file: Uint8Array, query: AnalysisQuery = {}): Promise<AnalysisResponse> {
    const { data, error, response } = await api.POST('/v3/model/analysis', {
      params: { query },
      // The document types the body as a string of bytes; it goes out as it is.
      body: file as unknown as string,
      bodySerializer: (bytes) => bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    return data ?? fail(response, error);
  }

  /** A finished job as a file: its bytes, content type and the file name kerf suggests. */
  async function exportFile(query: ExportQuery): Promise<{ bytes: Uint8Array; contentType: string; filename: string }> {
    const { data, error, response } = await api.GET('/v3/result/export', { params: { query }, parseAs: 'arrayBuffer' });
    if (!data) return fail(response, error);
    const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? '';
    return { bytes: new Uint8Array(data), contentType: response.headers.get('content-type') ?? '', filename };
  }

  return {
    /** The openapi-fetch client, for anything not wrapped here. */
    api,
    submit,
    readiness,
    result,
    waitForResult,
    /** Submit, poll and fetch. */
    solve: async (request: CalculationRequest, wait?: { timeoutMs?: number }) => waitForResult(await submit(request), wait),
    analyse,
    exportFile,
  };
}

export type KerfClient = ReturnType<typeof kerfClient>;
