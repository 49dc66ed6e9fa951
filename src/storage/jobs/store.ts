// The job store: what the API and the dispatcher need from wherever jobs live. The embedded
// adapter keeps them in SQLite; a Redis adapter implements the same interface.
import type { NewDelivery } from '../outbox/store.js';

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'expired';
export type JobKind = 'calculate';

export interface NewJob {
  accountId: number;
  kind: JobKind;
  /** The canonical request as JSON. */
  request: string;
  webhook?: string;
  /**
   * The account's default webhook URL at submit time. A store whose workers may run on machines
   * without the account database (Redis) keeps it with the job; the embedded store ignores it.
   */
  accountWebhook?: string | null;
}

/** A job as a reader sees it; state already accounts for retention (a finished job past it is expired). */
export interface JobView {
  id: number;
  accountId: number;
  state: JobState;
  createdAt: number;
  finishedAt: number | null;
  /** The stored result record (done) as JSON, byte for byte what was written. */
  result: string | null;
  /** Why the job failed (failed). */
  error: string | null;
}

/** A line of the account page's job list. */
export interface JobSummary {
  id: number;
  state: JobState;
  createdAt: number;
  finishedAt: number | null;
}

/** How many jobs the account page lists (and the Redis store remembers per account). */
export const RECENT_JOBS = 50;

export interface ClaimedJob {
  id: number;
  accountId: number;
  kind: JobKind;
  request: string;
  /** The per-request webhook URL, if the request named one. */
  webhook: string | null;
  /** 1 for the first run; a re-run after a crash gets the next number. Writes name it so only one lands. */
  attempt: number;
  /** The account's default webhook URL as submitted, when the store carries it (else read from the accounts). */
  accountWebhook?: string | null;
}

export interface JobStore {
  submit(job: NewJob): Promise<number>;
  /** The job if it exists and belongs to the account; undefined otherwise (callers answer 404 alike). */
  get(id: number, accountId: number, now?: number): Promise<JobView | undefined>;
  /** The account's latest jobs, newest first, at most `limit` (the account page's list). */
  recent(accountId: number, limit: number, now?: number): Promise<JobSummary[]>;
  /**
   * Only the state (the readiness endpoint's hot path); undefined like get. A job known to be
   * finished answers at once, without a promise (a promise and its await per poll are measurable).
   */
  state(id: number, accountId: number, now?: number): JobState | undefined | Promise<JobState | undefined>;
  /**
   * Takes the next queued job for a worker, marking it running. Accounts take turns: the next job
   * is the oldest of the account with the fewest jobs running, among those with the fewest the
   * one whose turn was longest ago; an account already running `accountThreads` jobs (when set)
   * waits. Undefined when nothing may run.
   */
  claim(owner: string): Promise<ClaimedJob | undefined>;
  /**
   * Writes the result once, with the webhook delivery announcing it (the outbox row) in the
   * same transaction: false when this attempt no longer owns the job, and then nothing is written.
   */
  complete(id: number, attempt: number, result: string, computeMs: number, delivery?: NewDelivery): Promise<boolean>;
  fail(id: number, attempt: number, message: string, computeMs: number, delivery?: NewDelivery): Promise<boolean>;
  /** Puts a job whose worker died back in the queue. */
  release(id: number, attempt: number): Promise<void>;
  /** Requeues running jobs whose owner is gone; returns how many. */
  recover(liveOwners: string[]): Promise<number>;
  /** Marks finished jobs past retention expired and drops their bodies; returns how many. */
  expire(now?: number): Promise<number>;
  queueDepth(): Promise<number>;
  close(): Promise<void>;
}
