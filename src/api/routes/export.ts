// GET /v3/result/export: the finished result as a file (pdf, csv, dxf, svg, ptx), made from the
// stored result record. Same authorisation and readiness rules as GET /v3/result: another
// account's job answers like one not finished (404), an expired one 410; a failed job has
// nothing to export (422).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DEFAULT_OPTION, FORMATS, formatNames, isFormat } from '../../exports/index.js';
import { renderExport } from '../../exports/run.js';
import { authenticate } from '../auth.js';
import { ApiError } from '../errors.js';
import type { JobView } from '../../jobs/store.js';
import type { Services } from '../services.js';

export function exportQuery(raw: unknown): { id: number; format: keyof typeof FORMATS; option: string } {
  const q = (raw ?? {}) as Record<string, unknown>;
  const id = typeof q.id === 'string' && /^\d{1,15}$/.test(q.id) ? Number(q.id) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new ApiError(400, 'Query parameter id must be a job id (a positive integer)', { field: 'id' });
  const format = typeof q.format === 'string' ? q.format.toLowerCase() : '';
  if (!isFormat(format)) {
    throw new ApiError(400, `Query parameter format must be one of ${formatNames.join(', ')}${q.format === undefined ? '' : ` (got "${String(q.format)}")`}`,
      { field: 'format', allowed: formatNames });
  }
  const allowed = FORMATS[format].options;
  const option = q.option === undefined || q.option === '' ? DEFAULT_OPTION : typeof q.option === 'string' ? q.option.toLowerCase() : '';
  if (!allowed.includes(option)) {
    throw new ApiError(400, `Query parameter option for format ${format} must be one of ${allowed.join(', ')} (got "${String(q.option)}")`,
      { field: 'option', format, allowed });
  }
  return { id, format, option };
}

/** The job's export as the answer, or the error its state calls for (the account page's viewer sends it too). */
export async function sendExport(reply: FastifyReply, id: number, job: JobView | undefined, format: keyof typeof FORMATS, option: string) {
  if (!job || job.state === 'queued' || job.state === 'running') throw new ApiError(404, `Job ${id} is not finished (or does not exist)`, { jobId: id });
  if (job.state === 'expired') throw new ApiError(410, `The result of job ${id} has expired and is gone`, { jobId: id });
  if (job.state === 'failed') {
    throw new ApiError(422, `Job ${id} failed, so there is nothing to export: ${job.error ?? 'the calculation failed'}`, { jobId: id, reason: job.error ?? '' });
  }
  if (job.result === null) throw new Error(`job ${id} is done but has no stored result`);
  const spec = FORMATS[format];
  const body = await renderExport(job.result, format, option);
  return reply
    .type(spec.contentType)
    .header('content-disposition', `attachment; filename="job-${id}.${spec.extension}"`)
    .send(body);
}

export async function exportRoutes(app: FastifyInstance, services: Services) {
  const onRequest = authenticate(services.accounts);

  app.get('/v3/result/export', { onRequest }, async (request, reply) => {
    const { id, format, option } = exportQuery(request.query);
    return sendExport(reply, id, await services.jobs.get(id, request.account!.id), format, option);
  });
}
