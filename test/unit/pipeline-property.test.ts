// Random requests through the whole calculation pipeline (schema, mapping, WASM engine,
// result record), each layout checked by the independent validator.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import run from '../../src/pool/worker.js';
import { calculationRequest, normalizeRequest } from '../../src/schema/request.js';
import { validateLayout } from '../support/validate-layout.js';

const direction = fc.constantFrom('', 'l', 'w');

const sawArb = fc
  .record({
    stockType: fc.constantFrom('sheet', 'sheet', 'roll'),
    cutType: fc.constantFrom('guillotine', 'guillotine', 'efficiency', 'beam'),
    bladeWidth: fc.constantFrom(0, 3, 4.4),
    cutPreference: fc.constantFrom('l', 'w'),
    guillotineOptions: fc.record({ maxPhase: fc.constantFrom(0, 2, 3, 4), strategy: fc.constantFrom('efficiency', 'time') }),
    options: fc.record({ seed: fc.nat(1000), minSpacing: fc.constantFrom(0, 0, 6) }),
  })
  // Beam saws cut sheets only, along the length first; a roll is cut across first.
  .map((saw) => {
    if (saw.stockType === 'roll') return { ...saw, cutPreference: 'w', cutType: saw.cutType === 'beam' ? 'guillotine' : saw.cutType };
    return saw.cutType === 'beam' ? { ...saw, cutPreference: 'l' } : saw;
  });

const requestArb = fc.record({
  saw: sawArb,
  stock: fc.array(
    fc.record({
      l: fc.integer({ min: 300, max: 3000 }),
      w: fc.integer({ min: 200, max: 2000 }),
      q: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
      grain: direction,
      material: fc.constantFrom('', 'oak'),
      trim: fc.record({ l1: fc.nat(15), l2: fc.nat(15), w1: fc.nat(15), w2: fc.nat(15) }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  parts: fc.array(
    fc.record({
      l: fc.integer({ min: 10, max: 1600 }),
      w: fc.integer({ min: 10, max: 1200 }),
      q: fc.integer({ min: 1, max: 15 }),
      grain: direction,
      orientationLock: direction,
      material: fc.constantFrom('', 'oak'),
    }),
    { minLength: 1, maxLength: 8 },
  ),
});

async function calculate(raw: unknown, budgetMs = 150) {
  const normalized = normalizeRequest(calculationRequest.parse(raw));
  if ('issues' in normalized) throw new Error(JSON.stringify(normalized.issues));
  const outcome = await run({ kind: 'calculate', jobId: 1, attempt: 1, request: JSON.stringify(normalized.request), budgetMs, minOffcut: 50 });
  if (!outcome.ok) throw new Error(outcome.message);
  if (!('result' in outcome)) throw new Error('a calculation answered like an analysis');
  return JSON.parse(outcome.result);
}

describe('calculation pipeline on random requests', () => {
  it('always returns a valid layout with every part placed or explained', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const result = await calculate(request);
        expect(validateLayout(request, result)).toEqual([]);
        const requested = request.parts.reduce((n, p) => n + p.q, 0);
        const unplaced = result.unusableParts.reduce((n: number, u: { q: number }) => n + u.q, 0);
        expect(result.metadata.totalPartsProduced + unplaced).toBe(requested);
        // The bound counts sheets for every part; it binds only when every part was placed.
        if (unplaced === 0) expect(result.metadata.totalUsedStock).toBeGreaterThanOrEqual(result.metadata.lowerBound);
      }),
      { numRuns: 50, seed: 20261122 },
    );
  });

  it('never ends worse than its greedy start', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const { metadata } = await calculate(request);
        const greedy = metadata.engine.greedy;
        expect(greedy).toBeDefined();
        // Lexicographic: no less part area placed; at equal part area, no more stock area.
        const tol = 1e-6 * Math.max(1, greedy.placedArea, greedy.stockArea);
        expect(metadata.totalPartArea).toBeGreaterThanOrEqual(greedy.placedArea - tol);
        if (metadata.totalPartArea <= greedy.placedArea + tol) expect(metadata.totalStockUsedArea).toBeLessThanOrEqual(greedy.stockArea + tol);
      }),
      { numRuns: 40, seed: 42 },
    );
  });

  it('a searchTime already spent when the default search ends gives the default layout and its reason', async () => {
    // Ample budgets: the default ends by its effort or stall rule, long after 1 ms.
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const byDefault = await calculate(request, 30_000);
        const short = await calculate({ ...request, saw: { ...request.saw, options: { ...request.saw.options, searchTime: 0.001 } } }, 30_000);
        expect(short.metadata.engine.stopReason).toBe(byDefault.metadata.engine.stopReason);
        expect(short.metadata.engine.effort).toBe(byDefault.metadata.engine.effort);
        for (const r of [byDefault, short]) {
          delete r.metadata.engine;
          delete r.saw.options.searchTime;
        }
        expect(short).toEqual(byDefault);
      }),
      { numRuns: 15, seed: 20261127 },
    );
  });

  it('is deterministic for the same request and seed', async () => {
    // The effort limits end the search, as in the service; a budget a busy machine could run
    // out of first would make the result depend on the clock.
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const a = await calculate(request, 30_000);
        const b = await calculate(request, 30_000);
        delete a.metadata.engine;
        delete b.metadata.engine;
        expect(b).toEqual(a);
      }),
      { numRuns: 20, seed: 7 },
    );
  });
});
