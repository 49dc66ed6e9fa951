// The API contract in one place: routes declare zod schemas for their querystring, body and
// every response; Fastify validates with them, and @fastify/swagger makes the OpenAPI document
// from the same declarations (src/schema/openapi.ts adds what is not a route: webhooks).
import swagger from '@fastify/swagger';
import type { FastifySchemaCompiler } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { completeDocument, documentBase } from '../../schema/openapi.js';
import { fromZod } from '../errors.js';

/** A route's querystring and body are parsed by its zod schema; a failure is our 400 body. */
export const validatorCompiler: FastifySchemaCompiler<ZodType> = ({ schema }) => (data) => {
  const parsed = schema.safeParse(data);
  return parsed.success ? { value: parsed.data } : { error: fromZod(parsed.error, data) };
};

/**
 * Responses are written as they are: the schemas document them, and the conformance test
 * checks real answers against the document (checking each answer here would cost every call).
 */
const serializerCompiler = () => (data: unknown) => JSON.stringify(data);

/** Validation, serialisation and the document; register before the routes. */
export const contract = fp(async (app) => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, {
    openapi: documentBase,
    // Routes without tags (account pages, docs, legacy paths, metrics) are not part of the API.
    hideUntagged: true,
    transform: jsonSchemaTransform,
    transformObject: completeDocument,
  });
}, { name: 'kerf-contract' });
