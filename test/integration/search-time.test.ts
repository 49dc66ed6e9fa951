// saw.options.searchTime and the default search policy, through the API: every stock and cut
// type says why its search stopped (metadata.engine.stopReason), how much it did (effort) and
// against which bound. Nothing here reads a clock: the assertions are on stop reasons, effort
// and layouts, which repeat exactly whenever the search ends by effort.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, solveChecked } from '../support/client.js';
import { DEV_KEY, startServer, type KerfServer } from '../support/server.js';
import { validateLayout } from '../support/validate-layout.js';
import { validateLinear } from '../support/validate-linear.js';
import { validateNestingRecord } from '../support/validate-nesting.js';
import { seededRandom } from '../../bench/seeded.js';

let server: KerfServer;

beforeAll(async () => {
  // A ceiling and budget no default search here reaches: effort and the stall rule end them, however loaded the machine.
  server = await startServer({ env: { KERF_RATE_PER_MINUTE: '10000', KERF_DEFAULT_SEARCH_MS: '600000', KERF_JOB_BUDGET_MS: '600000' } });
});

afterAll(async () => {
  await server?.stop();
});

/** Furniture-like parts on two sheet sizes: no bound proves a layout optimal, so only effort or the clock ends the search. */
function sheetJob(options: object = {}, extra: object = {}) {
  const r = seededRandom(3);
  const parts = Array.from({ length: 60 }, () => ({ l: 100 + Math.floor(r() * 800), w: 50 + Math.floor(r() * 550), q: 1 + Math.floor(r() * 4) }));
  return { saw: { bladeWidth: 4, options, ...extra }, stock: [{ l: 2440, w: 1220 }, { l: 2070, w: 1000 }], parts };
}

const layout = (result: any) => result.parts.map((p: any) => [p.id, p.stock?.id, p.x, p.y, p.rot]);
const sheet = (base: string, request: unknown) => solveChecked(base, DEV_KEY, request, validateLayout);

describe('the default search policy', () => {
  it('searches past the fixed effort while it improves, stops when it stalls, and repeats exactly', async () => {
    const [a, b] = await Promise.all([sheet(server.url, sheetJob()), sheet(server.url, sheetJob())]);
    const engine = a.metadata.engine;
    expect(engine.stopReason).toBe('stalled');
    expect(engine.lowerBound).toBe(a.metadata.lowerBound);
    expect(engine.effort).toBeGreaterThan(0);
    expect(engine.stoppedByDeadline).toBe(false);
    // Ended by effort, not by the clock: the same request and seed give the same layout and effort.
    expect(layout(b)).toEqual(layout(a));
    expect(b.metadata.engine.effort).toBe(engine.effort);
    expect(b.metadata.engine.iterations).toBe(engine.iterations);
  });

  it('says lower-bound when the layout meets its bound, and stops there', async () => {
    const result = await sheet(server.url, { saw: { bladeWidth: 0 }, stock: [{ l: 2400, w: 1200 }], parts: [{ l: 600, w: 400, q: 36 }] });
    expect(result.metadata.totalUsedStock).toBe(3);
    expect(result.metadata.engine.stopReason).toBe('lower-bound');
    expect(result.metadata.engine.lowerBound).toBe(3);
  });

  it('knows parts longer than half the sheet both ways need a sheet each, whatever their area', async () => {
    // Area bound: 5 x 0.36 of a sheet, 2 sheets; no two of these parts share a sheet.
    const result = await sheet(server.url, { saw: { bladeWidth: 0 }, stock: [{ l: 1000, w: 1000 }], parts: [{ l: 600, w: 600, q: 5 }, { l: 300, w: 200, q: 4 }] });
    expect(result.metadata.totalUsedStock).toBe(5);
    expect(result.metadata.engine.lowerBound).toBe(5);
    expect(result.metadata.lowerBound).toBe(5);
    expect(result.metadata.engine.stopReason).toBe('lower-bound');
  });
});

