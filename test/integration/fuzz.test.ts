// Seeded fuzzing through the real server (issue 34): mutated calculate requests of every stock
// and cut type, and corrupted model files for POST /v3/model/analysis. Whatever comes in:
// no 5xx, a JSON error body on every 4xx, every accepted job finishes (a result or a failed
// job, never an internal error), and every result passes the independent validators. The
// effort is bounded by the counts below; the same seed draws the same cases on every run.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/seeded.js';
import { call, waitForResult } from '../support/client.js';
import { DEV_KEY, startServer, type KerfServer } from '../support/server.js';
import { validateLayout } from '../support/validate-layout.js';
import { validateLinear } from '../support/validate-linear.js';
import { validateNestingRecord } from '../support/validate-nesting.js';

const SEED = 3401;
const MUTATED_REQUESTS = 24;
const CORRUPTED_MODELS = 16;

let server: KerfServer;
beforeAll(async () => {
  server = await startServer({ env: { KERF_RATE_PER_MINUTE: '100000' } });
});
afterAll(async () => {
  await server?.stop();
});

type Json = any;
const triangle = [{ x: 0, y: 0 }, { x: 240, y: 0 }, { x: 0, y: 160 }];

/** One small valid request per stock and cut type: each runs in well under a second. */
const BASES: Json[] = [
  { saw: { stockType: 'sheet', cutType: 'guillotine', bladeWidth: 4 }, stock: [{ l: 2440, w: 1220, q: 3, trim: { l1: 5, l2: 5, w1: 5, w2: 5 } }], parts: [{ l: 700, w: 400, q: 4 }, { l: 350, w: 300, q: 5, grain: 'l' }] },
  { saw: { stockType: 'sheet', cutType: 'efficiency', bladeWidth: 6, options: { minSpacing: 8 } }, stock: [{ l: 1500, w: 900 }], parts: [{ l: 400, w: 250, q: 6 }, { l: 200, w: 180, q: 4 }] },
  { saw: { stockType: 'sheet', cutType: 'beam', bladeWidth: 4.4, stackHeight: 3 }, stock: [{ l: 2800, w: 2070 }], parts: [{ l: 720, w: 560, q: 8 }, { l: 564, w: 300, q: 12 }] },
  { saw: { stockType: 'sheet', cutType: 'nesting', bladeWidth: 2 }, stock: [{ l: 1200, w: 800 }], parts: [{ l: 240, w: 160, q: 5, outline: triangle }, { l: 300, w: 200, q: 2 }] },
  { saw: { stockType: 'roll', cutType: 'guillotine', bladeWidth: 3 }, stock: [{ l: 20000, w: 1370 }], parts: [{ l: 500, w: 400, q: 3 }, { l: 300, w: 250, q: 3 }] },
  { saw: { stockType: 'roll', cutType: 'efficiency', bladeWidth: 3 }, stock: [{ l: 30000, w: 1000 }], parts: [{ l: 450, w: 300, q: 3 }, { l: 220, w: 200, q: 3 }] },
  { saw: { stockType: 'roll', cutType: 'nesting', bladeWidth: 1 }, stock: [{ w: 600 }], parts: [{ l: 240, w: 160, q: 3, outline: triangle }] },
  { saw: { stockType: 'linear', bladeWidth: 5 }, stock: [{ l: 6000, w: 50, q: 10, trim: { l1: 10, l2: 10 } }, { l: 4000, w: 50 }], parts: [{ l: 1900, w: 50, q: 5 }, { l: 750, w: 50, q: 7 }, { l: 333.3, w: 50, q: 3 }] },
];

const ODD_VALUES: unknown[] = [0, -1, -0, 0.0004, 0.001, 0.5, 1, 7, 999.9, 1_000_000, 1_000_001, 1e11, 1e308, 2 ** 31, '12', '10 1/2', '3/4', 'abc', '', null, true, [], {}, 'l', 'w', 'sheet', 'roll', 'linear', 'nesting', 'efficiency'];
const FIELDS = ['l', 'w', 't', 'q', 'trim', 'grain', 'orientationLock', 'material', 'bladeWidth', 'stockType', 'cutType', 'cutPreference', 'stackHeight', 'minSpacing', 'seed', 'rotationStep', 'freeRotation', 'outline', 'x', 'y', 'unknownField'];

/** Paths to every value of a JSON tree (objects and arrays included). */
function paths(value: Json, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = at.length ? [at] : [];
  if (value && typeof value === 'object') for (const key of Object.keys(value)) out.push(...paths(value[key], [...at, Array.isArray(value) ? Number(key) : key]));
  return out;
}

function mutate(base: Json, random: () => number): Json {
  const request = structuredClone(base);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const mutations = 1 + Math.floor(random() * 3);
  for (let m = 0; m < mutations; m++) {
    const all = paths(request);
    const target = pick(all);
    const parent = target.slice(0, -1).reduce((o: Json, k) => o[k], request);
    const key = target[target.length - 1]!;
    switch (Math.floor(random() * 6)) {
      case 0: // an odd value in place of any field
      case 1:
        parent[key] = pick(ODD_VALUES);
        break;
      case 2: // a field dropped
        if (Array.isArray(parent)) parent.splice(Number(key), 1);
        else delete parent[key];
        break;
      case 3: { // a field added or replaced on an object
        const object = parent && typeof parent === 'object' && !Array.isArray(parent) ? parent : request;
        object[pick(FIELDS)] = pick(ODD_VALUES);
        break;
      }
      case 4: // a row copied with another quantity
        for (const list of [request.parts, request.stock]) if (Array.isArray(list) && list.length) list.push({ ...structuredClone(pick(list)), q: pick([1, 2, 3, 0, 20_001]) });
        break;
      default: // a number scaled
        if (typeof parent[key] === 'number') parent[key] *= pick([0.001, 0.5, 1.5, 10, 1000, -1]);
        else parent[key] = pick(ODD_VALUES);
    }
  }
  return request;
}

