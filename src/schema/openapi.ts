// The OpenAPI 3.1 document around the routes' own declarations: the parts that are no route's
// (info, security, tags, webhooks) and the finishing touches that keep generated clients
// honest. The paths themselves come from the routes (src/api/contract.ts).
/* eslint-disable @typescript-eslint/no-explicit-any -- a JSON document, walked by key */
import type { SwaggerTransformObject } from '@fastify/swagger';
import type { OpenAPIV3_1 } from 'openapi-types';
import { jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { REQUEST_EXAMPLES } from './examples.js';
import { LIMITS } from './request.js';
import { WEBHOOK_EVENTS, deliveryHeaders } from './webhook.js';
import { RETRY_DELAYS_MS } from '../webhooks/policy.js';

type Json = Record<string, any>;

export const documentBase: Partial<OpenAPIV3_1.Document> = {
  openapi: '3.1.0',
  info: {
    title: 'kerf cutting optimisation API',
    version: '3',
    license: { name: 'Proprietary', identifier: 'LicenseRef-kerf-proprietary' },
    description: [
      'Asynchronous cutting optimisation, compatible with SmartCut API v3 clients: submit a calculation, poll its readiness, fetch the result (or receive it by webhook), export it as a file; and turn a 3D model into a parts list.',
      'Authentication: the raw API key in the Authorization header (no "Bearer" prefix); missing, prefixed or unknown keys answer 401.',
      'Calls that start work (calculate, model analysis) pass the account hold flag (403), the per-minute rate (429 with Retry-After) and the monthly allowance (403); refused calls are not counted.',
      `Limits per calculation: ${LIMITS.partInstances.toLocaleString('en')} part instances and ${LIMITS.stockRows.toLocaleString('en')} stock rows (422 past them), body ${LIMITS.bodyBytes / 1024 / 1024} MB (413).`,
      'Job states: queued, running, done, failed, expired. Results are kept 7 days (operator setting), then the readiness and result endpoints answer 410.',
      'Legacy SmartCut inputs are accepted and documented as such: numbers as strings (decimals, shop fractions "10 1/2", glyphs "10½"), enum values in any letter case, the several spellings of "no lock", legacy trim side names, saw fields under saw.options. Unknown fields are ignored. A numeric string\'s value must meet the limits of the number form; the schema cannot say so for strings, the server does (400).',
      'Rules across fields that JSON Schema cannot state are checked by the server (400, naming the field): trims must leave some of the stock, the sum of q is at most the part instance limit (422), and with cutType nesting each outline must be a simple polygon inside its l x w frame, each hole inside it.',
      'Result geometry: stock lies with l along x and w along y, origin bottom-left, never rotated; trims cut inward (l1 bottom, l2 top, w1 left, w2 right) and include the blade; a part with rot 1 occupies [x, x + w] x [y, y + l].',
      'Served: sheet stock with cutType guillotine, beam (books of identical sheets, stack counts sheets) and efficiency (CNC routers: parts placed freely at least max(bladeWidth, options.minSpacing) apart; cuts is empty and analysis.numberOfCuts 0; offcuts are disjoint leftover rectangles at least that gap clear of every part; maxPhase, cutPreference and headCuts do not apply); roll stock with guillotine and efficiency (the shortest length of roll; the stock entry\'s l is the length used, metadata.totalRollLength the total); linear stock (bars; x along the bar, y 0; metadata.optimal true only when proven, metadata.lowerBound); cutType nesting on sheet and roll stock (true shapes from part outline and holes; clearance bladeWidth + options.minSpacing between parts, options.minSpacing from the stock edge; each placed part carries rotation, mirrored, placedOutline and placedHoles; cuts are empty). guillotineOptions.strategy time: at equal material, fewer distinct patterns, then fewer cuts.',
    ].join('\n\n'),
  },
  servers: [{
    url: '{base_url}',
    description: 'Where kerf runs; make run serves on http://127.0.0.1:8080.',
    variables: { base_url: { default: 'http://127.0.0.1:8080' } },
  }],
  tags: [
    { name: 'calculation', description: 'Submit a calculation, poll its readiness, fetch the result.' },
    { name: 'exports', description: 'The result as a PDF, CSV, DXF, SVG or PTX file.' },
    { name: 'model analysis', description: 'A 3D model in, a parts list out.' },
    { name: 'webhooks', description: 'What kerf sends to a result webhook URL.' },
  ],
  components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The raw API key from the account page; no "Bearer" prefix.' } } },
  security: [{ apiKey: [] }],
};

const RETRY_AFTER = {
  description: 'Seconds to wait before trying again.',
  schema: { type: 'integer', minimum: 1 },
};

/** @fastify/swagger's last step: components from the zod registry, then webhooks and tidying. */
export const completeDocument: SwaggerTransformObject = (input) => {
  const document = jsonSchemaTransformObject(input) as Json;
  document.webhooks = webhooks();
  // zod leaves examples out of schemas that transform their input; the README's go here.
  document.paths['/v3/calculate'].post.requestBody.content['application/json'].examples = REQUEST_EXAMPLES;
  for (const path of Object.values<Json>(document.paths ?? {})) {
    for (const operation of Object.values<Json>(path)) {
      // The rate limiter's 429 always says when to come back (api/auth.ts).
      if (operation.responses?.['429']) operation.responses['429'].headers = { 'Retry-After': RETRY_AFTER };
    }
  }
  return withoutDefaults(namedForClients(document));
};

function webhooks(): Json {
  const retries = RETRY_DELAYS_MS.map((ms) => (ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`)).join(', ');
  return Object.fromEntries(Object.entries(WEBHOOK_EVENTS).map(([event, spec]) => [event, {
    post: {
      operationId: event === 'job.completed' ? 'jobCompleted' : 'jobFailed',
      tags: ['webhooks'],
      summary: spec.summary,
      description: `${spec.description} Sent as a POST with Content-Type application/json to the request's webhook URL, else to the account's default URL; X-Service-Event is ${event}. Verify X-Service-Signature before trusting the body (the reference receiver: src/client/receiver.ts).`,
      security: [],
      parameters: Object.entries(deliveryHeaders).map(([name, field]) => {
        const schema: Json = z.toJSONSchema(name === 'X-Service-Event' ? z.literal(event) : field, { target: 'draft-2020-12' });
        delete schema.$schema;
        delete schema.description;
        return { name, in: 'header', required: true, description: field.description, schema };
      }),
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${String(spec.body.meta()?.id)}` } } } },
      responses: {
        '2XX': { description: 'Delivered: answer within 10 s; the body is ignored.' },
        '4XX': { description: 'Not retried, except 408 and 429 (retried, Retry-After honoured within the retry window).' },
        '5XX': { description: `Retried, as are timeouts (10 s) and network errors: after ${retries}, with jitter, then given up. Redirects are not followed.` },
      },
    },
  }]));
}