describe('saw.options.searchTime', () => {
  it('searches at least as much as the default, for any cut type, and echoes what was asked', async () => {
    for (const extra of [{}, { cutType: 'efficiency' }, { cutType: 'beam' }]) {
      const quick = await sheet(server.url, sheetJob({}, extra));
      const long = await sheet(server.url, sheetJob({ searchTime: 1 }, extra));
      expect(long.saw.options.searchTime).toBe(1);
      expect(long.metadata.engine.searchLimitMs).toBe(1000);
      // It never stops before the default would: only the bound ends it earlier than asked.
      expect(['searchTime', 'lower-bound']).toContain(long.metadata.engine.stopReason);
      expect(long.metadata.engine.effort).toBeGreaterThanOrEqual(quick.metadata.engine.effort);
      // The objective is stock area (two sheet sizes here): more, smaller sheets can be the better layout.
      expect(long.metadata.totalStockUsedArea).toBeLessThanOrEqual(quick.metadata.totalStockUsedArea);
    }
  });

  it('applies to rolls, linear stock and nesting, each saying why it stopped', async () => {
    const roll = await sheet(server.url, { saw: { stockType: 'roll', bladeWidth: 0, options: { searchTime: 1 } }, stock: [{ l: 5000, w: 1000 }], parts: [{ l: 300, w: 500, q: 3 }, { l: 300, w: 250, q: 6 }] });
    // A perfect fit: the roll's length bound is met, and that ends the search before its time.
    expect(roll.metadata.engine.stopReason).toBe('lower-bound');
    const bars = await solveChecked(server.url, DEV_KEY, {
      saw: { stockType: 'linear', bladeWidth: 3, options: { searchTime: 2 } }, stock: [{ l: 6000, w: 40 }], parts: [{ l: 1000, w: 40, q: 12 }],
    }, validateLinear);
    expect(bars.metadata.engine.stopReason).toBe('lower-bound');
    expect(bars.metadata.engine.lowerBound).toBe(bars.metadata.lowerBound);
    expect(bars.metadata.engine.searchLimitMs).toBe(2000);
    const square = [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 100 }, { x: 0, y: 100 }];
    const triangle = [{ x: 0, y: 0 }, { x: 240, y: 0 }, { x: 0, y: 160 }];
    const nested = {
      saw: { cutType: 'nesting', stockType: 'roll', bladeWidth: 2 }, stock: [{ l: 10000, w: 600 }],
      parts: [{ l: 100, w: 100, q: 3, outline: square }, { l: 240, w: 160, q: 3, outline: triangle }],
    };
    // The default policy: the stall rule, counted in work units, so a second call repeats it exactly.
    const [byEffort, again] = await Promise.all([0, 1].map(() => solveChecked(server.url, DEV_KEY, nested, validateNestingRecord)));
    expect(byEffort.metadata.engine.stopReason).toBe('stalled');
    expect(byEffort.metadata.engine.stoppedByDeadline).toBe(false);
    expect(again.metadata.engine.effort).toBe(byEffort.metadata.engine.effort);
    expect(again.parts.map((p: any) => [p.id, p.x, p.y, p.rotation])).toEqual(byEffort.parts.map((p: any) => [p.id, p.x, p.y, p.rotation]));
    const timed = await solveChecked(server.url, DEV_KEY, { ...nested, saw: { ...nested.saw, options: { searchTime: 1 } } }, validateNestingRecord);
    expect(timed.metadata.engine.stopReason).toBe('searchTime');
    // nestingOptions.searchTime, its first place, is still read.
    const alias = await solveChecked(server.url, DEV_KEY, { ...nested, saw: { ...nested.saw, nestingOptions: { searchTime: 1 } } }, validateNestingRecord);
    expect(alias.metadata.engine.stopReason).toBe('searchTime');
    expect(alias.saw.options.searchTime).toBe(1);
  });

  it('refuses a searchTime that is not a positive number of seconds up to 3600, naming the field', async () => {
    for (const searchTime of [0, -1, 3601, 'long']) {
      const reply = await call(`${server.url}/v3/calculate`, { method: 'POST', key: DEV_KEY, body: sheetJob({ searchTime }) });
      expect(reply.status).toBe(400);
      expect(reply.json.details.issues[0].path).toBe('saw.options.searchTime');
    }
  });
});

describe('limits above the search', () => {
  let limited: KerfServer;

  beforeAll(async () => {
    // A 2 s job budget, and a default ceiling (1 ms) that ends any default search after its greedy start.
    limited = await startServer({ env: { KERF_RATE_PER_MINUTE: '10000', KERF_JOB_BUDGET_MS: '2000', KERF_DEFAULT_SEARCH_MS: '1' } });
  });

  afterAll(async () => {
    await limited?.stop();
  });

  it('ends a default search at the operator ceiling, and a longer searchTime at the job budget', async () => {
    const quick = await sheet(limited.url, sheetJob());
    expect(quick.metadata.engine.stopReason).toBe('ceiling');
    expect(quick.metadata.engine.searchLimitMs).toBe(1);
    const capped = await sheet(limited.url, sheetJob({ searchTime: 600 }));
    expect(capped.metadata.engine.stopReason).toBe('budget');
    expect(capped.metadata.engine.searchLimitMs).toBe(2000);
    expect(capped.parts.every((p: any) => p.stock)).toBe(true);
  });
});
