// The delivery loop: sends what the outbox has due, signed afresh at every attempt, through the
// SSRF guard, with a 10 s budget, no redirects and at most 64 KB of the answer read; then
// records the attempt, schedules the retry or closes the delivery, and keeps endpoint health.
// Each delivery runs on its own: a slot that frees is refilled at once, and each endpoint (host)
// has a few slots of its own, so a slow or hanging receiver holds up only its own deliveries.
import type { Logger } from 'pino';
import { request as httpRequest, type Dispatcher as UndiciDispatcher } from 'undici';
import { signingSecrets, type AccountStore } from '../storage/accounts/store.js';
import type { Clock } from '../clock.js';
import type { EndpointHealth } from '../storage/health/store.js';
import type { Mailer } from './mailer.js';
import type { Delivery } from '../storage/outbox/store.js';
import type { OutboxStore } from '../storage/outbox/store.js';
import { classify, nextAttemptAt, parseRetryAfter } from './policy.js';
import { signatureHeader } from './signing.js';
import { BlockedAddress, checkUrl, guardedAgent, type AddressPolicy } from './ssrf.js';

export interface DelivererOptions {
  policy: AddressPolicy;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Deliveries in flight at once, in all. */
  concurrency?: number;
  /** Deliveries in flight at once to one endpoint. */
  perEndpoint?: number;
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
  /** Deliveries being sent, by id. */
  private readonly sending = new Map<string, Promise<void>>();
  /** How many of them go to each endpoint. */
  private readonly perEndpoint = new Map<string, number>();
  /** Deliveries whose bookkeeping failed: left alone until the next timer tick, so they do not spin. */
  private readonly heldBack = new Set<string>();
  private timer?: NodeJS.Timeout;
  private filling?: Promise<void>;
  private refill = false;
  private stopping = false;
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
    this.timer = setInterval(() => {
      this.heldBack.clear();
      this.wake();
    }, this.options.pollMs ?? 1_000);
    this.timer.unref();
  }

  /** Starts sending what is due, into the free slots, without waiting for the sends. */
  wake(): void {
    void this.fill();
  }

  /** Sends what is due now and waits until nothing is in flight (tests, and callers that need it done). */
  async tick(): Promise<void> {
    for (;;) {
      await this.fill();
      if (this.sending.size === 0) return;
      await Promise.race(this.sending.values());
    }
  }

  /** One filler at a time; a wake-up during a fill makes it look again. */
  private fill(): Promise<void> {
    if (this.filling) {
      this.refill = true;
      return this.filling;
    }
    this.filling = (async () => {
      do {
        this.refill = false;
        await this.takeDue();
      } while (this.refill && !this.stopping);
    })()
      // A shared outbox can be briefly unreachable (Redis restarting): log it, try next tick.
      .catch((error) => this.log.error({ err: error }, 'could not read due deliveries'))
      .finally(() => (this.filling = undefined));
    return this.filling;
  }

  private async takeDue(): Promise<void> {
    const concurrency = this.options.concurrency ?? 256;
    for (;;) {
      const limit = concurrency - this.sending.size;
      if (limit <= 0 || this.stopping) return;
      const due = await this.outbox.takeDue(this.clock.now(), {
        limit,
        perEndpoint: this.options.perEndpoint ?? 4,
        inFlight: this.perEndpoint,
        skip: new Set([...this.sending.keys(), ...this.heldBack]),
      });
      if (due.length === 0) return;
      for (const d of due) this.begin(d);
    }
  }

  private begin(delivery: Delivery): void {
    const { id, endpoint } = delivery;
    this.perEndpoint.set(endpoint, (this.perEndpoint.get(endpoint) ?? 0) + 1);
    this.sending.set(id, this.deliver(delivery).finally(() => {
      this.sending.delete(id);
      const left = this.perEndpoint.get(endpoint)! - 1;
      if (left > 0) this.perEndpoint.set(endpoint, left);
      else this.perEndpoint.delete(endpoint);
      if (!this.stopping) this.wake();
    }));
  }

  private async deliver(delivery: Delivery): Promise<void> {
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
      this.heldBack.add(delivery.id);
      this.log.error({ err: error, deliveryId: delivery.id }, 'delivery bookkeeping failed');
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
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.filling;
    await Promise.allSettled(this.sending.values());
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
