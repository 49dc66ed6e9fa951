// What shops ask for most (issue 31): edge banding totals and deductBanding, offcuts used
// first, one big leftover that goes back in as an offcut, and matched-grain groups. Each is
// judged through the API, layouts by the independent validators.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kerfClient, type CalculationRequest, type KerfClient, type ResultResponse } from '../../src/client/client.js';
import { call } from '../support/client.js';
import { DEV_KEY, startServer, type KerfServer } from '../support/server.js';
import { parsePtx } from '../support/ptx-reader.js';
import { validateLayout } from '../support/validate-layout.js';
import { validateLinear } from '../support/validate-linear.js';
import { seededRandom } from '../../bench/seeded.js';

let server: KerfServer;
let kerf: KerfClient;

beforeAll(async () => {
  server = await startServer({ env: { KERF_RATE_PER_MINUTE: '10000' } });
  kerf = kerfClient({ baseUrl: server.url, apiKey: DEV_KEY, pollMs: 50 });
});
afterAll(async () => {
  await server?.stop();
});

const post = (body: unknown) => call(`${server.url}/v3/calculate`, { method: 'POST', key: DEV_KEY, body });

async function solveValid(request: CalculationRequest): Promise<ResultResponse> {
  const result = await kerf.solve(request);
  expect(validateLayout(request, result)).toEqual([]);
  return result;
}

