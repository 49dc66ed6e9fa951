// GET /v3/result/export: the finished result as a file (pdf, csv, dxf, svg, ptx), made from the
// stored result record. Same authorisation and readiness rules as GET /v3/result: another
// account's job answers like one not finished (404), an expired one 410; a failed job has
// nothing to export (422).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_OPTION, FORMATS, formatNames } from '../../exports/index.js';
import { renderExport } from '../../exports/run.js';
import type { JobView } from '../../storage/jobs/store.js';
import { caseless } from '../../schema/words.js';
import { ApiError, fromZod } from '../errors.js';
import { finishedJob, jobQuery } from '../job-answers.js';
import { failure, invalid, notReady, unauthorized } from '../responses.js';
import type { FamilyOptions } from '../services.js';

const optionNames = [...new Set(Object.values(FORMATS).flatMap((f) => f.options))] as [string, ...string[]];

const exportParameters = jobQuery.extend({
  format: caseless(formatNames as [typeof formatNames[number], ...typeof formatNames]).describe('The file format.'),
  option: caseless(optionNames).optional()
    .describe(`What the file holds; default ${DEFAULT_OPTION}. Each format takes only some: ${Object.entries(FORMATS).map(([name, f]) => `${name}: ${f.options.join(', ')}`).join('; ')} (another is a 400).`),
});

/** The one check the document cannot state: the option must be one the format takes. */
function optionFor(format: keyof typeof FORMATS, option: string = DEFAULT_OPTION): string {
  const allowed = FORMATS[format].options;
  if (!allowed.includes(option)) {
    throw new ApiError(400, `Query parameter option for format ${format} must be one of ${allowed.join(', ')} (got "${option}")`, { field: 'option', format, allowed });
  }
  return option;
}

/** An export's query, parsed and checked as the API route does (the account page's viewer reads one too). */
export function exportQuery(raw: unknown): { id: number; format: keyof typeof FORMATS; option: string } {
  const parsed = exportParameters.safeParse(raw ?? {});
  if (!parsed.success) throw fromZod(parsed.error, raw);
  return { ...parsed.data, option: optionFor(parsed.data.format, parsed.data.option) };
}

/** The job's export as the answer, or the error its state calls for (the account page's viewer sends it too). */
export async function sendExport(reply: FastifyReply, id: number, job: JobView | undefined, format: keyof typeof FORMATS, option: string) {
  const finished = finishedJob(id, job);
  if (finished.state === 'failed') {
    throw new ApiError(422, `Job ${id} failed, so there is nothing to export: ${finished.error ?? 'the calculation failed'}`, { jobId: id, reason: finished.error ?? '' });
  }
  if (finished.result === null) throw new Error(`job ${id} is done but has no stored result`);
  const spec = FORMATS[format];
  const body = await renderExport(finished.result, format, option);
  return reply
    .type(spec.contentType)
    .header('content-disposition', `attachment; filename="job-${id}.${spec.extension}"`)
    .send(body);
}

export async function exportRoutes(app: FastifyInstance, { services }: FamilyOptions) {
  app.withTypeProvider<ZodTypeProvider>().get('/v3/result/export', {
    schema: {
      operationId: 'exportResult',
      tags: ['exports'],
      summary: 'Download the result as a file',
      description: 'The file name is job-<id>.<ext> (Content-Disposition). PDF: cover, one page per pattern, cut list, parts list; option labels prints part labels. CSV (RFC 4180): one row per placed part; parts: a summary; cuts: the cut list; machining: drilling. DXF (R12, $INSUNITS mm): layers STOCK, PARTS, CUTS, OFFCUTS, LABELS, DRILLING, sheets side by side. SVG: one <g> per stock entry. PTX: the Pattern Exchange saw file.',
      querystring: exportParameters,
      response: {
        200: {
          description: 'The file.',
          content: Object.fromEntries(Object.values(FORMATS).map((f) => [f.contentType.split(';')[0], { schema: z.string().meta({ contentMediaType: f.contentType.split(';')[0] }) }])),
        },
        ...invalid('Unknown format or option, or an option the format does not take (details.allowed lists its options);'),
        ...unauthorized,
        ...notReady,
        422: failure('The job failed: nothing to export.'),
      },
    },
  }, async (request, reply) => {
    const { id, format } = request.query;
    const option = optionFor(format, request.query.option);
    return sendExport(reply, id, await services.jobs.get(id, request.account.id), format, option);
  });
}
