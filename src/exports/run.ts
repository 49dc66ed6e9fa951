// Makes an export from the stored record JSON. Small records render in place (a few ms); a
// large one (a big job's PDF takes seconds) renders in a worker thread, so the server keeps
// answering meanwhile, and at most two such workers run at once.
import { Worker } from 'node:worker_threads';
import { FORMATS, type FormatName } from './index.js';
import { parseRecord } from './model.js';

const INLINE_BYTES = 256 * 1024;
const MAX_WORKERS = 2;

let running = 0;
const waiting: (() => void)[] = [];

export async function renderExport(json: string, format: FormatName, option: string): Promise<Buffer | string> {
  if (json.length <= INLINE_BYTES) return FORMATS[format].render(parseRecord(json), option);
  if (running >= MAX_WORKERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await inWorker(json, format, option);
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function inWorker(json: string, format: FormatName, option: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: { json, format, option } });
    let answered = false;
    worker.once('message', (bytes: Uint8Array) => {
      answered = true;
      resolve(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the ${format} export worker stopped (exit code ${code}) without a result`));
    });
  });
}
