// Schema conformance: boundary requests (made from the document's own limits) and seeded
// random ones go to every operation. The server's verdict must be the document's (ajv, strict):
// a request the document accepts is served (2xx; for the job reads, anything but 400), one it
// refuses gets a 4xx. Every answer must be a documented status whose body fits its schema,
// and so must the results of accepted jobs. The counts are printed.
//
// Kept out of the generators, because JSON Schema cannot state them (the document says so in
// prose, and bad-input.test.ts checks them): numeric strings out of range, trims that leave
// nothing, a sum of q over the limit, invalid nesting outlines, and an export option that
// exists but not for the chosen format.
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { kerfClient } from '../../src/client/client.js';
import { LINEAR_EXAMPLE, NESTING_EXAMPLE, SHEET_EXAMPLE } from '../../src/schema/examples.js';
import { call, type Reply } from '../support/client.js';
import { contractOf, type Contract } from '../support/contract.js';
import { DEV_KEY, startServer, type KerfServer } from '../support/server.js';

const SEED = 29;
let server: KerfServer;
let contract: Contract;
let document: any;
let doneJob: number;
let failedJob: number;

interface Tally { cases: number; documentValid: number; served: number; bodies: number }
const tallies = new Map<string, Tally>();
let mismatches: string[] = [];
let mismatchesInAll = 0;

beforeEach(() => {
  mismatches = [];
});
beforeAll(async () => {
  server = await startServer({
    env: {
      KERF_RATE_PER_MINUTE: '1000000', KERF_JOB_BUDGET_MS: '1000', KERF_ABORT_GRACE_MS: '500', KERF_MAX_ATTEMPTS: '1',
      KERF_POOL_THREADS: '1', KERF_TEST_FAULTS: '1', KERF_WEBHOOK_ALLOW_LOOPBACK: '1',
    },
  });
  document = (await call(`${server.url}/openapi.json`)).json;
  contract = contractOf(document);
  const kerf = kerfClient({ baseUrl: server.url, apiKey: DEV_KEY, pollMs: 50 });
  doneJob = (await kerf.solve(SHEET_EXAMPLE)).jobId;
  failedJob = await kerf.submit({ stock: [{ l: 100, w: 100 }], parts: [{ l: 10, w: 10, name: '__hang__' }] });
  await finished(failedJob);
});

/** Waits for a job however loaded the machine is (vitest's timeout is the backstop). */
async function finished(id: number) {
  const kerf = kerfClient({ baseUrl: server.url, apiKey: DEV_KEY });
  while ((await kerf.readiness(id)) === 'running') await new Promise((r) => setTimeout(r, 50));
}
afterAll(async () => {
  await server?.stop();
});

type Request = { query?: Record<string, string>; body?: unknown; bytes?: Uint8Array };

async function send(operationId: string, request: Request): Promise<Reply> {
  const op = contract.operations.get(operationId)!;
  const query = request.query ? `?${new URLSearchParams(request.query)}` : '';
  const body = request.bytes ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  const headers = request.bytes ? { 'content-type': 'application/octet-stream' } : request.body === undefined ? undefined : { 'content-type': 'application/json' };
  return call(`${server.url}${op.path}${query}`, { method: op.method, key: DEV_KEY, body, headers });
}

/** Sends one case and compares verdicts and the answer with the document. */
async function exercise(operationId: string, request: Request): Promise<Reply> {
  const tally = tallies.get(operationId) ?? { cases: 0, documentValid: 0, served: 0, bodies: 0 };
  tallies.set(operationId, tally);
  const documentErrors = contract.requestErrors(operationId, request);
  const reply = await send(operationId, request);
  const readsAJob = operationId !== 'submitCalculation' && operationId !== 'analyseModel';
  const served = readsAJob ? reply.status !== 400 : reply.status >= 200 && reply.status < 300;
  tally.cases++;
  if (documentErrors.length === 0) tally.documentValid++;
  if (process.env.DEBUG_CONFORMANCE && documentErrors.length) process.stdout.write(`${documentErrors[0]}\n`);
  if (served) tally.served++;
  if (served !== (documentErrors.length === 0) || (!served && (reply.status < 400 || reply.status >= 500))) {
    mismatchesInAll++;
    mismatches.push(`${operationId} ${JSON.stringify(request.query ?? request.body)}: the document says ${documentErrors.length ? documentErrors.slice(0, 3).join('; ') : 'valid'}, the server ${reply.status} ${reply.text.slice(0, 200)}`);
  }
  const answerErrors = contract.responseErrors(operationId, reply.status, reply.headers.get('content-type'), reply.text);
  if (answerErrors.length) {
    mismatchesInAll++;
    mismatches.push(`${operationId} answer ${reply.status}: ${answerErrors.slice(0, 3).join('; ')}`);
  } else tally.bodies++;
  return reply;
}