function expectErrorBody(reply: { status: number; json: Json; text: string }) {
  expect(reply.json, reply.text).toEqual({ error: expect.any(String), details: expect.any(Object), version: '3' });
}

function violations(request: Json, result: Json): string[] {
  if (result.saw.stockType === 'linear') return validateLinear(request, result);
  if (result.saw.cutType === 'nesting') return validateNestingRecord(request, result, 1e-3);
  return validateLayout(request, result);
}

describe('fuzzing', () => {
  it('mutated calculate requests of every stock and cut type: no 5xx, clear 4xx, every job finishes with a valid layout', async () => {
    const random = seededRandom(SEED);
    const counts = { sent: 0, refused: 0, accepted: 0, results: 0, failedJobs: 0 };
    const byStatus: Record<number, number> = {};
    const cases: Json[] = [...BASES, ...Array.from({ length: MUTATED_REQUESTS }, (_, i) => mutate(BASES[i % BASES.length], random))];
    const accepted: { request: Json; jobId: number }[] = [];
    for (const request of cases) {
      const reply = await call(`${server.url}/v3/calculate`, { method: 'POST', key: DEV_KEY, body: request });
      counts.sent++;
      byStatus[reply.status] = (byStatus[reply.status] ?? 0) + 1;
      expect(reply.status, JSON.stringify(request)).toBeLessThan(500);
      if (reply.status === 200) {
        counts.accepted++;
        accepted.push({ request, jobId: reply.json.jobId });
      } else {
        counts.refused++;
        expect(reply.status).toBeGreaterThanOrEqual(400);
        expectErrorBody(reply);
      }
    }
    for (const { request, jobId } of accepted) {
      const reply = await waitForResult(server.url, DEV_KEY, jobId);
      const what = `job ${jobId}: ${JSON.stringify(request)}`;
      if (reply.status === 422) {
        counts.failedJobs++;
        expect(reply.json, what).toEqual({ statusCode: 422, message: expect.any(String), version: '3' });
        expect(reply.json.message, what).not.toMatch(/internal error|the calculation failed/);
        continue;
      }
      expect(reply.status, what).toBe(200);
      counts.results++;
      expect(violations(request, reply.json), what).toEqual([]);
    }
    // The unmutated requests are all accepted and solved.
    expect(counts.accepted).toBeGreaterThanOrEqual(BASES.length);
    console.log(`fuzz (seed ${SEED}): calculate requests ${JSON.stringify(counts)}, statuses ${JSON.stringify(byStatus)}`);
  }, 600_000);

  it('corrupted model files: no 5xx, and a JSON error body on every 4xx', async () => {
    const dir = path.join(__dirname, '../fixtures/models');
    const models = ['woodworking_cabinet_modular_001.ply', 'woodworking_cabinet_modular_001_ascii.stl', 'laserconvert_var_thickness_test.stp', 'woodworking_test003_holes_meshopt.glb'];
    const random = seededRandom(SEED + 1);
    const byStatus: Record<number, number> = {};
    for (let i = 0; i < CORRUPTED_MODELS; i++) {
      const name = models[i % models.length]!;
      const bytes = Buffer.from(fs.readFileSync(path.join(dir, name)));
      const corrupted = corrupt(bytes, random);
      const reply = await call(`${server.url}/v3/model/analysis?filename=${encodeURIComponent(name)}`, {
        method: 'POST', key: DEV_KEY, body: new Uint8Array(corrupted), headers: { 'content-type': 'application/octet-stream' },
      });
      byStatus[reply.status] = (byStatus[reply.status] ?? 0) + 1;
      expect(reply.status, `${name} #${i}`).toBeLessThan(500);
      if (reply.status >= 400) expectErrorBody(reply);
      else expect(reply.json.parts, `${name} #${i}`).toEqual(expect.any(Array));
    }
    console.log(`fuzz (seed ${SEED + 1}): corrupted models ${CORRUPTED_MODELS}, statuses ${JSON.stringify(byStatus)}`);
  }, 600_000);
});

/** Truncated, bytes flipped, a chunk repeated, or a region overwritten with noise. */
function corrupt(bytes: Buffer, random: () => number): Buffer {
  const at = Math.floor(random() * bytes.length);
  switch (Math.floor(random() * 4)) {
    case 0:
      return bytes.subarray(0, at);
    case 1: {
      const copy = Buffer.from(bytes);
      for (let k = 0; k < 1 + random() * 64; k++) copy[Math.floor(random() * copy.length)] ^= 1 << Math.floor(random() * 8);
      return copy;
    }
    case 2: {
      const chunk = bytes.subarray(at, Math.min(bytes.length, at + 1 + Math.floor(random() * 4096)));
      return Buffer.concat([bytes.subarray(0, at), chunk, chunk, bytes.subarray(at)]);
    }
    default: {
      const copy = Buffer.from(bytes);
      for (let k = at; k < Math.min(copy.length, at + 512); k++) copy[k] = Math.floor(random() * 256);
      return copy;
    }
  }
}
