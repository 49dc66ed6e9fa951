// bench/layout-check: what the service's own layout check (src/result/check-layout.ts) costs
// beside the job it checks. Runs one job of each stock and cut type through calculate() (the
// check included, as in a pool thread), then times checkLayout alone on the finished record
// (fastest and median of 20: on a loaded machine the median carries preemption). Prints a
// markdown table: job time, check time, check share.
import { performance } from 'node:perf_hooks';
import { calculate } from '../src/engine/calculate.js';
import { checkLayout } from '../src/result/check-layout.js';
import { calculationRequest, normalizeRequest, type CalcRequest } from '../src/schema/request.js';
import { seededRandom } from './seeded.js';

const random = seededRandom(34);
const sizes = (n: number, q: number, max = 900) => Array.from({ length: n }, () => ({ l: 50 + Math.round(random() * max), w: 40 + Math.round(random() * max * 0.6), q }));
const triangle = [{ x: 0, y: 0 }, { x: 240, y: 0 }, { x: 0, y: 160 }];

const JOBS: [string, unknown][] = [
  ['sheet guillotine, 100 rows x 5', { saw: { bladeWidth: 4 }, stock: [{ l: 2800, w: 2070 }], parts: sizes(100, 5) }],
  ['sheet guillotine, 200 rows x 100', { saw: { bladeWidth: 3 }, stock: [{ l: 2800, w: 2070 }], parts: sizes(200, 100, 500) }],
  ['sheet efficiency, 60 rows x 4', { saw: { cutType: 'efficiency', bladeWidth: 6 }, stock: [{ l: 2440, w: 1220 }], parts: sizes(60, 4, 600) }],
  ['roll guillotine, 200 rows x 10', { saw: { stockType: 'roll' }, stock: [{ l: 100000, w: 1370 }], parts: Array.from({ length: 200 }, (_, i) => ({ l: 100 + 6 * i, w: 60 + 5 * i, q: 10 })) }],
  ['linear, 300 rows x 10', { saw: { stockType: 'linear', bladeWidth: 4 }, stock: [{ l: 6000 }], parts: Array.from({ length: 300 }, () => ({ l: 100 + Math.round(random() * 2500), q: 10 })) }],
  ['sheet nesting, 40 triangles', { saw: { cutType: 'nesting', bladeWidth: 2 }, stock: [{ l: 2440, w: 1220 }], parts: [{ l: 240, w: 160, q: 40, outline: triangle }] }],
];

function canonical(input: unknown): CalcRequest {
  const normalized = normalizeRequest(calculationRequest.parse(input));
  if ('issues' in normalized) throw new Error(JSON.stringify(normalized.issues));
  return normalized.request;
}

console.log('| job | instances | job ms | check ms (fastest / median) | check share (fastest / median) |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, input] of JOBS) {
  const request = canonical(input);
  const started = performance.now();
  const record = await calculate(request, { jobId: 1, budgetMs: 30_000, minOffcut: 0 });
  const jobMs = performance.now() - started;
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    if (checkLayout(request, record).length) throw new Error(`${name}: layout rejected`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const [fastest, median] = [times[0]!, times[10]!];
  const instances = request.parts.reduce((n, p) => n + p.q, 0);
  const share = (ms: number) => `${((100 * ms) / jobMs).toFixed(2)} %`;
  console.log(`| ${name} | ${instances} | ${jobMs.toFixed(0)} | ${fastest.toFixed(2)} / ${median.toFixed(2)} | ${share(fastest)} / ${share(median)} |`);
}