// ---- Boundary requests: every leaf of the request schema at and past its limits ----

type Json = Record<string, any>;
const resolve = (schema: Json): Json => (schema.$ref ? resolve(document.components.schemas[schema.$ref.split('/').pop()]) : schema);

/** Paths of the request's leaves (arrays through their first item) with their schemas. */
function leaves(schema: Json, path: (string | number)[] = []): { path: (string | number)[]; schema: Json }[] {
  const s = resolve(schema);
  if (s.type === 'object' && s.properties) return Object.entries<Json>(s.properties).flatMap(([key, child]) => leaves(child, [...path, key]));
  if (s.type === 'array' && s.items && resolve(s.items).type === 'object') return leaves(s.items, [...path, 0]);
  return [{ path, schema: s }];
}

/** Values at and just past a leaf's limits, its words in other cases, and values of wrong types. */
function boundaryValues(schema: Json): unknown[] {
  const values: unknown[] = [null, true, [], {}, 'abc', ''];
  const branches: Json[] = schema.anyOf ?? [schema];
  for (const b of branches) {
    if (b.type === 'number' || b.type === 'integer') {
      const step = b.type === 'integer' ? 1 : 1e-6;
      if (b.minimum !== undefined) values.push(b.minimum, b.minimum - step);
      if (b.exclusiveMinimum !== undefined) values.push(b.exclusiveMinimum, b.exclusiveMinimum + step);
      if (b.maximum !== undefined && b.maximum < 1e15) values.push(b.maximum, b.maximum + step);
      if (b.type === 'integer') values.push((b.minimum ?? b.exclusiveMinimum ?? 0) + 1.5);
      const low = b.minimum ?? (b.exclusiveMinimum ?? 0) + step;
      values.push(String(Math.max(low, 1)), '10 1/2', '3/4', '10½', '-5', '1/0', '1e3');
    }
    if (b.enum) values.push(...b.enum, ...b.enum.map((v: string) => ` ${String(v).toUpperCase()} `), 'none', 'n', 'y');
    if (b.type === 'boolean') values.push(false, 'true', 1);
    if (b.type === 'null') values.push(null);
  }
  return [...new Set(values)];
}

/** A small valid request; a boundary case changes one leaf. */
const base = () => ({
  saw: { bladeWidth: 3, guillotineOptions: {}, nestingOptions: {}, efficiencyOptions: {}, options: {} },
  stock: [{ l: 1000, w: 600, trim: {} }],
  parts: [{ l: 300, w: 200, q: 2 }],
});

function withLeaf(path: (string | number)[], value: unknown) {
  const request: any = base();
  let at = request;
  for (const key of path.slice(0, -1)) at = at[key] ??= typeof key === 'number' ? [] : {};
  at[path.at(-1)!] = value;
  return request;
}

// ---- Random requests (fast-check, seeded) ----