describe('edge banding', () => {
  it('totals are the banded edge lengths of every placed part, per type and per sheet', async () => {
    const request: CalculationRequest = {
      saw: { bladeWidth: 4 },
      stock: [{ l: 2440, w: 1220 }, { l: 1220, w: 620 }],
      parts: [
        // ABS on both long sides, an untyped band on one short side: 3 x (600 + 600) ABS, 3 x 400 default.
        { l: 600, w: 400, q: 3, extras: { banding: { sides: { l1: 'ABS', l2: 'ABS', w1: true } } } },
        // Legacy: banding on the part, x/y names (x1 -> w1, y2 -> l2), bandingType for true: 2 x (300 + 500) PVC.
        { l: 500, w: 300, q: 2, banding: { x1: true, y2: true }, bandingType: 'PVC' } as CalculationRequest['parts'][number],
        // { type, thickness }: 4 x 200 ABS.
        { l: 200, w: 100, q: 4, extras: { banding: { sides: { l1: { type: 'ABS', thickness: 2 } } } } },
        // Every side, one part per small sheet so the sheets stack: 6 x (1200 + 1200 + 600 + 600) oak.
        { l: 1200, w: 600, q: 6, stockLock: ['1'], extras: { banding: { sides: { l1: 'oak', l2: 'oak', w1: 'oak', w2: 'oak' } } } },
        // Unbanded.
        { l: 300, w: 300, q: 2 },
      ],
    };
    const result = await solveValid(request);
    expect(result.unusableParts).toEqual([]);
    const expected = { ABS: 3 * 1200 + 4 * 200, default: 3 * 400, PVC: 2 * 800, oak: 6 * 3600 };
    expect(result.metadata.bandingLengthByType).toEqual(expected);
    expect(result.metadata.totalBandingLength).toBe(Object.values(expected).reduce((a, b) => a + b, 0));
    // Per sheet of each entry, times its stack, adds up to the total.
    const stacked = result.stock.reduce((sum, s) => sum + s.analysis.bandingLength * s.stack, 0);
    expect(stacked).toBeCloseTo(result.metadata.totalBandingLength, 6);
    expect(result.stock.some((s) => s.stack > 1 && s.analysis.bandingLength === 3600)).toBe(true);
    // The legacy banding is echoed where SmartCut puts it, with its type.
    expect(result.parts.find((p) => p.id === '1.0')!.extras).toEqual({ banding: { sides: { l2: 'PVC', w1: 'PVC' } } });
  });

  it('parts left unplaced carry no banding into the totals', async () => {
    const result = await kerf.solve({
      stock: [{ l: 1000, w: 500, q: 1 }],
      parts: [{ l: 900, w: 450, q: 3, extras: { banding: { sides: { l1: true } } } }],
    });
    expect(result.parts.filter((p) => p.added)).toHaveLength(1);
    expect(result.metadata.totalBandingLength).toBe(900);
  });

  it('deductBanding cuts each part smaller by its band thicknesses and says so', async () => {
    // 602 x 402 with 1 mm bands all round is cut 600 x 400: it fits a 600 x 400 sheet only so.
    const part = { l: 602, w: 402, q: 2, extras: { banding: { sides: { l1: { type: 'ABS', thickness: 1 }, l2: { type: 'ABS', thickness: 1 }, w1: { type: 'ABS', thickness: 1 }, w2: { type: 'ABS', thickness: '1' } } } } };
    const plain = await kerf.solve({ stock: [{ l: 600, w: 400 }], parts: [part] });
    expect(plain.unusableParts.map((u) => u.q)).toEqual([2]);
    const request: CalculationRequest = { saw: { options: { deductBanding: true } }, stock: [{ l: 600, w: 400 }], parts: [part] };
    const result = await solveValid(request);
    expect(result.saw.options.deductBanding).toBe(true);
    expect(result.unusableParts).toEqual([]);
    for (const p of result.parts) {
      expect(p).toMatchObject({ added: true, l: 600, w: 400, finished: { l: 602, w: 402 } });
    }
    // The band covers the finished edge.
    expect(result.metadata.totalBandingLength).toBe(2 * (602 * 2 + 402 * 2));
  });

  it('deductBanding takes a band off its own side only, and on a free (CNC) layout too', async () => {
    const request: CalculationRequest = {
      saw: { cutType: 'efficiency', bladeWidth: 6, options: { deductBanding: true } },
      stock: [{ l: 1000, w: 800 }],
      parts: [{ l: 500, w: 300, q: 5, extras: { banding: { sides: { l1: { thickness: 2 }, w2: { type: 'PVC', thickness: 0.5 } } } } }],
    };
    const result = await solveValid(request);
    for (const p of result.parts.filter((x) => x.added)) expect([p.l, p.w, p.finished]).toEqual([499.5, 298, { l: 500, w: 300 }]);
    expect(result.metadata.bandingLengthByType).toEqual({ default: 5 * 500, PVC: 5 * 300 });
  });

  it('a band thicker than the part, or a negative thickness, is a 400 naming the field', async () => {
    const thick = await post({
      saw: { options: { deductBanding: true } },
      stock: [{ l: 1000, w: 800 }],
      parts: [{ l: 100, w: 10, extras: { banding: { sides: { l1: { thickness: 6 }, l2: { thickness: 5 } } } } }],
    });
    expect(thick.status).toBe(400);
    expect(thick.json.details.issues[0]).toEqual({ path: 'parts[0].extras.banding.sides', message: expect.stringMatching(/leave nothing/) });
    const negative = await post({ stock: [{ l: 1000, w: 800 }], parts: [{ l: 100, w: 50, extras: { banding: { sides: { w1: { thickness: -1 } } } } }] });
    expect(negative.status).toBe(400);
    expect(negative.json.details.issues.map((i: { path: string }) => i.path).join(' ')).toMatch(/parts\[0\]\.extras\.banding\.sides\.w1/);
  });
});

const newStockArea = (result: ResultResponse) => result.stock.filter((s) => s.used && !s.offcut).reduce((sum, s) => sum + s.l * s.w * s.stack, 0);

