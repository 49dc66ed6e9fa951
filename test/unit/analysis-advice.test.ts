// Roles and advice on small generated models: fittings, overlaps, open meshes, dedupe under
// turns and mirror images, units.
import { describe, expect, it } from 'vitest';
import { runAnalysis } from '../../src/analysis/run.js';
import type { AnalysisOptions } from '../../src/analysis/types.js';

/** OBJ text of named boxes [name, x0, y0, z0, dx, dy, dz], one `o` block each; `drop` leaves faces out. */
function objBoxes(boxes: [string, number, number, number, number, number, number][], drop = 0, material?: string): Uint8Array {
  let text = '';
  let base = 0;
  for (const [name, x, y, z, dx, dy, dz] of boxes) {
    text += `o ${name}\n${material ? `usemtl ${material}\n` : ''}`;
    for (let i = 0; i < 8; i++) text += `v ${x + (i & 1 ? dx : 0)} ${y + (i & 2 ? dy : 0)} ${z + (i & 4 ? dz : 0)}\n`;
    const quads = [[1, 3, 4, 2], [5, 6, 8, 7], [1, 2, 6, 5], [3, 7, 8, 4], [1, 5, 7, 3], [2, 4, 8, 6]];
    quads.slice(0, 6 - drop).forEach((q) => (text += `f ${q.map((k) => k + base).join(' ')}\n`));
    base += 8;
  }
  return new TextEncoder().encode(text);
}

async function analyse(bytes: Uint8Array, options: Partial<AnalysisOptions> = {}) {
  const outcome = await runAnalysis({
    kind: 'analysis', bytes, filename: 'm.obj', budgetMs: 10_000,
    options: { units: 'mm', dedupe: true, mirrorDedupe: false, holesCut: false, ...options },
  });
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.response;
}

describe('roles', () => {
  it('a knob-sized cube and a part named "handle" are fixtures with confidence', async () => {
    const r = await analyse(objBoxes([['Door', 0, 0, 0, 600, 400, 18], ['Knob', 1000, 0, 0, 30, 30, 30], ['Handle bar', 2000, 0, 0, 160, 12, 10]]));
    expect(r.parts.map((p) => p.role)).toEqual(['rect', 'fixture', 'fixture']);
    const fixtures = r.advice.filter((a) => a.code === 'fixture-detected');
    expect(fixtures.map((a) => a.partIndex)).toEqual([1, 2]);
    expect(fixtures.every((a) => a.confidence! > 0.6 && a.confidence! <= 1)).toBe(true);
    expect(r.model.stats).toMatchObject({ parts: 3, fixtures: 2, rectangular: 1 });
  });

  it('a borderline slab is role-uncertain', async () => {
    const r = await analyse(objBoxes([['Strip', 0, 0, 0, 300, 30, 18], ['Rail', 0, 100, 0, 300, 40, 18]]));
    expect(r.parts.map((p) => p.role)).toEqual(['rect', 'rect']);
    expect(r.advice.filter((a) => a.code === 'role-uncertain')).toHaveLength(1);
    expect(r.advice.find((a) => a.code === 'role-uncertain')).toMatchObject({ partIndex: 0, confidence: expect.any(Number) });
  });

  it('steel parts are fittings', async () => {
    const r = await analyse(objBoxes([['Plate', 0, 0, 0, 200, 100, 3]], 0, 'brushed steel'));
    expect(r.parts[0]).toMatchObject({ role: 'fixture', material: 'brushed steel' });
  });
});

