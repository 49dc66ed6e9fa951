// Real HTTP receivers on loopback for the webhook tests, each answering by a script, and a
// real SMTP server that keeps what it receives.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Answer = { status: number; headers?: Record<string, string>; hang?: boolean; body?: string };

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** How the next requests are answered; the last entry repeats. */
  script: Answer[];
  close: () => Promise<void>;
}

export async function startReceiver(script: Answer[] = [{ status: 204 }], port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const state = { script, served: 0 };
  const hung: http.ServerResponse[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = state.script[Math.min(state.served++, state.script.length - 1)];
      if (answer.hang) {
        hung.push(response);
        return;
      }
      response.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hook`,
    port: actual,
    received,
    get script() {
      return state.script;
    },
    set script(next: Answer[]) {
      state.script = next;
      state.served = 0;
    },
    close: () => new Promise<void>((resolve) => {
      for (const r of hung) r.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export interface MailMessage {
  to: string[];
  raw: string;
}

export async function startSmtp(): Promise<{ url: string; messages: MailMessage[]; close: () => Promise<void> }> {
  const messages: MailMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
