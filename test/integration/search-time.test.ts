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

/** A roll no length bound closes (20 part rows): the fixed effort ends the default's runs, and only the clock ends a searchTime's. */
function rollJob(options: object = {}) {
  const rows = [[300, 538, 2], [734, 124, 2], [377, 125, 1], [770, 567, 2], [435, 363, 2], [640, 474, 1], [449, 509, 1], [453, 144, 2], [676, 272, 1], [769, 159, 1],
    [437, 152, 1], [542, 471, 1], [532, 545, 1], [522, 269, 1], [473, 442, 1], [250, 520, 2], [389, 578, 1], [262, 222, 2], [520, 337, 1], [423, 186, 1]];
  return { saw: { stockType: 'roll', bladeWidth: 4, options }, stock: [{ l: 10000, w: 2070 }], parts: rows.map(([l, w, q]) => ({ l, w, q })) };
}

/** Bars of two lengths at two costs: the default stalls above the bound, after a search the clock would cut short. */
function barJob(options: object = {}) {
  return {
    saw: { stockType: 'linear', bladeWidth: 3, options }, stock: [{ l: 6000, w: 40, unlimitedQuantity: true, cost: 10 }, { l: 4700, w: 40, unlimitedQuantity: true, cost: 8 }],
    parts: [[2900, 3], [2300, 4], [1700, 5], [1100, 6], [650, 7]].map(([l, q]) => ({ l, w: 40, q })),
  };
}

