// The OpenAPI document as a judge: what it says of a request (valid or not) and of an answer
// (a documented status, a body that fits its schema), with ajv in strict mode. Query values
// arrive as strings, so parameters are judged with ajv's type coercion, as a server would.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

// A CommonJS module: its default export is the plugin under Node, the module under vitest.
const addFormats = ((formats as { default?: unknown }).default ?? formats) as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, any>;

export interface Operation {
  id: string;
  method: string;
  path: string;
  parameters: { name: string; in: string; required?: boolean; schema: Json }[];
  body?: Json;
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}

export interface Contract {
  operations: Map<string, Operation>;
  /** Errors of `value` against a components schema (empty: valid). */
  schemaErrors(name: string, value: unknown): string[];
  /** Errors of a request to `operationId`: its query (string values) and JSON body. */
  requestErrors(operationId: string, request: { query?: Record<string, string>; body?: unknown }): string[];
  /** Errors of an answer: an undocumented status, or a body that does not fit. */
  responseErrors(operationId: string, status: number, contentType: string | null, body: string): string[];
  /** Errors of webhook headers and body against the document's webhooks section. */
  webhookErrors(event: string, headers: Record<string, string | undefined>, body: string): string[];
}

const REF = '#/components/schemas/';

export function contractOf(document: Json): Contract {
  const local = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll(`"${REF}`, '"kerf#/$defs/'));
  const make = (coerceTypes: boolean) => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, coerceTypes });
    addFormats(ajv);
    ajv.addSchema({ $id: 'kerf', $defs: local(document.components.schemas) });
    return ajv;
  };
  const strictAjv = make(false);
  const coercingAjv = make(true);
  const compiled = new Map<string, ValidateFunction>();
  const validator = (schema: Json, coerce = false): ValidateFunction => {
    const key = `${coerce}:${JSON.stringify(schema)}`;
    const known = compiled.get(key);
    if (known) return known;
    const fn = (coerce ? coercingAjv : strictAjv).compile(local(schema));
    compiled.set(key, fn);
    return fn;
  };
  const errorsOf = (fn: ValidateFunction, value: unknown, where: string) =>
    fn(value) ? [] : (fn.errors ?? []).map((e) => `${where}${e.instancePath} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);

  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      operations.set(op.operationId, {
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
        responses: op.responses,
      });
    }
  }
  const operation = (id: string) => {
    const op = operations.get(id);
    if (!op) throw new Error(`no operation ${id} in the document`);
    return op;
  };
  const parameterErrors = (parameters: Operation['parameters'], values: Record<string, string | undefined>, where: string) =>
    parameters.flatMap((p) => {
      const value = values[p.name] ?? values[p.name.toLowerCase()];
      if (value === undefined) return p.required ? [`${where} ${p.name} is required`] : [];
      // A one-property object lets ajv coerce the string in place.
      return errorsOf(validator({ type: 'object', properties: { v: p.schema } }, true), { v: value }, `${where} ${p.name}`);
    });

  return {
    operations,
    schemaErrors: (name, value) => errorsOf(validator({ $ref: `${REF}${name}` }), value, name),
    requestErrors(operationId, request) {
      const op = operation(operationId);
      const errors = parameterErrors(op.parameters.filter((p) => p.in === 'query'), request.query ?? {}, 'query');
      if (op.body) errors.push(...errorsOf(validator(op.body), request.body, 'body'));
      return errors;
    },
    responseErrors(operationId, status, contentType, body) {
      const response = operation(operationId).responses[String(status)];
      if (!response) return [`status ${status} is not documented for ${operationId}`];
      if (!response.content) return body ? [`status ${status} has no documented body, got ${body.slice(0, 80)}`] : [];
      const media = (contentType ?? '').split(';')[0].trim();
      const schema = response.content[media]?.schema;
      if (!schema) return [`status ${status}: content type ${media} is not documented`];
      if (media !== 'application/json') return [];
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        return [`status ${status}: the body is not JSON`];
      }
      return errorsOf(validator(schema), value, `${status}`);
    },
    webhookErrors(event, headers, body) {
      const hook = document.webhooks?.[event]?.post;
      if (!hook) return [`no webhook ${event} in the document`];
      const errors = parameterErrors(hook.parameters, headers, 'header');
      errors.push(...errorsOf(validator(hook.requestBody.content['application/json'].schema), JSON.parse(body), 'body'));
      return errors;
    },
  };
}
