// What the routes that read one job share (GET /v3/result/ready, /v3/result, /v3/result/export
// and the account page's viewer): the id query, and the 404/410 a job's state calls for. A job
// of another account answers exactly like one not finished (404), so nothing leaks across accounts.
import { z } from 'zod';
import type { JobView } from '../storage/jobs/store.js';
import { ApiError } from './errors.js';

const NOT_A_JOB_ID = 'must be a job id (a positive integer)';

export const jobQuery = z.object({
  id: z.coerce.number({ error: NOT_A_JOB_ID }).int(NOT_A_JOB_ID).min(1, NOT_A_JOB_ID).max(Number.MAX_SAFE_INTEGER, NOT_A_JOB_ID)
    .describe('The job id POST /v3/calculate answered.'),
});

/** The job when it finished (done or failed), else the 404 (not finished, or not this account's) or 410 (expired). */
export function finishedJob(id: number, job: JobView | undefined): JobView {
  if (!job || job.state === 'queued' || job.state === 'running') throw new ApiError(404, `Job ${id} is not finished (or does not exist)`, { jobId: id });
  if (job.state === 'expired') throw new ApiError(410, `The result of job ${id} has expired and is gone`, { jobId: id });
  return job;
}