describe('offcuts first', () => {
  it('parts go on the offcuts, not on a new sheet, whenever the offcuts can take them (seeded cases)', async () => {
    let withoutPriority = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const random = seededRandom(seed);
      const kerf = 4;
      // Each offcut holds a block of the same size, cut (guillotine, one kerf between) into 1 to 4
      // pieces, each then shrunk a little: the parts. New stock, listed first, is that block and
      // a little more: smaller than every offcut, so by area alone new sheets would win.
      const blockL = 400 + Math.round(random() * 1400);
      const blockW = 300 + Math.round(random() * 700);
      const offcuts: CalculationRequest['stock'] = [];
      const parts: CalculationRequest['parts'] = [];
      const count = 1 + Math.floor(random() * 4);
      for (let k = 0; k < count; k++) {
        offcuts.push({ l: blockL + 20 + Math.round(random() * 400), w: blockW + 20 + Math.round(random() * 400), q: 1, offcut: true, id: `rack-${k}` });
        const pieces = 1 + Math.floor(random() * 4);
        const along = random() < 0.5;
        const share = (along ? blockL : blockW) - kerf * (pieces - 1);
        for (let i = 0; i < pieces; i++) {
          const extent = Math.floor(share / pieces) - Math.round(random() * 20);
          const across = (along ? blockW : blockL) - Math.round(random() * 30);
          parts.push(along ? { l: extent, w: across, q: 1 } : { l: across, w: extent, q: 1 });
        }
      }
      const request = (offcutPriority: boolean): CalculationRequest => ({
        saw: { bladeWidth: kerf, options: { seed, offcutPriority } }, stock: [{ l: blockL + 10, w: blockW + 10, id: 'new' }, ...offcuts], parts,
      });
      const result = await solveValid(request(true));
      expect(result.unusableParts, `seed ${seed}`).toEqual([]);
      expect(result.stock.filter((s) => s.used && !s.offcut).map((s) => s.id), `seed ${seed}: a new sheet used`).toEqual([]);
      const plain = await solveValid(request(false));
      if (plain.stock.some((s) => s.used && !s.offcut)) withoutPriority++;
    }
    // The option is what keeps them off new stock: without it, new sheets mostly win on area.
    expect(withoutPriority).toBeGreaterThan(12);
  });

  it('new stock only for what the offcuts cannot take; offcutPriority false treats them as any stock', async () => {
    // A 1000 x 900 sheet and a 1300 x 950 offcut each hold four 480 x 440 parts; the sheet has less area.
    const request = (offcutPriority?: boolean): CalculationRequest => ({
      saw: { bladeWidth: 4, ...(offcutPriority === undefined ? {} : { options: { offcutPriority } }) },
      stock: [{ l: 1000, w: 900 }, { l: 1300, w: 950, q: 2, offcut: true }],
      parts: [{ l: 480, w: 440, q: 12 }],
    });
    const sheets = (result: ResultResponse, offcut: boolean) => result.stock.filter((s) => s.used && (s.offcut ?? false) === offcut).reduce((n, s) => n + s.stack, 0);
    const first = await solveValid(request());
    expect(first.saw.options.offcutPriority).toBe(true);
    expect([sheets(first, true), sheets(first, false)]).toEqual([2, 1]);
    expect(newStockArea(first)).toBe(1000 * 900);
    const plain = await solveValid(request(false));
    expect([sheets(plain, true), sheets(plain, false)]).toEqual([0, 3]);
  });

  it('the PTX export marks offcut boards TYPE 1', async () => {
    const { jobId } = await kerf.solve({ stock: [{ l: 2440, w: 1220, name: 'new' }, { l: 900, w: 700, q: 1, offcut: true, name: 'rack' }], parts: [{ l: 800, w: 600, q: 2 }] }).then((r) => r);
    const reply = await call(`${server.url}/v3/result/export?id=${jobId}&format=ptx`, { key: DEV_KEY });
    const boards = parsePtx(reply.text).records.get('BOARDS')!;
    expect(boards.map((f) => [f[4], f[5], f[13]])).toEqual([['2440', '1220', '0'], ['900', '700', '1']]);
  });
});

const largestOffcut = (result: ResultResponse, stockId: string) =>
  Math.max(0, ...result.offcuts.filter((o) => o.stock.id === stockId).map((o) => o.l * o.w));

