// What crosses into a pool thread and back: plain structured-cloneable data.
export interface CalculateTask {
  kind: 'calculate';
  jobId: number;
  attempt: number;
  /** Canonical request JSON (as stored with the job). */
  request: string;
  budgetMs: number;
  minOffcut: number;
}

export type TaskOutcome =
  | { ok: true; result: string; computeMs: number }
  /** The calculation itself cannot produce a layout: the job fails with this message. */
  | { ok: false; message: string; computeMs: number };
