// POST /v3/model/analysis through the real server on the real models of shared/models (copied
// to test/fixtures/models with their licence note). True cut lists: shared/models/README.md.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/client.js';
import { DEV_KEY, ROOT, cli, startServer, type KerfServer } from '../support/server.js';

const MODELS = path.join(ROOT, 'test/fixtures/models');
const model = (name: string) => new Uint8Array(fs.readFileSync(path.join(MODELS, name)));

let server: KerfServer;
let slow: KerfServer;

beforeAll(async () => {
  [server, slow] = await Promise.all([
    startServer({ env: { KERF_RATE_PER_MINUTE: '10000' } }),
    startServer({ env: { KERF_RATE_PER_MINUTE: '10000', KERF_ANALYSIS_BUDGET_MS: '1' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), slow?.stop()]);
});

function analyse(bytes: Uint8Array, params: Record<string, string> = {}, key: string | null = DEV_KEY, base = server.url) {
  const qs = new URLSearchParams(params).toString();
  return call(`${base}/v3/model/analysis${qs ? `?${qs}` : ''}`, {
    method: 'POST', key, body: bytes, headers: { 'content-type': 'application/octet-stream' },
  });
}

type Row = [l: number, w: number, t: number, q: number];

/** Every expected row matched by one part within 0.1 mm, quantities equal; returns the worst error. */
function expectCutList(parts: any[], expected: Row[]): number {
  expect(parts).toHaveLength(expected.length);
  const left = [...parts];
  let worst = 0;
  for (const [l, w, t, q] of expected) {
    const i = left.findIndex((p) => Math.abs(p.l - l) <= 0.1 && Math.abs(p.w - w) <= 0.1 && Math.abs(p.t - t) <= 0.1 && p.q === q);
    expect(i, `no part ${l} x ${w} x ${t} (q ${q}) in ${JSON.stringify(parts.map((p) => [p.l, p.w, p.t, p.q]))}`).toBeGreaterThanOrEqual(0);
    const p = left.splice(i, 1)[0];
    worst = Math.max(worst, Math.abs(p.l - l), Math.abs(p.w - w), Math.abs(p.t - t));
    expect(p.l).toBeGreaterThanOrEqual(p.w);
  }
  return worst;
}

const BOOKCASE: Row[] = [[812, 350, 18, 2], [464, 350, 18, 2], [500, 350, 18, 1], [500, 200, 3, 2], [500, 100, 3, 1]];
const CABINET: Row[] = [[600, 100, 18, 2], [600, 500, 18, 4], [600, 300, 18, 6], [464, 300, 18, 3], [500, 304, 18, 3]];

describe('the bookcase (Test003_holes) in four formats', () => {
  const files: [string, Record<string, string>][] = [
    ['woodworking_test003_holes.step', {}],
    ['woodworking_test003_holes.stl', { filename: 'bookcase.stl' }],
    ['woodworking_test003_holes.obj', { filename: 'bookcase.obj' }],
    ['woodworking_test003_holes_meshopt.glb', {}],
  ];
  const seen: string[] = [];
  for (const [file, params] of files) {
    it(`${file}: 8 solids, 5 unique parts within 0.1 mm, all rect`, async () => {
      const reply = await analyse(model(file), params);
      expect(reply.status, reply.text).toBe(200);
      const body = reply.json;
      expect(body.version).toBe('3');
      const worst = expectCutList(body.parts, BOOKCASE);
      expect(worst).toBeLessThanOrEqual(0.1);
      expect(body.parts.every((p: any) => p.role === 'rect')).toBe(true);
      expect(body.model.stats).toMatchObject({ parts: 8, merged: 3, rectangular: 8, irregular: 0, fixtures: 0 });
      expect(body.model.units).toBe('mm');
      seen.push(JSON.stringify(body.parts.map((p: any) => [p.l, p.w, p.t, p.q]).sort()));
    });
  }
  it('each format gives the same parts', () => {
    expect(new Set(seen).size).toBe(1);
  });

  it('keeps names and materials from the file structure', async () => {
    const obj = (await analyse(model('woodworking_test003_holes.obj'), { filename: 'b.obj', dedupe: 'false' })).json;
    expect(obj.parts.map((p: any) => p.name)).toEqual(expect.arrayContaining(['Side_R', 'Side_L', 'Shelf_1', 'Top', 'Back_3']));
    const glb = (await analyse(model('woodworking_test003_holes_meshopt.glb'))).json;
    expect(glb.model).toMatchObject({ format: 'gltf', declaredUnits: 'm', sourceUnits: 'm' });
    const step = (await analyse(model('woodworking_test003_holes.step'), { dedupe: 'false' })).json;
    expect(step.model).toMatchObject({ format: 'step', declaredUnits: 'mm' });
    expect(step.parts.map((p: any) => p.name)).toEqual(expect.arrayContaining(['Side R', 'Side L', 'Back 3']));
    expect(step.parts).toHaveLength(8);
  });

  it('reads the drilling: through holes with countersinks, and blind edge holes (STEP, STL, OBJ, GLB alike)', async () => {
    for (const [file, params] of files) {
      const body = (await analyse(model(file), params)).json;
      const holesOf = (l: number) => body.parts.find((p: any) => Math.abs(p.l - l) < 0.1 && p.t > 10).machining.holes;
      const near = (holes: any[], want: [number, number][], face: number[], depth?: number) => {
        expect(holes).toHaveLength(want.length);
        for (const [x, y] of want) {
          const h = holes.find((o: any) => Math.abs(o.x - x) <= 0.1 && Math.abs(o.y - y) <= 0.1);
          expect(h, `${file}: hole at ${x}, ${y} in ${JSON.stringify(holes)}`).toBeDefined();
          expect(Math.abs(h.diameter - 3)).toBeLessThanOrEqual(0.1);
          expect(face).toContain(h.face);
          if (depth === undefined) expect(h.depth).toBeUndefined();
          else expect(Math.abs(h.depth - depth)).toBeLessThanOrEqual(0.1);
        }
      };
      // Side: (from the bottom along l, from the back along w); either end may be the origin.
      const side = holesOf(812).map((h: any) => ({ ...h, x: Math.min(h.x, 812 - h.x), y: Math.min(h.y, 350 - h.y) }));
      near(side, [[185, 50], [503, 50], [185, 50], [503, 50]].map(([x, y]) => [Math.min(x, 812 - x), y] as [number, number]), [0, 1]);
      near(holesOf(500), [[9, 50], [9, 300], [491, 50], [491, 300]], [0, 1]);
      const shelf = holesOf(464).map((h: any) => ({ ...h, x: Math.min(h.x, 350 - h.x) }));
      near(shelf, [[50, 9], [50, 9], [50, 9], [50, 9]], [4, 5], 50);
      expect(body.parts.filter((p: any) => p.t < 5).every((p: any) => p.machining === undefined)).toBe(true);
    }
  });

  it('holes=cut returns round holes as rings with the outline, and the part stays rect', async () => {
    const body = (await analyse(model('woodworking_test003_holes.step'), { holes: 'cut' })).json;
    const top = body.parts.find((p: any) => p.l === 500 && p.t === 18);
    expect(top.role).toBe('rect');
    expect(top.holes).toHaveLength(4);
    expect(top.outline.length).toBeGreaterThanOrEqual(4);
    expect(top.machining).toBeUndefined();
  });

  it('the binary STL soup splits into the true 8 parts (welded vertices, 2-use edges)', async () => {
    const reply = await analyse(model('woodworking_test003_holes.stl'), { filename: 'b.stl', dedupe: 'false' });
    expect(reply.json.parts).toHaveLength(8);
    expect(reply.json.model.declaredUnits).toBeNull();
  });
});

describe('the modular cabinet', () => {
  for (const [file, params] of [
    ['woodworking_cabinet_modular_001.step', {}],
    ['woodworking_cabinet_modular_001.ply', {}],
    ['woodworking_cabinet_modular_001_ascii.stl', { filename: 'cabinet.stl' }],
  ] as [string, Record<string, string>][]) {
    it(`${file}: 18 panels, 5 rows, bottoms dedupe with the top`, async () => {
      const reply = await analyse(model(file), params);
      expect(reply.status, reply.text).toBe(200);
      expectCutList(reply.json.parts, CABINET);
      expect(reply.json.model.stats).toMatchObject({ parts: 18, merged: 13 });
    });
  }

  it('the welded PLY reports its non-manifold edges where panels touch', async () => {
    const body = (await analyse(model('woodworking_cabinet_modular_001.ply'))).json;
    const nm = body.advice.filter((a: any) => a.code === 'non-manifold-edge');
    expect(nm.length).toBeGreaterThan(0);
    expect(nm.every((a: any) => ['info', 'warning', 'error'].includes(a.severity) && Number.isInteger(a.partIndex))).toBe(true);
  });

  it('ASCII STL keeps the solid names', async () => {
    const body = (await analyse(model('woodworking_cabinet_modular_001_ascii.stl'), { filename: 'c.stl', dedupe: 'false' })).json;
    expect(body.parts.map((p: any) => p.name)).toContain('module 2, Side left');
  });

  it('converts units: cm out, and a sourceUnits override', async () => {
    const cm = (await analyse(model('woodworking_cabinet_modular_001.step'), { units: 'cm' })).json;
    expectCutList(cm.parts, CABINET.map(([l, w, t, q]) => [l / 10, w / 10, t / 10, q] as Row));
    expect(cm.model).toMatchObject({ units: 'cm', sourceUnits: 'mm', declaredUnits: 'mm' });
    const inches = (await analyse(model('woodworking_cabinet_modular_001.ply'), { sourceUnits: 'in', units: 'mm' })).json;
    expectCutList(inches.parts, CABINET.map(([l, w, t, q]) => [l * 25.4, w * 25.4, t * 25.4, q] as Row));
  });

  it('the parts post unchanged to /v3/calculate', async () => {
    const body = (await analyse(model('woodworking_cabinet_modular_001.step'))).json;
    const reply = await call(`${server.url}/v3/calculate`, {
      method: 'POST', key: DEV_KEY,
      body: { saw: { bladeWidth: 3, cutType: 'guillotine', stockType: 'sheet' }, stock: [{ l: 2800, w: 2070, t: 18, q: 10 }], parts: body.parts },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.jobId).toEqual(expect.any(Number));
  });
});

describe('Plasticity exports: tilted parts, names from the STEP text', () => {
  it('var_thickness_test: three squares rotated in 3D measure true', async () => {
    const body = (await analyse(model('laserconvert_var_thickness_test.stp'))).json;
    expectCutList(body.parts, [[25, 25, 3, 1], [60, 60, 6, 1], [95, 95, 9, 1]]);
    expect(body.parts.map((p: any) => p.name).sort()).toEqual(['Nine', 'Six', 'Three']);
  });

  it('KCBox: one 3 mm part, 58 x 40, nesting', async () => {
    const body = (await analyse(model('laserconvert_KCBox.stp'))).json;
    expectCutList(body.parts, [[58, 40, 3, 1]]);
    expect(body.parts[0].role).toBe('nesting');
    // Two rectangular through cut-outs, 10 x 10 and 10 x 5, in the outline's frame.
    const sizes = body.parts[0].holes.map((ring: any[]) => {
      const xs = ring.map((p) => p.x), ys = ring.map((p) => p.y);
      return [Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)].sort((a, b) => b - a);
    }).sort((a: number[], b: number[]) => b[1] - a[1]);
    expect(sizes[0][0]).toBeCloseTo(10, 1);
    expect(sizes[0][1]).toBeCloseTo(10, 1);
    expect(sizes[1][0]).toBeCloseTo(10, 1);
    expect(sizes[1][1]).toBeCloseTo(5, 1);
    const outline = body.parts[0].outline;
    expect(outline.length).toBeGreaterThan(8);
    expect(Math.max(...outline.map((p: any) => p.x))).toBeCloseTo(58, 1);
    expect(Math.max(...outline.map((p: any) => p.y))).toBeCloseTo(40, 1);
    expect(body.parts[0].machining).toBeUndefined();
    expect(body.advice.some((a: any) => a.code === 'squared-off-waste' && a.wastePct > 0 && a.wastePct < 1)).toBe(true);
  });

  it('big box v2: 19 named parts, outlines within 0.1 mm of the SVG boxes', async () => {
    const body = (await analyse(model('laserconvert_big_box_v2.stp'), { dedupe: 'false' })).json;
    const truth: Record<string, [number, number]> = {
      DHBottom: [140, 82.5], MiddleShelf: [170, 170], DHLeft: [140, 64.5], DrawerBottom: [166.3, 162], DrawerBack: [161.8, 71],
      DrawerLeft: [166.3, 71], DrawerRight: [166.3, 71], DrawerFront: [170, 72], TopDivider: [170, 60], Lid: [166, 162],
      LibTabB: [170, 167], LidTabA: [170, 167], RightLidtab: [164, 8], Bottom: [170, 170], LeftWall: [170, 150],
      FrontA: [170, 75], RigthLowerWall: [170, 78], RightWall: [164, 72], BackWall: [170, 150],
    };
    expect(body.parts).toHaveLength(19);
    for (const p of body.parts) {
      const [l, w] = truth[p.name];
      expect(Math.abs(p.l - l), p.name).toBeLessThanOrEqual(0.1);
      expect(Math.abs(p.w - w), p.name).toBeLessThanOrEqual(0.1);
      expect(Math.abs(p.t - 3), p.name).toBeLessThanOrEqual(0.1);
    }
    for (const plain of ['DrawerBottom', 'DrawerBack', 'DrawerLeft', 'DrawerFront']) {
      expect(body.parts.find((p: any) => p.name === plain).role, plain).toBe('rect');
    }
    // Slots are non-round cut-outs: LeftWall 3, FrontA 3, RightWall 4, BackWall 4, MiddleShelf 1, Lid 1.
    const slots = Object.fromEntries(body.parts.map((p: any) => [p.name, p.holes?.length ?? 0]));
    expect(slots).toMatchObject({ LeftWall: 3, FrontA: 3, RightWall: 4, BackWall: 4, MiddleShelf: 1, Lid: 1, DrawerBottom: 0 });
    for (const name of ['LeftWall', 'FrontA', 'BackWall', 'LibTabB']) expect(body.parts.find((p: any) => p.name === name).role, name).toBe('nesting');
    const frame = body.parts.find((p: any) => p.name === 'LibTabB');
    expect(body.advice.find((a: any) => a.code === 'squared-off-waste' && a.partIndex === body.parts.indexOf(frame)).wastePct).toBeGreaterThan(0.8);
  });

  it('suggests units when the blade is large against the model', async () => {
    // The GLB is in metres; read as millimetres the whole bookcase is about 1 mm across.
    const body = (await analyse(model('woodworking_test003_holes_meshopt.glb'), { sourceUnits: 'mm', bladeWidth: '3' })).json;
    expect(body.model.suggestedUnits).toBe('m');
    const none = (await analyse(model('woodworking_test003_holes_meshopt.glb'), { bladeWidth: '3' })).json;
    expect(none.model.suggestedUnits).toBeUndefined();
  });
});

describe('refusals', () => {
  const expectError = (reply: { status: number; json: any; text: string }, status: number, pattern: RegExp) => {
    expect(reply.status, reply.text).toBe(status);
    expect(reply.json).toEqual({ error: expect.any(String), details: expect.any(Object), version: '3' });
    expect(reply.json.error).toMatch(pattern);
  };

  it('OBJ and ASCII STL without a filename or format are a 400', async () => {
    expectError(await analyse(model('woodworking_cabinet_modular_001_ascii.stl')), 400, /filename or format/);
    expectError(await analyse(model('woodworking_test003_holes.obj')), 400, /filename or format/);
    expect((await analyse(model('woodworking_test003_holes.obj'), { format: 'obj' })).status).toBe(200);
  });

  it('bytes that contradict the extension are a meaningful 400', async () => {
    expectError(await analyse(new TextEncoder().encode('hello, this is not a model'), { filename: 'x.ply' }), 400, /not a PLY file/);
    expectError(await analyse(new Uint8Array(200).fill(7), { filename: 'x.stl' }), 400, /binary STL/);
    expectError(await analyse(new Uint8Array(100).fill(1), { filename: 'x.step' }), 400, /not a STEP file/);
  });

  it('a truncated or garbled STEP is a 400 and the server keeps analysing', async () => {
    const step = model('woodworking_cabinet_modular_001.step');
    expectError(await analyse(step.subarray(0, step.length >> 1)), 400, /Malformed STEP file/);
    const garbled = Buffer.from('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\n#1=CARTESIAN_POINT(\'\',(0.,0.,;\nENDSEC;\nEND-ISO-10303-21;\n', 'latin1');
    const reply = await analyse(new Uint8Array(garbled));
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect((await analyse(model('woodworking_cabinet_modular_001.ply'))).status).toBe(200);
  });

  it('Collada and 3MF are a 415 naming the supported formats', async () => {
    const dae = await analyse(new TextEncoder().encode('<?xml version="1.0"?>\n<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema"></COLLADA>'), { filename: 'a.dae' });
    expectError(dae, 415, /Collada/);
    expect(dae.json.details).toMatchObject({ format: 'collada', supported: ['obj', 'stl', 'ply', 'gltf', 'step'], help: expect.any(String) });
    const zip = new Uint8Array([0x50, 0x4b, 3, 4, ...new TextEncoder().encode('....3D/3dmodel.model....')]);
    const mf = await analyse(zip, { filename: 'a.3mf' });
    expectError(mf, 415, /3MF/);
    expect(mf.json.details.format).toBe('3mf');
  });

  it('a declared length over 32 MB is refused with 413 before the body is read', async () => {
    const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${server.url}/v3/model/analysis?filename=a.stl`);
      const req = http.request(url, { method: 'POST', headers: { authorization: DEV_KEY, 'content-type': 'application/octet-stream', 'content-length': String(40 * 1024 * 1024) } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.write(Buffer.alloc(1024));
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).details.limitBytes).toBe(32 * 1024 * 1024);
  });

  it('a chunked body is cut off at 32 MB with 413', async () => {
    // No timer of its own: a missing answer fails on the test timeout.
    const reply = await new Promise<{ status: number; body: string }>((resolve) => {
      const url = new URL(`${server.url}/v3/model/analysis?filename=a.stl`);
      const req = http.request(url, { method: 'POST', headers: { authorization: DEV_KEY, 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', () => undefined);
      const chunk = Buffer.alloc(1024 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 40 && req.write(chunk)) sent++;
        if (sent < 40) req.once('drain', () => { sent++; pump(); });
        else req.end();
      };
      pump();
    });
    expect(reply.status).toBe(413);
  });

  it('more than 2,000,000 triangles is a 422 (a small indexed PLY)', async () => {
    const faces = 2_000_001;
    const header = `ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face ${faces}\nproperty list uchar int vertex_indices\nend_header\n`;
    const body = Buffer.alloc(header.length + 36 + faces * 13);
    body.write(header, 'latin1');
    let o = header.length;
    for (const v of [0, 0, 0, 1, 0, 0, 0, 1, 0]) { body.writeFloatLE(v, o); o += 4; }
    for (let f = 0; f < faces; f++, o += 13) { body[o] = 3; body.writeInt32LE(0, o + 1); body.writeInt32LE(1, o + 5); body.writeInt32LE(2, o + 9); }
    expectError(await analyse(new Uint8Array(body)), 422, /2,000,000/);
  });

  it('an analysis over its time budget is a 422 with the advice gathered so far', async () => {
    const reply = await analyse(model('woodworking_test003_holes.stl'), { filename: 'b.stl' }, DEV_KEY, slow.url);
    expectError(reply, 422, /time budget/);
    expect(Array.isArray(reply.json.details.advice)).toBe(true);
  });
});

describe('billing', () => {
  it('an accepted analysis counts one call and its compute; refusals count nothing', async () => {
    const created = await cli(server.dataDir, 'accounts', 'create', '--email', 'analysis@example.com');
    expect(created.code, created.stderr).toBe(0);
    const key = /api key \(shown once\): (\S+)/.exec(created.stdout)![1];
    expect((await analyse(model('woodworking_cabinet_modular_001.ply'), {}, null)).status).toBe(401);
    expect((await analyse(new TextEncoder().encode('<COLLADA/>'), { filename: 'a.dae' }, key)).status).toBe(415);
    expect((await analyse(new Uint8Array(10), { filename: 'a.stl' }, key)).status).toBe(400);
    let usage = (await cli(server.dataDir, 'accounts', 'usage', '--account', 'analysis@example.com')).stdout;
    expect(usage).toMatch(/: 0 of \d+ calls/);
    expect((await analyse(model('woodworking_cabinet_modular_001.ply'), {}, key)).status).toBe(200);
    usage = (await cli(server.dataDir, 'accounts', 'usage', '--account', 'analysis@example.com')).stdout;
    expect(usage).toMatch(/: 1 of \d+ calls/);
  });
});
