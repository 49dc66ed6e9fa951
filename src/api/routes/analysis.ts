// POST /v3/model/analysis: the model file is the raw body. It is read as a stream and never
// held past 32 MB (a declared length over the limit is refused before reading), analysed in a
// pool thread, and billed (one call plus its compute time) only when the analysis succeeds.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FORMAT_NAMES } from '../../models/detect.js';
import { UNIT_NAMES } from '../../models/units.js';
import { BudgetExceeded } from '../../pool/pool.js';
import { analysisResponse } from '../../schema/analysis.js';
import { caseless } from '../../schema/words.js';
import { admitCall, refundRefused } from '../plugins/auth.js';
import { ApiError } from '../errors.js';
import { requestLog } from '../plugins/request-log.js';
import { admission, failure, invalid, json, unauthorized } from '../responses.js';
import type { FamilyOptions } from '../services.js';

export const MAX_MODEL_BYTES = 32 * 1024 * 1024;

const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'must be true or false (or 1 or 0)' })
  .transform((v) => v === true || v === 'true' || v === '1');
const unit = (what: string) => z.enum(UNIT_NAMES as [string, ...string[]], { error: `${what} must be one of ${UNIT_NAMES.join(', ')}` });
const query = z.object({
  filename: z.string().max(255).optional().describe('The file\'s name; its extension tells the format when the bytes carry no magic (OBJ, ASCII STL).'),
  format: caseless(FORMAT_NAMES).optional().describe('Forces the format (magic bytes still win); Collada (dae) and 3MF answer 415.'),
  units: unit('units').default('mm').describe('Unit of every number in the response.'),
  sourceUnits: unit('sourceUnits').optional().describe('Unit the model was drawn in; overrides what the file declares.'),
  dedupe: flag.default(true).describe('Collapse identical parts into one row with a quantity q.'),
  mirrorDedupe: flag.default(false).describe('Treat a part and its mirror image as the same part.'),
  bladeWidth: z.coerce.number().positive().finite().optional().describe('Saw kerf in units; enables the units sanity check (model.suggestedUnits).'),
  holes: z.enum(['cut', 'drill'], { error: 'holes must be "cut" (or absent for drilling)' }).optional()
    .describe('cut: round holes come back as polygon rings in holes (for nesting); drill (the default): as drilling in machining.holes.'),
});
/** The raw model file (our content-type parser reads any body into bytes). */
const modelFile = z.instanceof(Uint8Array).meta({ type: 'string', contentMediaType: 'application/octet-stream', description: 'The model file itself: raw bytes, not multipart or base64.' });

function tooLarge(received?: number): ApiError {
  return new ApiError(413, `The model file is larger than the ${MAX_MODEL_BYTES / (1024 * 1024)} MB limit; export it coarser or as STEP`, {
    limitBytes: MAX_MODEL_BYTES, ...(received !== undefined ? { receivedBytes: received } : {}),
  });
}

/** Reads the raw body into one fresh (transferable) array, refusing it past the limit. */
function readModelBody(request: FastifyRequest, payload: NodeJS.ReadableStream, done: (err: Error | null, body?: unknown) => void) {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_MODEL_BYTES) {
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
      // Cut off: drop what was read; the error answer reads the rest (refused-body.ts).
      chunks.length = 0;
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

export async function analysisRoutes(app: FastifyInstance, { services }: FamilyOptions) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { bodyLimit: MAX_MODEL_BYTES }, readModelBody);

  app.withTypeProvider<ZodTypeProvider>().post('/v3/model/analysis', {
    schema: {
      operationId: 'analyseModel',
      tags: ['model analysis'],
      summary: 'Analyse a 3D model into a parts list',
      description: 'The body is the model file itself. Formats: STEP (.step/.stp), STL (binary and ASCII), OBJ, PLY, glTF/GLB (embedded or data-URI buffers; external files are not fetched). The format comes from the magic bytes, with filename/format as tiebreak; OBJ and ASCII STL need one of them. The parts array posts unchanged to /v3/calculate. One call plus its compute time is billed when the analysis succeeds; refusals are not billed.',
      consumes: ['application/octet-stream'],
      querystring: query,
      body: modelFile,
      response: {
        200: json('The analysis.', analysisResponse),
        ...invalid('Empty body, format unknown or contradicted by the bytes, malformed file, or a bad query parameter;'),
        ...unauthorized,
        ...admission,
        413: failure(`Body over ${MAX_MODEL_BYTES / 1024 / 1024} MB (refused from Content-Length, or cut off when chunked; the rest, up to 64 MB, is read and dropped before this answer).`),
        415: failure('Collada or 3MF: details.format, details.supported, details.help.'),
        422: failure('Over 2,000,000 triangles, or over the 30 s time budget (details.advice: the advice gathered so far).'),
      },
    },
    bodyLimit: MAX_MODEL_BYTES,
    onRequest: admitCall(services.limiter, services.metering),
    onResponse: refundRefused(services.limiter),
  }, async (request) => {
    const q = request.query;
    const body = request.body;
    if (body.length === 0) {
      throw new ApiError(400, 'The request body is empty; send the model file itself as the body (Content-Type: application/octet-stream)');
    }
    const { account } = request;
    let outcome;
    try {
      outcome = await services.pool.runAnalysis({
        kind: 'analysis',
        bytes: body,
        filename: q.filename,
        format: q.format,
        budgetMs: services.config.analysisBudgetMs,
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
        throw new ApiError(422, `The analysis did not finish within its ${services.config.analysisBudgetMs / 1000} s time budget: ${error.message}`, { budgetSeconds: services.config.analysisBudgetMs / 1000, advice: [] });
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
