// The delivery loop: sends what the outbox has due, signed afresh at every attempt, through the
// SSRF guard, with a 10 s budget, no redirects and at most 64 KB of the answer read; then
// records the attempt, schedules the retry or closes the delivery, and keeps endpoint health.
import type { Logger } from 'pino';
import { request as httpRequest, type Dispatcher as UndiciDispatcher } from 'undici';
import { signingSecrets, type AccountStore } from '../accounts/accounts.js';
import type { Clock } from '../clock.js';
import type { EndpointHealth } from './health.js';
import type { Mailer } from './mailer.js';
import type { Delivery } from './outbox.js';
import type { OutboxStore } from './outbox-store.js';
import { classify, nextAttemptAt, parseRetryAfter } from './policy.js';
import { signatureHeader } from './signing.js';
import { BlockedAddress, checkUrl, guardedAgent, type AddressPolicy } from './ssrf.js';

export interface DelivererOptions {
  policy: AddressPolicy;
  timeoutMs?: number;
  maxResponseBytes?: number;
  concurrency?: number;
  pollMs?: number;
  /** The account page address named in e-mails. */
  accountPageUrl: string;
}

interface AttemptOutcome {
  status?: number;
  error?: string;
  retryAfterMs?: number;
}

export class Deliverer {
  private readonly agent: UndiciDispatcher;
  private readonly inFlight = new Set<string>();
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  constructor(
    private readonly outbox: OutboxStore,
    private readonly accounts: AccountStore,
    private readonly health: EndpointHealth,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly options: DelivererOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBytes = options.maxResponseBytes ?? 64 * 1024;
    this.agent = guardedAgent(options.policy, this.timeoutMs);
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.options.pollMs ?? 1_000);
    this.timer.unref();
  }

  /** Sends every delivery due now (up to the concurrency), and waits for them. */
  tick(): Promise<void> {
    // A shared outbox can be briefly unreachable (Redis restarting): log it, try next tick.
    this.ticking ??= this.sendDue()
      .catch((error) => this.log.error({ err: error }, 'could not read due deliveries'))
      .finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async sendDue(): Promise<void> {
    const limit = this.options.concurrency ?? 8;
    // Each delivery at most once per tick: one whose bookkeeping failed stays due, and must
    // wait for the next tick rather than spin here.
    const tried = new Set<string>();
    for (;;) {
      const due = await this.outbox.takeDue(this.clock.now(), limit, new Set([...this.inFlight, ...tried]));
      if (due.length === 0) return;
      for (const d of due) tried.add(d.id);
      await Promise.all(due.map((d) => this.deliver(d)));
    }
  }

  private async deliver(delivery: Delivery): Promise<void> {
    this.inFlight.add(delivery.id);
    try {
      const account = this.accounts.get(delivery.accountId);
      if (!account) return await this.outbox.update(delivery.id, 'failed', delivery.attempts, delivery.nextAttemptAt, null, 'account removed', this.clock.now());
      if (delivery.accountDefault && (await this.health.state(account.id)).disabledAt !== null) {
        this.log.info({ deliveryId: delivery.id }, 'endpoint disabled: delivery skipped');
        return await this.outbox.update(delivery.id, 'skipped', delivery.attempts, delivery.nextAttemptAt, null, 'endpoint disabled', this.clock.now());
      }
      const attempt = delivery.attempts + 1;
      const started = this.clock.now();
      const outcome = await this.send(delivery, attempt, signingSecrets(account, started));
      const now = this.clock.now();
      await this.outbox.recordAttempt(delivery.id, { attempt, at: started, status: outcome.status ?? null, error: outcome.error ?? null, durationMs: now - started });
      const verdict = outcome.error?.startsWith('refused:') ? 'final' : classify(outcome.status);
      const status = outcome.status ?? null;
      if (verdict === 'delivered') {
        await this.outbox.update(delivery.id, 'delivered', attempt, now, status, null, now);
        if (delivery.accountDefault) await this.health.succeeded(account.id);
        return;
      }
      const next = verdict === 'retry' ? nextAttemptAt(attempt, delivery.createdAt, now, outcome.retryAfterMs) : undefined;
      if (next === undefined) await this.outbox.update(delivery.id, 'failed', attempt, now, status, outcome.error ?? `HTTP ${status}`, now);
      else await this.outbox.update(delivery.id, 'pending', attempt, next, status, outcome.error ?? `HTTP ${status}`, now);
      if (delivery.accountDefault) await this.recordFailure(account.id, account.email, delivery.url, now);
    } catch (error) {
      this.log.error({ err: error, deliveryId: delivery.id }, 'delivery bookkeeping failed');
    } finally {
      this.inFlight.delete(delivery.id);
    }
  }

  private async send(delivery: Delivery, attempt: number, secrets: string[]): Promise<AttemptOutcome> {
    let url: URL;
    try {
      url = new URL(delivery.url);
      checkUrl(url, this.options.policy);
    } catch (error) {
      return { error: `refused: ${(error as Error).message}` };
    }
    const timestamp = Math.floor(this.clock.now() / 1000);
    try {
      const response = await httpRequest(url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'kerf-webhooks/1',
          'x-service-event': delivery.event,
          'x-service-delivery': delivery.id,
          'x-service-attempt': String(attempt),
          'x-service-timestamp': String(timestamp),
          'x-service-signature': signatureHeader(secrets, timestamp, delivery.body),
        },
        body: delivery.body,
      });
      await this.drain(response.body);
      const retryAfter = response.headers['retry-after'];
      return { status: response.statusCode, retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, this.clock.now()) };
    } catch (error) {
      const blocked = blockedCause(error);
      if (blocked) return { error: `refused: ${blocked.message}` };
      const message = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError'
        ? `no answer within ${this.timeoutMs / 1000} s` : (error as Error).message;
      return { error: `network: ${message}` };
    }
  }

  /** Reads at most maxBytes of the answer, then drops the connection's body. */
  private async drain(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<void> {
    let read = 0;
    for await (const chunk of body) {
      read += chunk.length;
      if (read >= this.maxBytes) {
        body.destroy();
        return;
      }
    }
  }

  private async recordFailure(accountId: number, email: string, url: string, now: number): Promise<void> {
    for (const event of await this.health.failed(accountId, now)) {
      const days = (ms: number) => Math.round(ms / 86_400_000);
      const mail = event === 'warn'
        ? {
          subject: 'kerf: your webhook endpoint is failing',
          text: `Deliveries to ${url} have failed for ${days(this.health.thresholds.warnAfterMs)} days with no success in between.\n`
            + `If they keep failing, the endpoint is disabled after ${days(this.health.thresholds.disableAfterMs)} days and deliveries are held until you re-enable it.\n`
            + `See the delivery log: ${this.options.accountPageUrl}\n`,
        }
        : {
          subject: 'kerf: your webhook endpoint has been disabled',
          text: `Deliveries to ${url} failed for ${days(this.health.thresholds.disableAfterMs)} days; the endpoint is disabled.\n`
            + `New deliveries are recorded as skipped. Re-enable it on the account page to send them: ${this.options.accountPageUrl}\n`,
        };
      try {
        await this.mailer.send({ to: email, ...mail });
      } catch (error) {
        this.log.error({ err: error, accountId }, 'could not send the webhook health e-mail');
      }
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    await this.agent.close();
  }
}

/** The guard's refusal, however deep the HTTP client wrapped it. */
function blockedCause(error: unknown): BlockedAddress | undefined {
  for (let e = error; e instanceof Error; e = (e as Error & { cause?: unknown }).cause) {
    if (e instanceof BlockedAddress) return e;
  }
  return undefined;
}
