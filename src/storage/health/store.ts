// Endpoint health of an account's default webhook URL (decisions.md section 4): the failure
// clock starts at the first failed delivery after a success; a warning e-mail goes out once it
// passes `warnAfterMs`, the endpoint is disabled at `disableAfterMs`; a success resets it; only
// the owner re-enables it. Adapters: sqlite.ts (embedded), redis.ts (shared by every node).

export interface HealthThresholds {
  warnAfterMs: number;
  disableAfterMs: number;
}

export interface EndpointHealthState {
  failingSince: number | null;
  warnedAt: number | null;
  disabledAt: number | null;
}

export type HealthEvent = 'warn' | 'disable';

export type MaybePromise<T> = T | Promise<T>;

export interface EndpointHealth {
  readonly thresholds: HealthThresholds;
  state(accountId: number): MaybePromise<EndpointHealthState>;
  succeeded(accountId: number): MaybePromise<void>;
  /** Records a failed delivery and returns the thresholds it crossed, the warning always first. */
  failed(accountId: number, now: number): MaybePromise<HealthEvent[]>;
  reenable(accountId: number): MaybePromise<void>;
}
