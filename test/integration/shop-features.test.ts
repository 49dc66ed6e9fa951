// What shops ask for most (issue 31): edge banding totals and deductBanding, offcuts used
// first, one big leftover that goes back in as an offcut, and matched-grain groups. Each is
// judged through the API, layouts by the independent validators.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kerfClient, type CalculationRequest, type KerfClient, type ResultResponse } from '../../src/client/client.js';
import { call } from '../support/client.js';
import { DEV_KEY, startServer, type KerfServer } from '../support/server.js';
import { parsePtx } from '../support/ptx-reader.js';
import { validateLayout } from '../support/validate-layout.js';

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

/** Small deterministic generator (mulberry32) for the seeded cases. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const newStockArea = (result: ResultResponse) => result.stock.filter((s) => s.used && !s.offcut).reduce((sum, s) => sum + s.l * s.w * s.stack, 0);

describe('offcuts first', () => {
  it('parts go on the offcuts, not on a new sheet, whenever the offcuts can take them (seeded cases)', async () => {
    let withoutPriority = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const random = rng(seed);
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