describe('advice', () => {
  it('two panels sharing space: parts-overlap with the penetration fraction; touching ones are fine', async () => {
    const r = await analyse(objBoxes([['A', 0, 0, 0, 600, 400, 18], ['B', 0, 0, 9, 600, 300, 18], ['C', 0, 0, 27, 500, 300, 18]]));
    const overlaps = r.advice.filter((a) => a.code === 'parts-overlap');
    expect(overlaps).toHaveLength(1);
    expect(overlaps[0]).toMatchObject({ partIndex: 0, otherPartIndex: 1, severity: 'warning' });
    expect(overlaps[0].penetrationFraction).toBeCloseTo(0.5, 2);
  });

  it('a box with a missing face is an open mesh', async () => {
    const r = await analyse(objBoxes([['Open', 0, 0, 0, 600, 400, 18]], 1));
    const open = r.advice.find((a) => a.code === 'open-mesh');
    expect(open).toMatchObject({ partIndex: 0 });
    expect(['warning', 'error']).toContain(open!.severity);
  });

  it('dedupe folds turned copies; dedupe=false keeps every instance', async () => {
    const boxes: [string, number, number, number, number, number, number][] = [['A', 0, 0, 0, 600, 400, 18], ['B', 0, 1000, 0, 400, 600, 18], ['C', 0, 2000, 0, 18, 400, 600]];
    const folded = await analyse(objBoxes(boxes));
    expect(folded.parts).toEqual([{ name: 'A', l: 600, w: 400, t: 18, q: 3, role: 'rect' }]);
    expect(folded.model.stats.merged).toBe(2);
    expect((await analyse(objBoxes(boxes), { dedupe: false })).parts).toHaveLength(3);
  });

  it('units: sourceUnits in inches, answer in cm; a blade large against the model suggests units', async () => {
    const r = await analyse(objBoxes([['A', 0, 0, 0, 24, 16, 0.75]]), { sourceUnits: 'in', units: 'cm' });
    expect(r.parts[0]).toMatchObject({ l: 60.96, w: 40.64, t: 1.905 });
    expect(r.model).toMatchObject({ units: 'cm', sourceUnits: 'in', declaredUnits: null });
    const tiny = await analyse(objBoxes([['A', 0, 0, 0, 0.6, 0.4, 0.018]]), { bladeWidth: 3 });
    expect(tiny.model.suggestedUnits).toBe('m');
  });
});

/** OBJ of one L x W x T panel (o block) with a round through hole of `d` at (cx, cy), 32 segments. */
function drilledPanel(name: string, L: number, W: number, T: number, cx: number, cy: number, d: number, dx = 0): string {
  const n = 32;
  const hole = Array.from({ length: n }, (_, i) => [cx + (d / 2) * Math.cos((2 * Math.PI * i) / n), cy + (d / 2) * Math.sin((2 * Math.PI * i) / n)]);
  const angle = (p: number[]) => (Math.atan2(p[1] - cy, p[0] - cx) + 2 * Math.PI) % (2 * Math.PI);
  const hit = (i: number) => {
    const ux = Math.cos((2 * Math.PI * i) / n), uy = Math.sin((2 * Math.PI * i) / n);
    const t = Math.min(ux > 1e-12 ? (L - cx) / ux : ux < -1e-12 ? -cx / ux : Infinity, uy > 1e-12 ? (W - cy) / uy : uy < -1e-12 ? -cy / uy : Infinity);
    return [cx + t * ux, cy + t * uy];
  };
  const corners = [[L, 0], [L, W], [0, W], [0, 0]];
  const tris: number[][][] = [];
  const walls: number[][][] = [];
  for (let i = 0; i < n; i++) {
    const a0 = (2 * Math.PI * i) / n, a1 = (2 * Math.PI * (i + 1)) / n;
    const chain = [hit(i), ...corners.filter((c) => { const a = angle(c); return a > a0 && a < a1; }), hit(i + 1)];
    for (let k = 0; k + 1 < chain.length; k++) { tris.push([hole[i], chain[k], chain[k + 1]]); walls.push([chain[k], chain[k + 1]]); }
    tris.push([hole[i], chain[chain.length - 1], hole[(i + 1) % n]]);
    walls.push([hole[(i + 1) % n], hole[i]]);
  }
  let text = `o ${name}\n`;
  // Relative (negative) indices: panels concatenate into one file.
  const face = (pts: number[][]) => {
    for (const p of pts) text += `v ${p[0] + dx} ${p[1]} ${p[2]}\n`;
    text += `f ${pts.map((_, k) => k - pts.length).join(' ')}\n`;
  };
  const up = (t: number[][]) => ((t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[1][1] - t[0][1]) * (t[2][0] - t[0][0]) > 0 ? t : [t[0], t[2], t[1]]);
  for (const t of tris) {
    const u = up(t);
    face(u.map((p) => [p[0], p[1], T]));
    face([...u].reverse().map((p) => [p[0], p[1], 0]));
  }
  for (const [a, b] of walls) face([[a[0], a[1], 0], [b[0], b[1], 0], [b[0], b[1], T], [a[0], a[1], T]]);
  return text;
}