const layout = (result: any) => result.parts.map((p: any) => [p.id, p.stock?.id, p.x, p.y, p.rot]);
const bars = (result: any) => result.parts.map((p: any) => [p.id, p.stock?.id, p.x]);
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
      // It never stops before the default would: only the bound ends it earlier than asked (or,
      // on a loaded machine, the default's own stop when that came after the time asked).
      if (long.metadata.engine.stopReason === quick.metadata.engine.stopReason) expect(long.metadata.engine.effort).toBe(quick.metadata.engine.effort);
      else expect(['searchTime', 'lower-bound']).toContain(long.metadata.engine.stopReason);
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
    // With searchTime the clock ends the search after the default's; a loaded machine may spend
    // the second on the default's alone, and then its layout and repeatable reason stand.
    const clockOrDefault = (r: any) => {
      if (r.metadata.engine.stopReason === 'searchTime') expect(r.metadata.engine.stoppedByDeadline).toBe(true);
      else expect(r.metadata.engine).toMatchObject({ stopReason: 'stalled', effort: byEffort.metadata.engine.effort });
      expect(r.metadata.engine.searchLimitMs).toBe(1000);
    };
    clockOrDefault(await solveChecked(server.url, DEV_KEY, { ...nested, saw: { ...nested.saw, options: { searchTime: 1 } } }, validateNestingRecord));
    // nestingOptions.searchTime, its first place, is still read.
    const alias = await solveChecked(server.url, DEV_KEY, { ...nested, saw: { ...nested.saw, nestingOptions: { searchTime: 1 } } }, validateNestingRecord);
    clockOrDefault(alias);
    expect(alias.saw.options.searchTime).toBe(1);
  });

  it('a searchTime spent before the default search stops gives the default layout and its repeatable reason (sheets)', async () => {
    for (const extra of [{}, { cutType: 'efficiency' }]) {
      const [quick, tiny] = await Promise.all([sheetJob({}, extra), sheetJob({ searchTime: 0.001 }, extra)].map((r) => sheet(server.url, r)));
      expect(tiny.metadata.engine.stopReason).toBe(quick.metadata.engine.stopReason);
      expect(tiny.metadata.engine.stoppedByDeadline).toBe(false);
      expect(tiny.metadata.engine.effort).toBe(quick.metadata.engine.effort);
      expect(layout(tiny)).toEqual(layout(quick));
    }
  });

  it('a searchTime shorter than the default search still does the whole default search (linear, rolls)', async () => {
    const [quickBars, tinyBars] = await Promise.all([barJob({ seed: 2 }), barJob({ seed: 2, searchTime: 0.001 })].map((r) => solveChecked(server.url, DEV_KEY, r, validateLinear)));
    // The engine cannot go on past its stall, so both stop there: the same plan, and a repeatable reason.
    expect(tinyBars.metadata.engine.stopReason).toBe(quickBars.metadata.engine.stopReason);
    expect(['stalled', 'lower-bound']).toContain(tinyBars.metadata.engine.stopReason);
    expect(tinyBars.metadata.engine.effort).toBe(quickBars.metadata.engine.effort);
    expect(bars(tinyBars)).toEqual(bars(quickBars));
    const [quickRoll, tinyRoll] = await Promise.all([rollJob({ seed: 2 }), rollJob({ seed: 2, searchTime: 0.001 })].map((r) => sheet(server.url, r)));
    expect(quickRoll.metadata.engine.stopReason).toBe('effort');
    // The default's runs first (fixed effort), and no time is left for more: the default's roll.
    expect(tinyRoll.metadata.engine.stopReason).toBe('effort');
    expect(tinyRoll.metadata.engine.effort).toBe(quickRoll.metadata.engine.effort);
    expect(tinyRoll.metadata.totalRollLength).toBe(quickRoll.metadata.totalRollLength);
    expect(layout(tinyRoll)).toEqual(layout(quickRoll));
  });

  it('a linear searchTime longer than the default search goes on past its stall, never worse', async () => {
    const [quick, long] = await Promise.all([barJob({ seed: 2 }), barJob({ seed: 2, searchTime: 2 })].map((r) => solveChecked(server.url, DEV_KEY, r, validateLinear)));
    expect(quick.metadata.engine.stopReason).toBe('stalled');
    // The default's search first (the same turns), then more until the time asked.
    if (long.metadata.engine.stopReason === 'stalled') expect(long.metadata.engine.effort).toBe(quick.metadata.engine.effort);
    else expect(['searchTime', 'lower-bound']).toContain(long.metadata.engine.stopReason);
    expect(long.metadata.engine.effort).toBeGreaterThanOrEqual(quick.metadata.engine.effort);
    expect(long.metadata.totalStockCost).toBeLessThanOrEqual(quick.metadata.totalStockCost);
    if (long.metadata.engine.stopReason === 'searchTime') expect(long.metadata.engine.stoppedByDeadline).toBe(true);
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

  it('names the clock that cut a linear or roll search, never a repeatable reason', async () => {
    const clocks = ['ceiling', 'searchTime', 'budget'];
    for (const options of [{}, { searchTime: 0.001 }]) {
      const cut = await solveChecked(limited.url, DEV_KEY, barJob(options), validateLinear);
      expect(clocks).toContain(cut.metadata.engine.stopReason);
      expect(cut.metadata.engine.stoppedByDeadline).toBe(true);
    }
    const roll = await sheet(limited.url, rollJob());
    expect(roll.metadata.engine.stopReason).toBe('ceiling');
    // Past the default's runs the search goes on until the time asked, cut here by the budget.
    const long = await sheet(limited.url, rollJob({ searchTime: 600 }));
    expect(long.metadata.engine.stopReason).toBe('budget');
    expect(long.metadata.engine.stoppedByDeadline).toBe(true);
  });
});

describe('a job budget of 1 ms', () => {
  let none: KerfServer;

  beforeAll(async () => {
    // Less than the engine's reserve: its search ends before the first layout is complete.
    none = await startServer({ env: { KERF_RATE_PER_MINUTE: '10000', KERF_JOB_BUDGET_MS: '1' } });
  });

  afterAll(async () => {
    await none?.stop();
  });

  it('still says lower-bound for a first layout that meets its bound, and budget for one that does not', async () => {
    const exact = await sheet(none.url, { saw: { bladeWidth: 0 }, stock: [{ l: 2400, w: 1200 }], parts: [{ l: 600, w: 400, q: 36 }] });
    expect(exact.metadata.totalUsedStock).toBe(3);
    expect(exact.metadata.engine.stopReason).toBe('lower-bound');
    const open = await sheet(none.url, sheetJob());
    expect(open.metadata.engine.stopReason).toBe('budget');
  });
});