describe('one big leftover', () => {
  const cabinet = (leftover: boolean, seed = 1): CalculationRequest => ({
    saw: { bladeWidth: 4, options: { leftover, seed, minOffcut: 100 } },
    stock: [{ l: 2440, w: 1220, material: 'oak', t: 18 }, { l: 2800, w: 2070, material: 'MDF', t: 18 }],
    parts: [
      { l: 720, w: 560, q: 7, material: 'oak', t: 18 }, { l: 400, w: 300, q: 9, material: 'oak', t: 18 }, { l: 1000, w: 180, q: 5, material: 'oak', t: 18 },
      { l: 764, w: 560, q: 9, material: 'MDF', t: 18 }, { l: 580, w: 96, q: 14, material: 'MDF', t: 18 }, { l: 1200, w: 350, q: 3, material: 'MDF', t: 18 },
    ],
  });

  it('at equal sheet count, the emptiest sheet of each material leaves one rectangle at least as large', async () => {
    for (const seed of [1, 2, 3]) {
      const plain = await solveValid(cabinet(false, seed));
      const gathered = await solveValid(cabinet(true, seed));
      expect(gathered.saw.options.leftover).toBe(true);
      expect(gathered.unusableParts).toEqual([]);
      for (const material of ['oak', 'MDF']) {
        const sheets = (r: ResultResponse) => r.stock.filter((s) => s.used && s.material === material);
        expect(sheets(gathered).reduce((n, s) => n + s.stack, 0)).toBe(sheets(plain).reduce((n, s) => n + s.stack, 0));
        const best = (r: ResultResponse) => Math.max(...sheets(r).map((s) => largestOffcut(r, s.id)));
        expect(best(gathered), `${material}, seed ${seed}`).toBeGreaterThanOrEqual(best(plain));
        // The last sheet of the material is the one with the leftover: a strip the full length of the sheet.
        const last = sheets(gathered).at(-1)!;
        const strip = gathered.offcuts.find((o) => o.stock.id === last.id && o.l * o.w === largestOffcut(gathered, last.id))!;
        expect(strip.l, `${material}, seed ${seed}`).toBe(last.l);
      }
    }
  });

  it('the leftover goes back as an offcut row of the next job and is used first', async () => {
    const first = await solveValid(cabinet(true));
    const keep = first.offcuts.filter((o) => o.addToInventory && o.material === 'oak').sort((a, b) => b.l * b.w - a.l * a.w)[0]!;
    expect(keep.l).toBeGreaterThanOrEqual(100);
    expect(keep.w).toBeGreaterThanOrEqual(100);
    // Next job: a part that fits the leftover; new oak sheets are still on offer, listed first.
    const next = await solveValid({
      saw: { bladeWidth: 4 },
      stock: [{ l: 2440, w: 1220, material: 'oak', t: 18 }, { l: keep.l, w: keep.w, q: keep.q, t: keep.t ?? undefined, material: keep.material, grain: keep.grain as '' | 'l' | 'w', offcut: true, id: 'rack' }],
      parts: [{ l: Math.floor(keep.l * 0.8), w: Math.floor(keep.w * 0.8), q: 1, material: 'oak', t: 18 }],
    });
    expect(next.stock.filter((s) => s.used).map((s) => [s.id, s.offcut])).toEqual([['1.0', true]]);
  });

  it('every offcut says whether it reaches minOffcut', async () => {
    const result = await kerf.solve({ saw: { options: { minOffcut: 0 } }, stock: [{ l: 1000, w: 500 }], parts: [{ l: 700, w: 460, q: 1 }] });
    const flags = result.offcuts.map((o) => [o.l, o.w, o.addToInventory]).sort();
    expect(flags).toEqual([[1000, 40, true], [300, 460, true]]);
    const strict = await kerf.solve({ saw: { options: { minOffcut: 100 } }, stock: [{ l: 1000, w: 500 }], parts: [{ l: 700, w: 460, q: 1 }] });
    expect(strict.offcuts.map((o) => [o.l, o.w, o.addToInventory])).toEqual([[300, 460, true]]);
  });
});

