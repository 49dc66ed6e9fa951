// POST /v3/model/analysis: the model file is the raw body. It is read as a stream and never
// held past 32 MB (a declared length over the limit is refused before reading), analysed in a
// pool thread, and billed (one call plus its compute time) only when the analysis succeeds.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { UNIT_NAMES } from '../../models/units.js';
import { BudgetExceeded } from '../../pool/pool.js';
import { admitCall, authenticate } from '../auth.js';
import { ApiError, fromZod } from '../errors.js';
import { requestLog } from '../request-log.js';
import type { Services } from '../services.js';

export const MAX_MODEL_BYTES = 32 * 1024 * 1024;
const BUDGET_MS = Number(process.env.KERF_ANALYSIS_BUDGET_MS) || 30_000;

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const query = z.object({
  filename: z.string().max(255).optional(),
  format: z.string().max(16).optional(),
  units: z.enum(UNIT_NAMES as [string, ...string[]], { error: `units must be one of ${UNIT_NAMES.join(', ')}` }).default('mm'),
  sourceUnits: z.enum(UNIT_NAMES as [string, ...string[]], { error: `sourceUnits must be one of ${UNIT_NAMES.join(', ')}` }).optional(),
  dedupe: flag.default(true),
  mirrorDedupe: flag.default(false),
  bladeWidth: z.coerce.number().positive().finite().optional(),
  holes: z.enum(['cut', 'drill'], { error: 'holes must be "cut" (or absent for drilling)' }).optional(),
});

declare module 'fastify' {
  interface FastifyRequest {
    modelBodyCut?: boolean;
  }
}

function tooLarge(received?: number): ApiError {
  return new ApiError(413, `The model file is larger than the ${MAX_MODEL_BYTES / (1024 * 1024)} MB limit; export it coarser or as STEP`, {
    limitBytes: MAX_MODEL_BYTES, ...(received !== undefined ? { receivedBytes: received } : {}),
  });
}

/** Reads the raw body into one fresh (transferable) array, refusing it past the limit. */
function readModelBody(request: FastifyRequest, payload: NodeJS.ReadableStream, done: (err: Error | null, body?: unknown) => void) {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_MODEL_BYTES) {
    request.modelBodyCut = true;
    done(tooLarge(declared));
    return;
  }
  const chunks: Buffer[] = [];
  let length = 0;
  let finished = false;
  const finish = (err: Error | null, body?: unknown) => {
    if (finished) return;
    finished = true;
    payload.removeListener('data', onData);
    done(err, body);
  };
  const onData = (chunk: Buffer) => {
    length += chunk.length;
    if (length > MAX_MODEL_BYTES) {
      // Cut off: stop reading, drop what was read, close the connection after the answer.
      chunks.length = 0;
      request.modelBodyCut = true;
      payload.pause();
      finish(tooLarge());
      return;
    }
    chunks.push(chunk);
  };
  payload.on('data', onData);
  payload.once('end', () => {
    const body = new Uint8Array(length);
    let at = 0;
    for (const chunk of chunks) { body.set(chunk, at); at += chunk.length; }
    finish(null, body);
  });
  payload.once('error', (err: Error) => finish(err));
}

export async function analysisRoutes(app: FastifyInstance, services: Services) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { bodyLimit: MAX_MODEL_BYTES }, readModelBody);
  app.addHook('onSend', async (request, reply) => {
    if (request.modelBodyCut) reply.header('connection', 'close');
  });

  app.post('/v3/model/analysis', {
    bodyLimit: MAX_MODEL_BYTES,
    onRequest: [authenticate(services.accounts), admitCall(services.limiter, services.metering)],
  }, async (request) => {
    const parsed = query.safeParse(request.query ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const q = parsed.data;
    const body = request.body;
    if (!(body instanceof Uint8Array) || body.length === 0) {
      throw new ApiError(400, 'The request body is empty; send the model file itself as the body (Content-Type: application/octet-stream)');
    }
    const account = request.account!;
    let outcome;
    try {
      outcome = await services.pool.runAnalysis({
        kind: 'analysis',
        bytes: body,
        filename: q.filename,
        format: q.format,
        budgetMs: BUDGET_MS,
        options: {
          units: q.units as never,
          sourceUnits: q.sourceUnits as never,
          dedupe: q.dedupe,
          mirrorDedupe: q.mirrorDedupe,
          bladeWidth: q.bladeWidth,
          holesCut: q.holes === 'cut',
        },
      });
    } catch (error) {
      if (error instanceof BudgetExceeded) {
        throw new ApiError(422, `The analysis did not finish within its ${BUDGET_MS / 1000} s time budget: ${error.message}`, { budgetSeconds: BUDGET_MS / 1000, advice: [] });
      }
      requestLog(request).error({ err: error }, 'model analysis crashed');
      throw new ApiError(400, 'The model file could not be read: the reader stopped unexpectedly; check that the file is complete and export it again');
    } finally {
      void services.dispatcher.kick();
    }
    if (!outcome.ok) throw new ApiError(outcome.status, outcome.message, outcome.details);
    await services.metering.countCall(account.id);
    await services.metering.addCompute(account.id, outcome.computeMs);
    return outcome.response;
  });
}
