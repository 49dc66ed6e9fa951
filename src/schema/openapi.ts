// The OpenAPI 3.1 document, generated from the zod schemas so it cannot drift from what the
// service validates. Choices the specification leaves open are written into the descriptions.
import { z } from 'zod';
import { LIMITS, calculationRequest } from './request.js';
import { errorBody, failedJobBody, jobAccepted, resultRecord } from './result.js';

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
        'Not yet served (the job fails with a message saying so): linear and roll stock, cutType beam and nesting.',
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
    },
  };
}
