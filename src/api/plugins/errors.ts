// One error body everywhere ({ error, details, version: "3" }, see ../errors.ts): the error
// handler turns ApiError and Fastify's own errors into it, and a path kerf does not serve
// answers a 404 naming it (counted as route "unmatched").
import fp from 'fastify-plugin';
import { errorBody, handleError } from '../errors.js';

export const errorAnswers = fp(async (app) => {
  app.setErrorHandler(handleError);
  const unmatched = app.answerCounter('unmatched');
  app.setNotFoundHandler((request, reply) => {
    unmatched(request, reply.code(404), undefined, () => {});
    return reply.send(errorBody(`No route ${request.method} ${request.url.split('?')[0]}`));
  });
}, { name: 'kerf-errors', dependencies: ['kerf-metrics'] });