describe('bars: offcuts first and the longest remnant', () => {
  it('leftover bar pieces are cut before new bars, and the bound is of new bars', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const random = seededRandom(seed);
      // Offcut bars each hold a few pieces end to end (one kerf between), each shortened a little.
      const offcuts: CalculationRequest['stock'] = [];
      const parts: CalculationRequest['parts'] = [];
      const count = 1 + Math.floor(random() * 4);
      for (let k = 0; k < count; k++) {
        const l = 1500 + Math.round(random() * 2500);
        offcuts.push({ l, w: 40, q: 1, offcut: true });
        const pieces = 1 + Math.floor(random() * 3);
        for (let i = 0; i < pieces; i++) parts.push({ l: Math.floor((l - 5 * (pieces - 1)) / pieces) - Math.round(random() * 40), w: 40, q: 1 });
      }
      const request: CalculationRequest = { saw: { stockType: 'linear', bladeWidth: 5, options: { seed } }, stock: [{ l: 4500, w: 40 }, ...offcuts], parts };
      const result = await kerf.solve(request);
      expect(validateLinear(request, result)).toEqual([]);
      expect(result.unusableParts).toEqual([]);
      expect(result.stock.filter((s) => s.used && !s.offcut).map((s) => s.id), `seed ${seed}`).toEqual([]);
      expect(result.metadata.lowerBound).toBe(0);
    }
  });

  it('leftover: at equal bar count, the emptiest bar keeps the longest remnant', async () => {
    const request = (leftover: boolean): CalculationRequest => ({
      saw: { stockType: 'linear', bladeWidth: 4, options: { leftover } },
      stock: [{ l: 6000, w: 40 }],
      parts: [{ l: 1450, w: 40, q: 7 }, { l: 980, w: 40, q: 9 }, { l: 610, w: 40, q: 6 }],
    });
    const plain = await kerf.solve(request(false));
    const gathered = await kerf.solve(request(true));
    expect(validateLinear(request(true), gathered)).toEqual([]);
    const bars = (r: ResultResponse) => r.stock.reduce((n, s) => n + s.stack, 0);
    expect(bars(gathered)).toBe(bars(plain));
    const longest = (r: ResultResponse) => Math.max(0, ...r.offcuts.map((o) => o.l));
    expect(longest(gathered)).toBeGreaterThanOrEqual(longest(plain));
    // The last bar has the longest remnant, and none of its pieces would fit another bar's remnant.
    const last = gathered.stock.filter((s) => s.used).at(-1)!;
    const remnantOf = (id: string) => gathered.offcuts.find((o) => o.stock.id === id)?.l ?? 0;
    expect(remnantOf(last.id)).toBe(longest(gathered));
    const pieces = gathered.parts.filter((p) => p.stock?.id === last.id).map((p) => p.l);
    for (const other of gathered.stock.filter((s) => s.used && s.id !== last.id)) {
      for (const l of pieces) expect(remnantOf(other.id), `${l} would fit on ${other.id}`).toBeLessThan(l + 4);
    }
  });
});

