// Calls and compute time per account per calendar month (UTC): what the allowance is checked
// against and what the account page shows. Only accepted requests are counted. Adapters:
// sqlite.ts (embedded), redis.ts (shared by every node).

export interface Usage {
  month: string;
  calls: number;
  computeSeconds: number;
}

/** The month last asked for and the times it covers (every admitted call asks for the current one). */
let known = { from: 0, until: 0, month: '' };

/** The month a time is in, as "YYYY-MM". */
export function monthOf(time: number): string {
  if (time >= known.from && time < known.until) return known.month;
  const date = new Date(time);
  const year = date.getUTCFullYear(), month = date.getUTCMonth();
  known = { from: Date.UTC(year, month, 1), until: Date.UTC(year, month + 1, 1), month: date.toISOString().slice(0, 7) };
  return known.month;
}

/** What admission, the dispatcher and the account page need: SQLite here, Redis when several nodes share it. */
export interface UsageMeter {
  usage(accountId: number, now?: number): Usage | Promise<Usage>;
  countCall(accountId: number, now?: number): void | Promise<void>;
  addCompute(accountId: number, ms: number, now?: number): void | Promise<void>;
}
