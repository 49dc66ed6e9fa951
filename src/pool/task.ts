// What crosses into a pool thread and back: plain structured-cloneable data.
import type { AnalysisOptions, AnalysisResponse, Advice } from '../analysis/types.js';

export interface CalculateTask {
  kind: 'calculate';
  jobId: number;
  attempt: number;
  /** Canonical request JSON (as stored with the job). */
  request: string;
  budgetMs: number;
  /** Ceiling on the default search (KERF_DEFAULT_SEARCH_MS). */
  defaultSearchMs?: number;
  minOffcut: number;
}

export type TaskOutcome =
  | { ok: true; result: string; computeMs: number }
  /**
   * The calculation itself cannot produce a layout: the job fails with this message at once.
   * internal: the engine threw or its layout failed the check (violations): a fault of the
   * service, not of the request; logged as an error with what reproduces it.
   */
  | { ok: false; message: string; computeMs: number; internal?: boolean; violations?: string[] };

/** One model file to analyse (POST /v3/model/analysis). */
export interface AnalysisTask {
  kind: 'analysis';
  bytes: Uint8Array;
  filename?: string;
  format?: string;
  options: AnalysisOptions;
  budgetMs: number;
}

export type AnalysisOutcome =
  | { ok: true; response: AnalysisResponse; computeMs: number }
  /** Refused: the status, message and details of the error body; advice gathered so far on a timeout. */
  | { ok: false; status: number; message: string; details: Record<string, unknown>; advice?: Advice[]; computeMs: number };
