// An example webhook receiver built on verifyDelivery: answers 2xx fast, drops repeats by
// delivery id, and hands the event on. Run: KERF_SIGNING_SECRET=whsec_... PORT=9000 node dist/src/client/example-receiver.js
import http from 'node:http';
import type { JobFailedEvent, ResultResponse } from './client.js';
import { verifyDelivery } from './receiver.js';

const secret = process.env.KERF_SIGNING_SECRET;
if (!secret) {
  process.stderr.write('set KERF_SIGNING_SECRET to the signing secret shown on the account page\n');
  process.exit(2);
}
const seen = new Set<string>();

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks);
    const verdict = verifyDelivery({ header: request.headers['x-service-signature'] as string | undefined, body, secret });
    if (!verdict.ok) {
      response.writeHead(400).end(verdict.reason);
      return;
    }
    const id = String(request.headers['x-service-delivery']);
    response.writeHead(204).end();
    if (seen.has(id)) return; // a retry of something already handled
    seen.add(id);
    const text = body.toString('utf8');
    if (request.headers['x-service-event'] === 'job.completed') {
      const result = JSON.parse(text) as ResultResponse;
      process.stdout.write(`job.completed delivery ${id}: job ${result.jobId}\n`);
    } else {
      const failed = JSON.parse(text) as JobFailedEvent;
      process.stdout.write(`job.failed delivery ${id}: ${failed.message}\n`);
    }
  });
});
server.listen(Number(process.env.PORT ?? 9000), () => process.stdout.write(`receiving on port ${(server.address() as { port: number }).port}\n`));