describe('matched-grain groups', () => {
  // Three drawer fronts one above the other, 4 mm apart (the kerf), grain running on through them.
  const fronts = (cutType: 'guillotine' | 'efficiency', grain: '' | 'l' = 'l'): CalculationRequest => ({
    saw: { bladeWidth: 4, cutType },
    stock: [{ l: 2440, w: 1220, grain: 'l' }],
    parts: [
      { l: 596, w: 140, q: 2, grain, name: 'top front' },
      { l: 596, w: 200, q: 2, grain, name: 'middle front' },
      { l: 596, w: 280, q: 2, grain, name: 'bottom front' },
      { l: 700, w: 500, q: 3, name: 'side' },
    ],
    groups: [{ positions: [{ part: 2, x: 0, y: 0 }, { part: 1, x: 0, y: 284 }, { part: 0, x: 0, y: 488 }], q: 2 }],
  });

  for (const cutType of ['guillotine', 'efficiency'] as const) {
    it(`${cutType}: a three-front group keeps its offsets, and cuts separate the fronts`, async () => {
      const request = fronts(cutType);
      const result = await solveValid(request);
      expect(result.unusableParts).toEqual([]);
      // Each copy: the three fronts on one sheet, stacked at the offsets given (grain along l keeps them unturned).
      for (const copy of [0, 1]) {
        const [bottom, middle, top] = [2, 1, 0].map((row) => result.parts.find((p) => p.id === `${row}.${copy}`)!);
        expect(bottom.stock!.id).toBe(middle.stock!.id);
        expect(top.stock!.id).toBe(bottom.stock!.id);
        expect([bottom.rot, middle.rot, top.rot]).toEqual([0, 0, 0]);
        expect([middle.x! - bottom.x!, middle.y! - bottom.y!]).toEqual([0, 284]);
        expect([top.x! - bottom.x!, top.y! - bottom.y!]).toEqual([0, 488]);
      }
    });
  }

  it('a group without grain turns as a whole when only that fits, its offsets turned with it', async () => {
    const request = fronts('guillotine', '');
    request.stock = [{ l: 2440, w: 620 }];
    const result = await solveValid(request);
    expect(result.unusableParts.filter((u) => u.id !== '3')).toEqual([]);
    const [bottom, middle, top] = [2, 1, 0].map((row) => result.parts.find((p) => p.id === `${row}.0`)!);
    expect([bottom.rot, middle.rot, top.rot]).toEqual([1, 1, 1]);
    // Turned a quarter counter-clockwise: the fronts now lie side by side along x, the bottom
    // front rightmost: its 280 and a kerf from the middle one (200 wide), then a kerf and the top one.
    expect([bottom.x! - middle.x!, middle.y! - bottom.y!, bottom.x! - top.x!, top.y! - bottom.y!]).toEqual([204, 0, 348, 0]);
  });

  it('a group that fits no stock is explained in unusableParts', async () => {
    const request = fronts('guillotine');
    request.stock = [{ l: 2440, w: 600, grain: 'l' }];
    const result = await kerf.solve(request);
    const issues = result.unusableParts.filter((u) => ['0', '1', '2'].includes(u.id));
    expect(issues.map((u) => [u.id, u.q])).toEqual([['0', 2], ['1', 2], ['2', 2]]);
    expect(issues[0]!.issues[0]).toMatchObject({ category: 'group', field: 'groups[0]', message: expect.stringMatching(/596 x 628 fits no stock/) });
  });

  it('bad positions are a 400 naming the field', async () => {
    const base = fronts('guillotine');
    const overlap = await post({ ...base, groups: [{ positions: [{ part: 0, x: 0, y: 0 }, { part: 1, x: 100, y: 100 }] }] });
    expect(overlap.status).toBe(400);
    expect(overlap.json.details.issues[0]).toEqual({ path: 'groups[0].positions[1]', message: expect.stringMatching(/overlaps/) });
    const tight = await post({ ...base, groups: [{ positions: [{ part: 0, x: 0, y: 0 }, { part: 1, x: 0, y: 141 }] }] });
    expect(tight.status).toBe(400);
    expect(tight.json.details.issues[0].path).toBe('groups[0].positions');
    const missing = await post({ ...base, groups: [{ positions: [{ part: 9, x: 0, y: 0 }] }] });
    expect(missing.json.details.issues[0].path).toBe('groups[0].positions[0].part');
    const many = await post({ ...base, groups: [{ positions: [{ part: 0, x: 0, y: 0 }], q: 3 }] });
    expect(many.json.details.issues[0]).toEqual({ path: 'groups[0].q', message: expect.stringMatching(/take 3 of part 0, which has q 2/) });
    const linear = await post({ saw: { stockType: 'linear' }, stock: [{ l: 1000 }], parts: [{ l: 100 }], groups: [{ positions: [{ part: 0, x: 0, y: 0 }] }] });
    expect(linear.json.details.issues[0].path).toBe('groups');
  });
});