const pick = <T>(...values: T[]) => fc.constantFrom(...values);
/** An optional field: absent half the time. */
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });
/** A field the request needs: absent now and then. */
const usually = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 30 });
/** Mostly right, now and then wrong: a request has many fields, and half of them should pass. */
const mostly = <T>(right: fc.Arbitrary<T>, wrong: unknown[]) => fc.oneof({ weight: 30, arbitrary: right as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: fc.constantFrom(...wrong) });
const word = (right: unknown[], wrong: unknown[]) => mostly(fc.constantFrom(...right), wrong);
/** Numbers from min up, as numbers or in every string form (never an in-grammar string out of range). */
const size = (min: number) => mostly(fc.integer({ min: Math.max(min, 1), max: 3000 })
  .chain((n) => fc.oneof({ weight: 4, arbitrary: fc.constant<unknown>(n) }, { weight: 1, arbitrary: pick(`${n}`, ` ${n} `, `${n} 1/2`, `${n}½`, `${n}.25`) })),
[0, -1, -5, 'abc', '', ' ', '-5', '1/0', null, true]);
const count = mostly(fc.oneof(fc.integer({ min: 1, max: 5 }), pick('2', '3.0')), [0, -1, 1.5, '2.5', 'x', null]);
const direction = (...more: unknown[]) => word(['', 'l', 'w', 'L', ' W ', null, 'n', 'none', ' ', ...more], ['x', 5, 'lw']);
const trim = fc.record({
  l1: maybe(fc.integer({ min: 0, max: 20 })), l2: maybe(fc.integer({ min: 0, max: 20 })), w1: maybe(fc.integer({ min: 0, max: 20 })),
  y1: maybe(fc.integer({ min: 0, max: 20 })), x2: maybe(mostly(pick<unknown>(0, 5, '5'), [-1, 'x'])),
});
const sawFields = fc.record({
  stockType: maybe(word(['sheet', 'sheet', 'linear', 'roll', 'SHEET', ' Roll '], ['laser', 3])),
  cutType: maybe(word(['guillotine', 'guillotine', 'efficiency', 'beam', 'nesting', 'Beam'], ['laser'])),
  cutPreference: maybe(word(['l', 'w', 'length', 'width', 'efficiency', 'beam', 'W'], ['x'])),
  bladeWidth: maybe(mostly(fc.oneof(fc.integer({ min: 0, max: 10 }), pick('4', '3 1/2')), [-1, 'x'])),
  stackHeight: maybe(mostly(fc.oneof(fc.integer({ min: 1, max: 10 }), pick('3')), [0, 2.5])),
  guillotineOptions: maybe(fc.record({
    strategy: maybe(word(['efficiency', 'time', 'TIME'], ['slow'])),
    maxPhase: maybe(word([0, 3, 10, '2'], [11, -1])),
    headCuts: maybe(word([true, false], ['yes'])),
  }, { requiredKeys: [] })),
}, { requiredKeys: [] });
const sawOptions = fc.record({
  minSpacing: maybe(word([0, 2, '1'], [-1])), seed: maybe(word([1, 7], [-1, 1.5])), stackingMode: maybe(word(['identical', 'NONE'], ['all'])),
}, { requiredKeys: [] });
const request = fc.record({
  // Saw fields in saw, and a legacy client's under saw.options (now and then both).
  saw: maybe(fc.tuple(sawFields, fc.option(sawFields, { nil: {}, freq: 1 }), sawOptions)
    .map(([own, legacy, options]) => ({ ...own, options: { ...options, ...legacy } }))),
  stock: fc.array(fc.record({
    l: usually(fc.oneof({ weight: 15, arbitrary: size(100) }, { weight: 1, arbitrary: pick<unknown>(0) })), w: usually(size(100)), t: maybe(size(1)),
    q: maybe(word([0, 1, 3, 5], [-1, 1.5])), grain: maybe(direction('y', 'Y')), trim: maybe(trim),
    material: maybe(pick('', 'MDF', 'mdf')), id: maybe(pick<unknown>('', 'a', 7)),
  }), { minLength: 1, maxLength: 3 }),
  parts: fc.array(fc.record({
    l: usually(size(1)), w: usually(size(1)), t: maybe(size(1)), q: maybe(count),
    grain: maybe(direction()), orientationLock: maybe(direction()), material: maybe(pick('', 'MDF', 'mdf')), name: maybe(pick('side', '')),
  }), { minLength: 1, maxLength: 3 }),
  webhook: maybe(word(['http://127.0.0.1:9/hook', 'HTTPS://127.0.0.1:9/x?y=1#z', 'http://[::1]:9/h', 'http://user@127.0.0.1:9/'],
    ['ftp://127.0.0.1/x', 'not a url', 'http://', '', 'http://a b/x', 'http://127.0.0.1:9/x y'])),
}, { requiredKeys: ['stock', 'parts'] }).map((r) => JSON.parse(JSON.stringify(r)) as Json);
// Now and then no stock or no parts at all.
const requests = fc.oneof({ weight: 30, arbitrary: request }, { weight: 1, arbitrary: request.map((r) => ({ ...r, parts: [] })) });

