// Worker thread entry: renders one export off the event loop and hands the bytes back.
import { parentPort, workerData } from 'node:worker_threads';
import { FORMATS, type FormatName } from './index.js';
import { parseRecord } from './model.js';

const { json, format, option } = workerData as { json: string; format: FormatName; option: string };
const body = await FORMATS[format].render(parseRecord(json), option);
const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
// A copy of its own, so its memory can be moved to the parent instead of copied again.
const out = new Uint8Array(bytes.length);
out.set(bytes);
parentPort!.postMessage(out, [out.buffer]);
