// A body refused before it was all read (413 from Content-Length, or cut off past a limit) is
// still arriving when the error is known. Answering and closing then makes the kernel reset
// the connection on the bytes still coming, and a client that is still writing sees EPIPE or
// ECONNRESET instead of the answer (keep-alive or not: a client may ask to close). So the rest
// is read and dropped first, up to a bound, and the answer goes out when the body has ended or
// the client has paused; a body declared past the bound is answered at once.
import type { FastifyRequest } from 'fastify';

/** Bytes of a refused body read and dropped before the answer. */
export const DRAIN_BYTES = 64 * 1024 * 1024;
/** A client that sends nothing for this long is answered (it may be waiting for the answer). */
export const DRAIN_IDLE_MS = 1000;

/** Whether the request's body is still coming in. */
export function bodyStillArriving(request: FastifyRequest): boolean {
  return !request.raw.complete && !request.raw.destroyed;
}

/** Reads and drops the rest of the body; resolves at its end, a pause, the bound, or an error. */
export function drainBody(request: FastifyRequest, maxBytes = DRAIN_BYTES, idleMs = DRAIN_IDLE_MS): Promise<void> {
  const raw = request.raw;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      clearTimeout(idle);
      raw.off('data', onData);
      raw.off('end', done);
      raw.off('close', done);
      raw.off('error', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) done();
      else idle.refresh();
    };
    const idle = setTimeout(done, idleMs);
    raw.on('data', onData);
    raw.once('end', done);
    raw.once('close', done);
    raw.once('error', done);
    raw.resume();
  });
}