describe('dedupe with drilling', () => {
  it('drilled parts dedupe under the turns of the box, and a different hole position does not', async () => {
    // B is A turned 180 degrees in its plane; C is A turned over (a plain through hole looks the
    // same from both faces, so A's mirror image is this very part); D has its hole elsewhere.
    const text = drilledPanel('A', 300, 200, 18, 60, 50, 8)
      + drilledPanel('B', 300, 200, 18, 240, 150, 8, 1000)
      + drilledPanel('C', 300, 200, 18, 240, 50, 8, 2000)
      + drilledPanel('D', 300, 200, 18, 150, 100, 8, 3000);
    const bytes = new TextEncoder().encode(text);
    const plain = await analyse(bytes);
    expect(plain.parts.map((p) => [p.name, p.q])).toEqual([['A', 3], ['D', 1]]);
    expect(plain.parts[0].machining!.holes).toHaveLength(1);
    expect(plain.parts[0].machining!.holes[0]).toMatchObject({ diameter: 8, type: 'regular', face: 0 });
    expect(plain.parts[0].machining!.holes[0].depth).toBeUndefined();
    expect(plain.parts.every((p) => p.role === 'rect')).toBe(true);
    const mirrored = await analyse(bytes, { mirrorDedupe: true });
    expect(mirrored.parts.map((p) => p.q)).toEqual([3, 1]);
  });

  it('a 35 mm bore is a hinge hole; holes=cut turns it into a ring and the part stays rect', async () => {
    const bytes = new TextEncoder().encode(drilledPanel('Door', 500, 300, 18, 100, 22.5, 35));
    const drilled = await analyse(bytes);
    expect(drilled.parts[0].machining!.holes[0]).toMatchObject({ type: 'hinge', face: 0 });
    expect(drilled.parts[0].machining!.holes[0].diameter).toBeCloseTo(35, 1);
    const cut = await analyse(bytes, { holesCut: true });
    expect(cut.parts[0]).toMatchObject({ role: 'rect', outline: expect.any(Array) });
    expect(cut.parts[0].holes).toHaveLength(1);
    expect(cut.parts[0].holes![0].length).toBe(32);
    expect(cut.parts[0].machining).toBeUndefined();
  });
});

describe('advice on meshes that are not panels', () => {
  it('a tapered panel: not-flat-panel and dimensions-approximate', async () => {
    // 400 x 300, 10 mm thick at one end and 30 at the other.
    const v = [[0, 0, 0], [400, 0, 0], [400, 300, 0], [0, 300, 0], [0, 0, 10], [400, 0, 30], [400, 300, 30], [0, 300, 10]];
    const quads = [[1, 4, 3, 2], [5, 6, 7, 8], [1, 2, 6, 5], [2, 3, 7, 6], [3, 4, 8, 7], [4, 1, 5, 8]];
    const text = `o Wedge\n${v.map((p) => `v ${p.join(' ')}`).join('\n')}\n${quads.map((q) => `f ${q.join(' ')}`).join('\n')}\n`;
    const r = await analyse(new TextEncoder().encode(text));
    const codes = r.advice.map((a) => a.code);
    expect(codes).toContain('not-flat-panel');
    expect(codes).toContain('dimensions-approximate');
    expect(r.model.stats.unrecognised).toBe(1);
  });

  it('a dense curved surface: model-too-heavy, scanned-mesh-file, and a fitting', async () => {
    // A UV sphere of 600,000 triangles, as a binary STL.
    const rings = 500, segments = 600;
    const tris: number[] = [];
    const p = (i: number, j: number) => {
      const th = (Math.PI * i) / rings, ph = (2 * Math.PI * j) / segments;
      return [100 * Math.sin(th) * Math.cos(ph), 100 * Math.sin(th) * Math.sin(ph), 100 * Math.cos(th)];
    };
    for (let i = 0; i < rings; i++) for (let j = 0; j < segments; j++) {
      tris.push(...p(i, j), ...p(i + 1, j), ...p(i + 1, j + 1), ...p(i, j), ...p(i + 1, j + 1), ...p(i, j + 1));
    }
    const n = tris.length / 9;
    const buf = Buffer.alloc(84 + 50 * n);
    buf.writeUInt32LE(n, 80);
    for (let t = 0; t < n; t++) for (let k = 0; k < 9; k++) buf.writeFloatLE(tris[t * 9 + k], 84 + t * 50 + 12 + k * 4);
    const outcome = await runAnalysis({
      kind: 'analysis', bytes: new Uint8Array(buf), filename: 'scan.stl', budgetMs: 20_000,
      options: { units: 'mm', dedupe: true, mirrorDedupe: false, holesCut: false },
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const codes = outcome.response.advice.map((a) => a.code);
    expect(codes).toEqual(expect.arrayContaining(['model-too-heavy', 'scanned-mesh-file', 'fixture-detected']));
    expect(outcome.response.advice.find((a) => a.code === 'scanned-mesh-file')!.severity).toBe('error');
  });
});
