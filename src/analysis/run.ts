// An analysis task inside a pool thread: read the file, analyse, and turn every refusal into
// an outcome with its status, so nothing but a crash escapes the thread.
import { performance } from 'node:perf_hooks';
import { readModel, StepTimeout } from '../models/read.js';
import { ModelError } from '../models/types.js';
import type { AnalysisOutcome, AnalysisTask } from '../pool/task.js';
import { analyseModel } from './analyse.js';
import { AnalysisTimeout } from './types.js';

export async function runAnalysis(task: AnalysisTask): Promise<AnalysisOutcome> {
  const started = performance.now();
  const deadline = Date.now() + task.budgetMs;
  const computeMs = () => performance.now() - started;
  try {
    const mesh = await readModel(task.bytes, task.filename, task.format, Math.max(1000, task.budgetMs - 2000));
    const response = analyseModel(mesh, task.options, deadline);
    return { ok: true, response, computeMs: computeMs() };
  } catch (error) {
    if (error instanceof ModelError) return { ok: false, status: error.statusCode, message: error.message, details: error.details, computeMs: computeMs() };
    if (error instanceof AnalysisTimeout) {
      return { ok: false, status: 422, message: error.message, details: { budgetSeconds: task.budgetMs / 1000, advice: error.advice }, advice: error.advice, computeMs: computeMs() };
    }
    if (error instanceof StepTimeout) {
      return { ok: false, status: 422, message: `The analysis did not finish within its time budget: ${error.message}`, details: { budgetSeconds: task.budgetMs / 1000, advice: [] }, advice: [], computeMs: computeMs() };
    }
    throw error;
  }
}
