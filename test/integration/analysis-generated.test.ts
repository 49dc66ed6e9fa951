// POST /v3/model/analysis on models nobody here drew: scenes from the seeded generator
// (bench/analysis-scenes) through the real server, scored against their true cut list, and
// the six failures of issue 35 each on a small scene of its own.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cylinder, panelMesh, type PanelDesign } from '../../bench/analysis-scenes/geometry.js';
import { scoreScenes } from '../../bench/analysis-scenes/run.js';
import { at, bracket, hinge, IDENTITY, mul, rotX, rotY, rotZ, compose, type Item, type Scene } from '../../bench/analysis-scenes/scene.js';
import { FORMATS, writeScene, type SceneFormat } from '../../bench/analysis-scenes/writers.js';
import { call } from '../support/client.js';
import { DEV_KEY, ROOT, startServer, type KerfServer } from '../support/server.js';

let server: KerfServer;
beforeAll(async () => {
  server = await startServer({ env: { KERF_RATE_PER_MINUTE: '10000' } });
});
afterAll(async () => {
  await server?.stop();
});

async function analyse(bytes: Uint8Array, params: Record<string, string>): Promise<any> {
  const reply = await call(`${server.url}/v3/model/analysis?${new URLSearchParams(params)}`, {
    method: 'POST', key: DEV_KEY, body: bytes, headers: { 'content-type': 'application/octet-stream' },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.json;
}

const EXT: Record<SceneFormat, string> = { 'stl-binary': 'stl', 'stl-ascii': 'stl', 'obj-groups': 'obj', 'obj-soup': 'obj', ply: 'ply', glb: 'glb', 'glb-quantized': 'glb', 'glb-meshopt': 'glb' };
const scene = (items: Item[], unit: Scene['unit'] = 'mm'): Scene => ({ seed: 0, unit, items });
const panel = (name: string | undefined, design: PanelDesign, r = IDENTITY, p: [number, number, number] = [0, 0, 0], material?: string): Item =>
  ({ kind: 'panel', name, material, design, solids: [{ tris: panelMesh(design), at: at(r, p) }] });
const plain = (l: number, w: number, t: number): PanelDesign => ({ l, w, t, holes: [], edgeBores: [], cutouts: [] });

describe('generated scenes, every format (seeds 1-3)', () => {
  it('panel rows, fittings and units all right, holes at least 99 % right', async () => {
    const scores = await scoreScenes([1, 2, 3], async (req) => analyse(req.bytes, {
      filename: req.filename, units: 'mm', ...(req.sourceUnits ? { sourceUnits: req.sourceUnits } : {}),
    }));
    expect([...scores.keys()]).toEqual([...FORMATS]);
    for (const [format, s] of scores) {
      expect(s.rows, format).toBeGreaterThan(30);
      expect({ format, rowsRight: s.rowsRight, extraRows: s.extraRows, panelsAsFixtures: s.panelsAsFixtures, fittingsRight: s.fittingsRight, unitsRight: s.unitsRight, problems: s.problems.slice(0, 3) })
        .toEqual({ format, rowsRight: s.rows, extraRows: 0, panelsAsFixtures: 0, fittingsRight: s.fittings, unitsRight: s.units, problems: s.problems.slice(0, 3) });
      expect(s.holesRight / (s.holes + s.extraHoles), `${format}: ${s.problems.slice(0, 3).join('\n')}`).toBeGreaterThanOrEqual(0.99);
    }
  });
});

describe('issue 35: the six failures', () => {
  it('1. a loose tilted shelf after a steel fitting, and a tilted L-shaped board with three holes named "bracket", are panels', async () => {
    const lBoard: PanelDesign = { ...plain(600, 400, 18), notch: { x0: 360, y0: 220, x1: 600, y1: 400 },
      holes: [{ x: 100, y: 100, d: 8, side: 'top', depth: 12 }, { x: 200, y: 100, d: 5, side: 'top', depth: null }, { x: 100, y: 300, d: 35, side: 'bottom', depth: 13 }] };
    const tilt = mul(rotZ(0.7), mul(rotY(0.4), rotX(1.1)));
    const items: Item[] = [
      { kind: 'fitting', name: 'hinge', material: 'steel', solids: hinge().map((s) => ({ tris: s.tris, at: compose(s.at, at(IDENTITY, [0, -500, 0])) })) },
      panel('spare shelf', plain(764, 300, 18), tilt, [200, 300, 100], 'oak'),
      panel('shelf bracket', lBoard, mul(rotX(2.2), rotZ(0.3)), [1500, 0, 200], 'oak'),
    ];
    const body = await analyse(await writeScene(scene(items), 'obj-groups'), { filename: 'loose.obj' });
    const shelf = body.parts.find((p: any) => p.name === 'spare shelf');
    expect(shelf).toMatchObject({ role: 'rect', l: 764, w: 300, t: 18, material: 'oak' });
    const board = body.parts.find((p: any) => p.name === 'shelf bracket');
    expect(board).toMatchObject({ role: 'nesting', l: 600, w: 400, t: 18 });
    expect(board.machining.holes).toHaveLength(3);
  });

  it('2. an angle bracket (L 40 x 40 x 100, 2 mm walls) and a hinge disc are not rect panels', async () => {
    for (const format of ['obj-groups', 'stl-binary'] as const) {
      const items: Item[] = [
        { kind: 'fitting', name: 'Body001', solids: bracket() },
        { kind: 'fitting', name: 'Body002', solids: [{ tris: cylinder(17.5, 1.5), at: at(IDENTITY, [300, 0, 0]) }] },
        panel('Body003', plain(500, 300, 18), IDENTITY, [0, 300, 0]),
      ];
      const body = await analyse(await writeScene(scene(items), format), { filename: `fittings.${EXT[format]}` });
      const rect = body.parts.filter((p: any) => p.role !== 'fixture');
      expect(rect, format).toHaveLength(1);
      expect(rect[0]).toMatchObject({ l: 500, w: 300, t: 18, role: 'rect' });
      expect(body.model.stats.fixtures, format).toBe(2);
    }
  });

  it('3. a hinge cup in its 35 mm bore, in files without structure: the bore is 13 mm deep and the cup is no panel', async () => {
    const door: PanelDesign = { ...plain(716, 396, 18), holes: [{ x: 100, y: 27, d: 35, side: 'top', depth: 13 }, { x: 616, y: 27, d: 35, side: 'top', depth: 13 }] };
    const doorAt = at(mul(rotX(Math.PI / 2), rotZ(0.2)), [0, 0, 0]);
    const items: Item[] = [{ kind: 'panel', name: 'door', design: door, solids: [{ tris: panelMesh(door), at: doorAt }] }];
    for (const h of door.holes) items.push({ kind: 'fitting', name: 'hinge', solids: hinge().map((s) => ({ tris: s.tris, at: compose(s.at, compose(at(IDENTITY, [h.x, h.y, door.t]), doorAt)) })) });
    for (const format of ['stl-binary', 'ply', 'obj-soup'] as const) {
      const body = await analyse(await writeScene(scene(items), format), { filename: `door.${EXT[format]}` });
      const panels = body.parts.filter((p: any) => p.role !== 'fixture');
      expect(panels, format).toHaveLength(1);
      expect(panels[0]).toMatchObject({ l: 716, w: 396, t: 18, role: 'rect' });
      const holes = panels[0].machining.holes;
      expect(holes).toHaveLength(2);
      for (const h of holes) expect(h, format).toMatchObject({ diameter: 35, depth: 13, type: 'hinge', face: holes[0].face });
      // Two cups and two arm plates.
      expect(body.parts.filter((p: any) => p.role === 'fixture').reduce((n: number, p: any) => n + p.q, 0), format).toBe(4);
    }
  });

  it('4. identical solids get the identical role, and identical panels one row', async () => {
    const plate = plain(50, 40, 1.5);
    const strip = plain(300, 30, 18);
    const items: Item[] = [
      panel('hinge plate', plate), panel('Part.003', plate, IDENTITY, [100, 0, 0]),
      panel('handle', strip, IDENTITY, [0, 100, 0]), panel('Part.004', strip, IDENTITY, [0, 200, 0]),
      panel('Part.005', plain(600, 300, 18), IDENTITY, [0, 300, 0]), panel('hinge side', plain(600, 300, 18), IDENTITY, [0, 700, 0]),
    ];
    const body = await analyse(await writeScene(scene(items), 'obj-groups'), { filename: 'twins.obj' });
    const roles = (l: number) => body.parts.filter((p: any) => p.l === l).map((p: any) => [p.role, p.q]);
    expect(roles(50)).toEqual([['fixture', 2]]);
    expect(roles(300)).toEqual([['fixture', 2]]);
    expect(roles(600)).toEqual([['rect', 2]]);
  });

  it('5. STEP units: declaredUnits is read from the text (CONVERSION_BASED_UNIT INCH over mm), sourceUnits wins', async () => {
    // KCBox declares millimetres and holds one 58 x 40 x 3 part (test/integration/analysis.test.ts).
    const original = fs.readFileSync(path.join(ROOT, 'test/fixtures/models/laserconvert_KCBox.stp'), 'latin1');
    const mm = { parts: [{ l: 58, w: 40, t: 3 }] };
    const inchText = original.replace('#8=(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.));',
      "#8=(CONVERSION_BASED_UNIT('INCH',#9001)LENGTH_UNIT()NAMED_UNIT(#9003));#9001=LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(25.4),#9002);"
      + '#9002=(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.));#9003=DIMENSIONAL_EXPONENTS(1.,0.,0.,0.,0.,0.,0.);');
    expect(inchText).not.toBe(original);
    const inch = new Uint8Array(Buffer.from(inchText, 'latin1'));
    const declared = await analyse(inch, { filename: 'box.step', dedupe: 'false' });
    expect(declared.model).toMatchObject({ declaredUnits: 'in', sourceUnits: 'in' });
    const dims = (b: any) => b.parts.map((p: any) => [p.l, p.w, p.t]);
    expect(dims(declared)).toEqual(dims(mm).map((d: number[]) => d.map((v) => expect.closeTo(v * 25.4, 0))));
    const overridden = await analyse(inch, { filename: 'box.step', dedupe: 'false', sourceUnits: 'mm' });
    expect(overridden.model).toMatchObject({ declaredUnits: 'in', sourceUnits: 'mm' });
    expect(dims(overridden)).toEqual(dims(mm).map((d: number[]) => d.map((v) => expect.closeTo(v, 1))));
  });

  it('6. a metre GLB read with sourceUnits=mm: no parts, and advice that says why and what to send', async () => {
    const items = [panel('side', plain(720, 560, 18)), panel('shelf', plain(564, 540, 18), IDENTITY, [0, 700, 0])];
    const bytes = await writeScene(scene(items, 'm'), 'glb');
    const right = await analyse(bytes, { filename: 'cabinet.glb' });
    expect(right.parts).toHaveLength(2);
    const wrong = await analyse(bytes, { filename: 'cabinet.glb', sourceUnits: 'mm' });
    expect(wrong.parts).toEqual([]);
    expect(wrong.advice).toContainEqual(expect.objectContaining({ code: 'no-parts', severity: 'error', message: expect.stringContaining('sourceUnits=m') }));
  });
});
