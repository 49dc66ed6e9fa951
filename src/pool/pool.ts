// The compute pool: a fixed set of piscina threads. Tasks are handed over only when a thread
// is free (piscina would count queue time against the abort timer), and each carries an
// abort backstop past its budget that replaces a runaway worker.
import { Piscina } from 'piscina';
import type { CalculateTask, TaskOutcome } from './task.js';

export class BudgetExceeded extends Error {}

export class EnginePool {
  private readonly piscina: Piscina;
  private inFlight = 0;

  constructor(readonly threads: number, private readonly graceMs: number) {
    this.piscina = new Piscina({
      filename: new URL('./worker.js', import.meta.url).href,
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

  async close(): Promise<void> {
    await this.piscina.close({ force: true });
  }
}
