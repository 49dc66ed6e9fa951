// Calls and compute time per account per calendar month (UTC): what the allowance is checked
// against and what the account page shows. Only accepted requests are counted. Adapters:
// sqlite.ts (embedded), redis.ts (shared by every node).

export interface Usage {
  month: string;
  calls: number;
  computeSeconds: number;
}

export function monthOf(time: number): string {
  return new Date(time).toISOString().slice(0, 7);
}

/** What admission, the dispatcher and the account page need: SQLite here, Redis when several nodes share it. */
export interface UsageMeter {
  usage(accountId: number, now?: number): Usage | Promise<Usage>;
  countCall(accountId: number, now?: number): void | Promise<void>;
  addCompute(accountId: number, ms: number, now?: number): void | Promise<void>;
}
