// The OpenAPI 3.1 document, generated from the zod schemas so it cannot drift from what the
// service validates. Choices the specification leaves open are written into the descriptions.
import { z } from 'zod';
import { LIMITS, calculationRequest } from './request.js';
import { FORMATS } from '../exports/index.js';
import { errorBody, failedJobBody, jobAccepted, resultRecord } from './result.js';
import { analysisResponse } from './analysis.js';

const json = (schema: z.ZodType, io: 'input' | 'output' = 'output') =>
  z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' });

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const idParam = { name: 'id', in: 'query', required: true, schema: { type: 'integer', minimum: 1 }, description: 'The job id.' };

export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'kerf cutting optimisation API',
      version: '3',
      description: [
        'Asynchronous cutting optimisation, compatible with SmartCut API v3 clients.',
        'Authentication: the raw API key in the Authorization header (no "Bearer" prefix); missing, prefixed or unknown keys answer 401.',
        'Calls that start work (calculate) pass the account hold flag (403), the per-minute rate (429 with Retry-After) and the monthly allowance (403); refused calls are not counted.',
        `Limits per calculation: ${LIMITS.partInstances} part instances and ${LIMITS.stockRows} stock rows (422 past them), body ${LIMITS.bodyBytes / 1024 / 1024} MB (413).`,
        'Job states: queued, running, done, failed, expired. Results are kept 7 days (operator setting), then the readiness and result endpoints answer 410.',
        'Unknown fields are ignored. Numbers may be sent as numeric strings, including shop fractions such as "10 1/2".',
        'Result geometry: stock lies with l along x and w along y, origin bottom-left, never rotated; trims cut inward (l1 bottom, l2 top, w1 left, w2 right) and include the blade; a part with rot 1 occupies [x, x + w] x [y, y + l].',
        'Served: sheet stock with cutType guillotine, beam (books of identical sheets, stack counts sheets) and efficiency (CNC routers: parts placed freely, not by guillotine cuts, at least max(bladeWidth, options.minSpacing) apart; cuts is empty and analysis.numberOfCuts 0, since a router follows each part outline; offcuts are disjoint leftover rectangles at least that gap clear of every part; maxPhase, cutPreference and headCuts do not apply); roll stock with guillotine and efficiency (the shortest length of roll; the stock entry\'s l is the length used, metadata.totalRollLength the total). guillotineOptions.strategy time: at equal material, fewer distinct patterns, then fewer cuts. metadata.engine.greedy: the greedy start the search began from (sheets, stock area, part area); the result is never worse; linear stock (bars; x along the bar, y 0; metadata.optimal true only when proven, metadata.lowerBound). cutType nesting on sheet and roll stock (true shapes from part outline and holes, rectangles without outline; saw.nestingOptions for free rotation, mirroring and a longer search on the clock (searchTime, up to the job budget; the fixed effort otherwise, deterministic for options.seed); clearance bladeWidth + options.minSpacing between parts, options.minSpacing from the stock edge; each placed part carries rotation in degrees, mirrored, placedOutline and placedHoles in stock coordinates; cuts are empty; offcuts are the remnants one straight cut frees, bladeWidth + options.minSpacing clear of the parts: on sheets the region beyond the parts along l, then the band above them, on rolls only that band, each at least minOffcut on both sides).',
      ].join('\n\n'),
    },
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Authorization' } },
      schemas: {
        CalculationRequest: json(calculationRequest, 'input'),
        ResultResponse: json(resultRecord),
        Error: json(errorBody),
        FailedJob: json(failedJobBody),
        JobAccepted: json(jobAccepted),
        AnalysisResponse: json(analysisResponse),
      },
    },
    security: [{ apiKey: [] }],
    paths: {
      '/v3/calculate': {
        post: {
          summary: 'Submit a calculation',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/CalculationRequest' } } } },
          responses: {
            200: { description: 'Accepted; poll /v3/result/ready with the job id.', content: { 'application/json': { schema: { $ref: '#/components/schemas/JobAccepted' } } } },
            400: error('Malformed JSON or invalid fields; details.issues lists each field path and message.'),
            401: error('Missing, prefixed or unknown API key.'),
            403: error('Account on hold or monthly allowance used up.'),
            413: error('Body over 8 MB.'),
            422: error('Too many part instances or stock rows.'),
            429: error('Rate limited; honour Retry-After.'),
          },
        },
      },
      '/v3/model/analysis': {
        post: {
          summary: 'Analyse a 3D model into a parts list',
          description: 'The body is the model file itself (raw bytes, not multipart). Formats: STEP (.step/.stp), STL (binary and ASCII), OBJ, PLY, glTF/GLB (embedded or data-URI buffers; external files are not fetched). The format comes from the magic bytes, with filename/format as tiebreak; OBJ and ASCII STL need one of them. The parts array posts unchanged to /v3/calculate. One call plus its compute time is billed when the analysis succeeds; refusals are not billed.',
          parameters: [
            { name: 'filename', in: 'query', required: false, schema: { type: 'string' } },
            { name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['obj', 'stl', 'ply', 'gltf', 'glb', 'step', 'stp'] } },
            { name: 'units', in: 'query', required: false, schema: { type: 'string', enum: ['mm', 'cm', 'm', 'in', 'ft'], default: 'mm' } },
            { name: 'sourceUnits', in: 'query', required: false, schema: { type: 'string', enum: ['mm', 'cm', 'm', 'in', 'ft'] } },
            { name: 'dedupe', in: 'query', required: false, schema: { type: 'boolean', default: true } },
            { name: 'mirrorDedupe', in: 'query', required: false, schema: { type: 'boolean', default: false } },
            { name: 'bladeWidth', in: 'query', required: false, schema: { type: 'number', exclusiveMinimum: 0 } },
            { name: 'holes', in: 'query', required: false, schema: { type: 'string', enum: ['cut'] } },
          ],
          requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
          responses: {
            200: { description: 'The analysis.', content: { 'application/json': { schema: { $ref: '#/components/schemas/AnalysisResponse' } } } },
            400: error('Empty body, format unknown or contradicted by the bytes, malformed file, or bad units.'),
            401: error('Missing, prefixed or unknown API key.'),
            403: error('Account on hold or monthly allowance used up.'),
            413: error('Body over 32 MB (refused from Content-Length before reading; a chunked body is cut off).'),
            415: error('Collada or 3MF; details.format, details.supported, details.help.'),
            422: error('Over 2,000,000 triangles, or over the 30 s time budget (details.advice: the advice gathered so far).'),
            429: error('Rate limited; honour Retry-After.'),
          },
        },
      },
      '/v3/result/ready': {
        get: {
          summary: 'Is the job finished?',
          parameters: [idParam],
          responses: {
            200: { description: 'Finished (done or failed): fetch /v3/result.' },
            404: { description: 'Not finished yet, or no such job for this account.' },
            410: { description: 'Expired and gone.' },
            400: error('id is not a positive integer.'),
            401: error('Missing, prefixed or unknown API key.'),
          },
        },
      },
      '/v3/result': {
        get: {
          summary: 'Fetch the result record',
          parameters: [idParam],
          responses: {
            200: { description: 'The result record.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ResultResponse' } } } },
            404: error('Not finished yet, or no such job for this account.'),
            410: error('Expired and gone.'),
            422: { description: 'The job failed; the same body the job.failed webhook carries.', content: { 'application/json': { schema: { $ref: '#/components/schemas/FailedJob' } } } },
            401: error('Missing, prefixed or unknown API key.'),
          },
        },
      },
      '/v3/result/export': {
        get: {
          summary: 'Download the result as a file',
          description: Object.entries(FORMATS)
            .map(([name, f]) => `${name}: ${f.contentType}, options ${f.options.join(', ')}`)
            .join('; ') + '. The file name is job-<id>.<ext> (Content-Disposition). PDF: cover, one page per pattern, cut list, parts list; option labels prints part labels. CSV (RFC 4180): one row per placed part; parts: a summary; cuts: the cut list; machining: drilling. DXF (R12, $INSUNITS mm): layers STOCK, PARTS, CUTS, OFFCUTS, LABELS, DRILLING, sheets side by side. SVG: one <g> per stock entry. PTX: the Pattern Exchange saw file.',
          parameters: [
            idParam,
            { name: 'format', in: 'query', required: true, schema: { type: 'string', enum: Object.keys(FORMATS) } },
            { name: 'option', in: 'query', required: false, schema: { type: 'string', default: 'layout' } },
          ],
          responses: {
            200: { description: 'The file.', content: Object.fromEntries(Object.values(FORMATS).map((f) => [f.contentType.split(';')[0], {}])) },
            400: error('Unknown format or option; details.allowed lists the values.'),
            404: error('Not finished yet, or no such job for this account.'),
            410: error('Expired and gone.'),
            422: error('The job failed: nothing to export.'),
            401: error('Missing, prefixed or unknown API key.'),
          },
        },
      },
    },
  };
}
