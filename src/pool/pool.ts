// The compute pool: a fixed set of piscina threads. Tasks are handed over only when a thread
// is free (piscina would count queue time against the abort timer), and each carries an
// abort backstop past its budget that replaces a runaway worker.
import { Piscina } from 'piscina';
import type { AnalysisOutcome, AnalysisTask, CalculateTask, TaskOutcome } from './task.js';

export class BudgetExceeded extends Error {}

export class EnginePool {
  private readonly piscina: Piscina;
  private inFlight = 0;

  /** `testFaults` loads the test-only entry with fault injection (fault-worker.ts) instead of worker.ts. */
  constructor(readonly threads: number, private readonly graceMs: number, testFaults = false) {
    this.piscina = new Piscina({
      filename: new URL(testFaults ? './fault-worker.js' : './worker.js', import.meta.url).href,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Number.MAX_SAFE_INTEGER,
      concurrentTasksPerWorker: 1,
    });
  }

  get busy(): number {
    return this.inFlight;
  }

  get free(): number {
    return this.threads - this.inFlight;
  }

  async run(task: CalculateTask): Promise<TaskOutcome> {
    if (this.free <= 0) throw new Error('no free pool thread');
    this.inFlight++;
    const signal = AbortSignal.timeout(task.budgetMs + this.graceMs);
    try {
      return (await this.piscina.run(task, { signal })) as TaskOutcome;
    } catch (error) {
      if (signal.aborted) throw new BudgetExceeded(`the calculation ran past its ${task.budgetMs} ms budget and was stopped`);
      throw error;
    } finally {
      this.inFlight--;
    }
  }

  /**
   * A model analysis: waits (up to its budget) for a free thread so queue time never counts
   * against the abort timer, then runs with the same backstop as a calculation.
   */
  async runAnalysis(task: AnalysisTask): Promise<AnalysisOutcome> {
    const waitUntil = Date.now() + task.budgetMs;
    while (this.free <= 0) {
      if (Date.now() > waitUntil) throw new BudgetExceeded('no pool thread became free within the analysis budget');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    this.inFlight++;
    const signal = AbortSignal.timeout(task.budgetMs + this.graceMs);
    try {
      return (await this.piscina.run(task, { signal, transferList: [task.bytes.buffer as ArrayBuffer] })) as AnalysisOutcome;
    } catch (error) {
      if (signal.aborted) throw new BudgetExceeded(`the analysis ran past its ${task.budgetMs} ms budget and was stopped`);
      throw error;
    } finally {
      this.inFlight--;
    }
  }

  async close(): Promise<void> {
    await this.piscina.close({ force: true });
  }
}
