// Counts answers by route and status for kerf_http_requests_total. Each route gets its own
// onSend hook knowing its path (request.routeOptions builds an object on every call), and the
// counts are plain numbers handed to prom-client when /metrics is scraped.
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AnswerTally, Metrics } from '../../metrics.js';

type OnSend = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => void;

declare module 'fastify' {
  interface FastifyInstance {
    /** An onSend hook counting the answers of `route` (the not-found handler counts as "unmatched"). */
    answerCounter: (route: string) => OnSend;
  }
}

export const answerMetrics = fp<{ metrics: Pick<Metrics, 'answerTally'> }>(async (app, { metrics }) => {
  const answerCounter = (route: string): OnSend => {
    const tallies = new Map<number, AnswerTally>();
    return (_request, reply, payload, done) => {
      const status = reply.statusCode;
      let tally = tallies.get(status);
      if (!tally) tallies.set(status, (tally = metrics.answerTally(route, status)));
      tally.count++;
      done(null, payload);
    };
  };
  app.decorate('answerCounter', answerCounter);
  app.addHook('onRoute', (route) => {
    const onSend = Array.isArray(route.onSend) ? route.onSend : route.onSend ? [route.onSend] : [];
    route.onSend = [...onSend, answerCounter(route.url ?? 'unmatched')];
  });
}, { name: 'kerf-metrics' });