const jobId = pick('DONE', 'FAILED', '999999', '0', '-1', 'abc', '1.5', '', ' 7', '1e3', '9007199254740992', '0x10');
const idOf = (id: string) => (id === 'DONE' ? String(doneJob) : id === 'FAILED' ? String(failedJob) : id);

/** A binary STL of one 600 x 400 x 18 panel (12 triangles). */
function panelStl(): Uint8Array {
  const corners = [0, 1].flatMap((z) => [0, 1].flatMap((y) => [0, 1].map((x) => [x * 600, y * 400, z * 18])));
  const faces = [[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4], [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]];
  const bytes = Buffer.alloc(84 + 50 * faces.length);
  bytes.writeUInt32LE(faces.length, 80);
  faces.forEach((face, i) => face.forEach((c, k) => corners[c].forEach((v, axis) => bytes.writeFloatLE(v, 84 + 50 * i + 12 + 12 * k + 4 * axis))));
  return new Uint8Array(bytes);
}

describe('schema conformance', () => {
  it('seeded random requests to submitCalculation, and the results of those accepted', async () => {
    const accepted: number[] = [];
    for (const body of fc.sample(requests, { seed: SEED, numRuns: 300 })) {
      const reply = await exercise('submitCalculation', { body });
      if (reply.status === 200) accepted.push(reply.json.jobId);
    }
    // Their results must fit ResultResponse (or FailedJob): the first 25, waited for.
    for (const id of accepted.slice(0, 25)) {
      await finished(id);
      await exercise('getResult', { query: { id: String(id) } });
    }
    expect(accepted.length).toBeGreaterThan(60);
    expect(mismatches).toEqual([]);
  });

  it('boundary requests to submitCalculation: each leaf at and past its documented limits', async () => {
    const requestSchema = document.paths['/v3/calculate'].post.requestBody.content['application/json'].schema;
    for (const leaf of leaves(requestSchema)) {
      for (const value of boundaryValues(leaf.schema)) {
        // A trim at its maximum (src/schema/limits.ts) leaves nothing of the base stock: a rule across fields (see the head).
        if (leaf.path.includes('trim') && typeof value === 'number' && value >= 300) continue;
        await exercise('submitCalculation', { body: withLeaf(leaf.path, value) });
      }
    }
    await exercise('submitCalculation', { body: { ...base(), stock: Array.from({ length: 1001 }, () => ({ l: 100, w: 100 })) } });
    expect(mismatches).toEqual([]);
  });

  it('results of every engine and stock type fit ResultResponse, a failed job FailedJob', async () => {
    const kerf = kerfClient({ baseUrl: server.url, apiKey: DEV_KEY, pollMs: 50 });
    const parts = [{ l: 700, w: 300, q: 3 }, { l: 450, w: 250, q: 2, grain: 'l' }];
    const kinds = [
      SHEET_EXAMPLE, LINEAR_EXAMPLE, NESTING_EXAMPLE,
      { saw: { cutType: 'efficiency' }, stock: [{ l: 2000, w: 1000 }], parts },
      { saw: { cutType: 'beam', stackHeight: 2 }, stock: [{ l: 2000, w: 1000 }], parts },
      { saw: { stockType: 'roll' }, stock: [{ w: 1000 }], parts },
      { saw: { stockType: 'roll', cutType: 'efficiency' }, stock: [{ l: 5000, w: 1000 }], parts },
      { saw: { stockType: 'roll', cutType: 'nesting' }, stock: [{ w: 1000 }], parts },
      { saw: { stockType: 'linear' }, stock: [{ l: 3000 }], parts: [{ l: 700, q: 4 }, { l: 5000 }] },
    ];
    for (const request of kinds) {
      const id = await kerf.submit(request);
      await finished(id);
      expect((await exercise('getResult', { query: { id: String(id) } })).status).toBe(200);
    }
    expect((await exercise('getResult', { query: { id: String(failedJob) } })).status).toBe(422);
    expect(mismatches).toEqual([]);
  });

  it('boundary and random queries to getResultReady, getResult and exportResult', async () => {
    const ids = fc.sample(jobId, { seed: SEED, numRuns: 40 }).concat(['DONE', 'FAILED']);
    for (const id of ids) {
      await exercise('getResultReady', { query: { id: idOf(id) } });
      await exercise('getResult', { query: { id: idOf(id) } });
    }
    await exercise('getResult', { query: {} });
    const formats = Object.keys(document.paths['/v3/result/export'].get.responses['200'].content).length;
    expect(formats).toBe(5);
    const exportQuery = fc.tuple(jobId, pick('pdf', 'csv', 'dxf', 'svg', 'ptx', 'PDF', ' Csv ', 'xlsx', ''), fc.nat(9)).map(([id, format, option]) => {
      const allowed: Record<string, string[]> = { pdf: ['layout', 'labels'], csv: ['layout', 'parts', 'cuts', 'machining'], dxf: ['layout'], svg: ['layout'], ptx: ['layout'] };
      const options = allowed[format.trim().toLowerCase()] ?? ['layout'];
      const query: Record<string, string> = { id: idOf(id) };
      if (format !== '') query.format = format;
      if (option < 6) query.option = option < 3 ? options[option % options.length] : option < 5 ? options[option % options.length].toUpperCase() : 'everything';
      return query;
    });
    for (const query of fc.sample(exportQuery, { seed: SEED, numRuns: 60 })) await exercise('exportResult', { query });
    expect(mismatches).toEqual([]);
  });

  it('boundary and random queries to analyseModel with a valid model file', async () => {
    const bytes = panelStl();
    // A fifth of the values given are wrong: about half the queries are valid.
    const param = (right: string[], wrong: string[]) => maybe(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...right) }, { weight: 1, arbitrary: fc.constantFrom(...wrong) }));
    const analysisQuery = fc.record({
      filename: param(['panel.stl', 'PANEL.STL'], ['x'.repeat(256)]),
      format: param(['stl', 'STL', 'glb', 'dae'], ['bmp', '']),
      units: param(['mm', 'cm', 'in'], ['MM', 'yd']),
      sourceUnits: param(['mm', 'ft'], ['furlong']),
      dedupe: param(['true', 'false', '1', '0'], ['yes', 'TRUE']),
      mirrorDedupe: param(['true', '0'], ['no']),
      bladeWidth: param(['4', '0.5', '1e-3'], ['0', '-1', 'abc', '']),
      holes: param(['cut', 'drill'], ['CUT', 'punch']),
    }, { requiredKeys: [] }).map((q) => JSON.parse(JSON.stringify(q)) as Record<string, string>);
    for (const query of fc.sample(analysisQuery, { seed: SEED, numRuns: 40 })) await exercise('analyseModel', { query, bytes });
    expect(mismatches).toEqual([]);
  });

  it('reports its counts', () => {
    const rows = [...tallies].map(([op, t]) => `${op.padEnd(18)} ${String(t.cases).padStart(5)} cases, ${String(t.documentValid).padStart(4)} valid by the document, ${String(t.served).padStart(4)} served, ${String(t.bodies).padStart(5)} answers fit their schema`);
    process.stdout.write(`\nschema conformance (seed ${SEED}), ${mismatchesInAll} mismatches:\n${rows.join('\n')}\n`);
    expect(mismatchesInAll).toBe(0);
    for (const t of tallies.values()) {
      expect(t.documentValid).toBeGreaterThan(0);
      expect(t.cases - t.documentValid).toBeGreaterThan(0);
      expect(t.bodies).toBe(t.cases);
    }
  });
});