const REF = '#/components/schemas/';

/**
 * Components every client needs and no other: the zod registry yields an input and an output
 * form of each schema ("XInput" and "X"); keep those referenced, under the plain name.
 */
function namedForClients(document: Json): Json {
  const schemas: Json = document.components.schemas;
  const used = new Set<string>();
  const visit = (value: unknown) => {
    const text = JSON.stringify(value);
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (!used.has(name)) {
        used.add(name);
        visit(schemas[name]);
      }
    }
  };
  visit({ paths: document.paths, webhooks: document.webhooks });
  const renamed = new Map<string, string>();
  for (const name of used) {
    const plain = name.replace(/Input$/, '');
    if (plain !== name && !used.has(plain)) renamed.set(name, plain);
  }
  const kept = Object.keys(schemas).filter((name) => used.has(name)).map((name) => [renamed.get(name) ?? name, schemas[name]]);
  let text = JSON.stringify({ ...document, components: { ...document.components, schemas: Object.fromEntries(kept) } });
  for (const [from, to] of renamed) text = text.replaceAll(`"${REF}${from}"`, `"${REF}${to}"`);
  return JSON.parse(text) as Json;
}

/**
 * Defaults go into the description: openapi-typescript makes a field with a default required
 * in the generated types, and a client must be able to leave it out.
 */
function withoutDefaults(document: Json): Json {
  const visitSchema = (schema: unknown) => {
    if (!schema || typeof schema !== 'object') return;
    const s = schema as Json;
    if ('default' in s) {
      const note = `Default: ${JSON.stringify(s.default)}.`;
      if (!String(s.description ?? '').includes('Default:')) s.description = s.description ? `${s.description} ${note}` : note;
      delete s.default;
    }
    for (const key of ['items', 'not', 'if', 'then', 'else', 'additionalProperties', 'contains']) visitSchema(s[key]);
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) if (Array.isArray(s[key])) s[key].forEach(visitSchema);
    for (const key of ['properties', '$defs', 'patternProperties']) if (s[key]) Object.values(s[key]).forEach(visitSchema);
  };
  Object.values<Json>(document.components.schemas).forEach(visitSchema);
  for (const path of Object.values<Json>({ ...document.paths, ...document.webhooks })) {
    for (const operation of Object.values<Json>(path)) {
      for (const parameter of operation.parameters ?? []) visitSchema(parameter.schema);
      for (const media of Object.values<Json>(operation.requestBody?.content ?? {})) visitSchema(media.schema);
      for (const response of Object.values<Json>(operation.responses ?? {})) {
        for (const media of Object.values<Json>(response.content ?? {})) visitSchema(media.schema);
      }
    }
  }
  return document;
}
