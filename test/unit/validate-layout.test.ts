import { describe, expect, it } from 'vitest';
import { validateLayout } from '../support/validate-layout.js';

/*
 * Hand-built fixture: a 100x50 sheet, blade 2, trim 5 on every side, so the
 * usable region is x [5,95], y [5,45]. Two-stage layout, first cuts along l:
 *
 *   y=45 +------------------------------------------+
 *        | B (18x30 turned) |   offcut 58x18        |   strip 2: y [27,45]
 *   y=27 +------------------+-----------------------+
 *        |     kerf y [25,27]                       |
 *   y=25 +----------------+-+-----------------+-+---+
 *        | A 40x20        | | A 40x20         | |   |   strip 1: y [5,25]
 *   y=5  +----------------+-+-----------------+-+---+
 *        x=5             45 47               87 89  95
 *
 * Part row 2 (200x10) fits nowhere and is reported in unusableParts.
 */

type Json = any; // fixtures are plain JSON mutated freely in tests

function cut(order: number, dimension: 'l' | 'w', position: number, from: number, to: number, isTrim = false, stockId = '0.0'): Json {
  // 'l' cuts run parallel to x at y = position; 'w' cuts parallel to y at x = position.
  const [x1, y1, x2, y2] = dimension === 'l' ? [from, position, to, position] : [position, from, position, to];
  return { x1, y1, x2, y2, dimension, position, isTrim, order, stock: { id: stockId } };
}

function fixture(stack = 1): { request: Json; result: Json } {
  const request = {
    saw: { stockType: 'sheet', cutType: 'guillotine', bladeWidth: 2, cutPreference: 'l', guillotineOptions: { maxPhase: 2 } },
    stock: [
      { l: 100, w: 50, t: 18, q: stack, material: 'Oak', grain: 'l', trim: { l1: 5, l2: 5, w1: 5, w2: 5 } },
      { l: 80, w: 80, material: 'pine' },
    ],
    parts: [
      { l: 40, w: 20, t: '18', q: 2 * stack, name: 'A', material: 'oak', grain: 'l' },
      { l: 18, w: 30, q: stack, name: 'B', material: 'OAK', orientationLock: 'l' },
      { l: 200, w: 10, q: 1, name: 'C', material: 'oak' },
    ],
  };
  const places = [
    { row: 0, x: 5, y: 5, rot: 0 },
    { row: 0, x: 47, y: 5, rot: 0 },
    { row: 1, x: 5, y: 27, rot: 1 },
  ];
  const copies = [0, 0, 0];
  const parts: Json[] = [];
  for (let s = 0; s < stack; s++) {
    for (const p of places) {
      const row = request.parts[p.row];
      parts.push({ id: `${p.row}.${copies[p.row]++}`, name: row.name, l: row.l, w: row.w, t: 18, material: 'oak', x: p.x, y: p.y, rot: p.rot, added: true, stock: { id: '0.0' } });
    }
  }
  parts.push({ id: '2.0', name: 'C', l: 200, w: 10, t: 0, material: 'oak', x: 0, y: 0, rot: 0, added: false, stock: null });

  const cuts = [
    cut(1, 'l', 5, 0, 100, true), // trim l1: keeps y [5,50]
    cut(2, 'l', 45, 0, 100, true), // trim l2: keeps y [5,45]
    cut(3, 'w', 5, 5, 45, true), // trim w1: keeps x [5,100]
    cut(4, 'w', 95, 5, 45, true), // trim w2: keeps x [5,95]
    cut(5, 'l', 25, 5, 95), // stage 1: strip 1 | strip 2
    cut(6, 'w', 45, 5, 25), // stage 2: A | rest of strip 1
    cut(7, 'w', 87, 5, 25), // stage 2: A | waste 6x20
    cut(8, 'w', 35, 27, 45), // stage 2: B | offcut
  ];
  const result = {
    jobId: 'job-1',
    saw: request.saw,
    stock: [
      { id: '0.0', l: 100, w: 50, t: 18, material: 'oak', grain: 'l', type: 'sheet', used: true, trim: { l1: 5, l2: 5, w1: 5, w2: 5 }, cost: 0, stack, analysis: {} },
      { id: '1.0', l: 80, w: 80, t: 0, material: 'pine', grain: '', type: 'sheet', used: false, trim: { l1: 0, l2: 0, w1: 0, w2: 0 }, cost: 0, stack: 1, analysis: {} },
    ],
    parts,
    cuts,
    offcuts: [{ id: '0', l: 58, w: 18, x: 37, y: 27, q: stack, material: 'oak', stock: { id: '0.0' } }],
    unusableParts: [
      { id: '2', l: 200, w: 10, q: 1, issues: [{ message: 'part is larger than every stock', type: 'error', category: 'size', field: 'l' }] },
    ],
    metadata: {
      totalPartsProduced: 3 * stack,
      totalUsedStock: stack,
      totalPartArea: (800 + 800 + 540) * stack,
      totalStockUsedArea: 5000 * stack,
      totalEfficiency: 2140 / 5000,
      totalCuts: 8 * stack,
      unplacedParts: [{ id: '2', count: 1 }],
    },
  };
  return { request, result };
}

const part = (f: { result: Json }, id: string): Json => f.result.parts.find((p: Json) => p.id === id);
const cutNo = (f: { result: Json }, order: number): Json => f.result.cuts.find((c: Json) => c.order === order);

/** Asserts that some violation matches `re`, showing all violations on failure. */
function expectViolation(f: { request: Json; result: Json }, re: RegExp): string[] {
  const v = validateLayout(f.request, f.result);
  expect(v.some((m) => re.test(m)), `no violation matches ${re}; got:\n${v.join('\n')}`).toBe(true);
  return v;
}

describe('validateLayout: correct layouts', () => {
  it('accepts the hand-built two-stage layout with trims', () => {
    const f = fixture();
    expect(validateLayout(f.request, f.result)).toEqual([]);
  });

  it('accepts a stacked entry (2 identical sheets) when stock quantity allows it', () => {
    const f = fixture(2);
    expect(validateLayout(f.request, f.result)).toEqual([]);
  });

  it('coerces numeric strings in the request', () => {
    const f = fixture();
    f.request.saw.bladeWidth = '2';
    f.request.saw.guillotineOptions.maxPhase = '2';
    Object.assign(f.request.stock[0], { l: '100', w: '50', t: '18', q: '1' });
    f.request.stock[0].trim = { l1: '5', l2: '5', w1: '5', w2: '5' };
    Object.assign(f.request.parts[0], { l: '40', w: '20', q: '2' });
    expect(validateLayout(f.request, f.result)).toEqual([]);
  });

  it('accepts a head cut in the other direction when headCuts is on', () => {
    const f = fixture();
    f.request.saw.cutPreference = 'w';
    f.request.saw.guillotineOptions.headCuts = true;
    expect(validateLayout(f.request, f.result)).toEqual([]);
  });

  it('allows a cut at maxPhase + 1 that only frees one part from waste', () => {
    const f = fixture();
    // Cuts 7 and 8 trim A and B from waste; cut 6 separates two parts, so stays a violation.
    f.request.saw.guillotineOptions.maxPhase = 1;
    expect(validateLayout(f.request, f.result)).toEqual(['stock 0.0 cut #6: stage 2 exceeds maxPhase 1 (it separates parts)']);
  });
});

describe('validateLayout: defects', () => {
  it('overlap', () => {
    const f = fixture();
    part(f, '0.1').x = 30;
    expectViolation(f, /parts 0\.0 and 0\.1 on stock 0\.0 overlap/);
  });

  it('part outside the usable area (inside the trim)', () => {
    const f = fixture();
    part(f, '0.0').x = 2;
    expectViolation(f, /part 0\.0 .* outside the usable area/);
  });

  it('kerf gap missing', () => {
    const f = fixture();
    part(f, '0.1').x = 46; // 1 from part 0.0, blade is 2
    expectViolation(f, /parts 0\.0 and 0\.1 on stock 0\.0 are closer than the kerf/);
  });

  it('cut that is not edge to edge of an existing piece', () => {
    const f = fixture();
    cutNo(f, 6).y2 = 45; // runs on through the kerf and strip 2
    expectViolation(f, /cut #6: .*does not run edge to edge/);
  });

  it('cut order wrong: a cut before the cut that creates its piece', () => {
    const f = fixture();
    cutNo(f, 5).order = 6;
    f.result.cuts[5].order = 5; // the stage-2 cut now comes first
    expectViolation(f, /cut #5: out of order.*cut order wrong/);
  });

  it('cut order wrong: a trim after a non-trim cut', () => {
    const f = fixture();
    cutNo(f, 4).order = 5;
    f.result.cuts[4].order = 4;
    expectViolation(f, /cut #5: trim cut comes after a non-trim cut/);
  });

  it('cut order wrong: orders not 1..n', () => {
    const f = fixture();
    cutNo(f, 8).order = 7;
    expectViolation(f, /cut orders are 1,2,3,4,5,6,7,7, expected 1\.\.8/);
  });

  it('missing trim cut leaves the sheet bigger than the usable region', () => {
    const f = fixture();
    f.result.cuts = f.result.cuts.filter((c: Json) => c.order !== 4);
    f.result.cuts.forEach((c: Json, i: number) => (c.order = i + 1));
    f.result.metadata.totalCuts = 7;
    expectViolation(f, /after the trim cuts the sheet is .* expected the usable region/);
  });

  it('part not cut to size (a final piece is larger than the part)', () => {
    const f = fixture();
    f.result.cuts = f.result.cuts.filter((c: Json) => c.order !== 7);
    f.result.cuts.forEach((c: Json, i: number) => (c.order = i + 1));
    f.result.metadata.totalCuts = 7;
    expectViolation(f, /part 0\.1 .* does not coincide with a final piece/);
  });

  it('rotation lock broken', () => {
    const f = fixture();
    f.request.parts[1].orientationLock = 'w'; // B lies with its longer side along x
    expectViolation(f, /part 1\.0 on stock 0\.0: rotation breaks orientationLock "w"/);
  });

  it('grain broken', () => {
    const f = fixture();
    f.request.stock[0].grain = 'w'; // A's grain (longer side) runs along x
    expectViolation(f, /part 0\.0 on stock 0\.0: rotation breaks grain/);
  });

  it('part on the wrong material', () => {
    const f = fixture();
    f.request.parts[0].material = 'pine';
    expectViolation(f, /part 0\.0: material "pine" placed on stock 0\.0 of material "oak"/);
  });

  it('part on the wrong thickness', () => {
    const f = fixture();
    f.request.parts[0].t = 12;
    expectViolation(f, /part 0\.0: thickness 12 placed on stock 0\.0 of thickness 18/);
  });

  it('too many stages', () => {
    const f = fixture();
    f.request.saw.guillotineOptions.maxPhase = 1;
    expectViolation(f, /cut #6: stage 2 exceeds maxPhase 1/);
  });

  it('first cut in the wrong direction costs a stage and breaks the stage limit', () => {
    const f = fixture();
    f.request.saw.cutPreference = 'w';
    expectViolation(f, /cut #\d+: stage 3 exceeds maxPhase 2/);
  });

  it('a part missing from parts[]', () => {
    const f = fixture();
    f.result.parts = f.result.parts.filter((p: Json) => p.id !== '0.1');
    expectViolation(f, /part row 0: parts\[\] holds 1 instance\(s\), expected 2/);
  });

  it('an unplaced part not accounted for in unusableParts', () => {
    const f = fixture();
    f.result.unusableParts = [];
    expectViolation(f, /part row 2: 1 instance\(s\) not added but unusableParts accounts for 0/);
  });

  it('stock quantity exceeded', () => {
    const f = fixture(2);
    f.request.stock[0].q = 1;
    expect(validateLayout(f.request, f.result)).toEqual(['stock row 0: 2 sheet(s) used but the request has quantity 1']);
  });

  it('a stacked placement not repeated stack times', () => {
    const f = fixture(2);
    f.result.parts = f.result.parts.filter((p: Json) => p.id !== '0.3');
    expectViolation(f, /stock 0\.0: position .* holds 1 part instance\(s\) \(0\.1\), expected stack 2/);
  });

  it('an offcut that covers a part or is not a final piece', () => {
    const f = fixture();
    f.result.offcuts.push({ id: '1', l: 40, w: 20, x: 5, y: 5, q: 1, stock: { id: '0.0' } });
    f.result.offcuts.push({ id: '2', l: 50, w: 18, x: 37, y: 27, q: 1, stock: { id: '0.0' } });
    expectViolation(f, /offcut 1 .* covers a part/);
    expectViolation(f, /offcut 2 .* is not a final piece/);
  });

  it('metadata totals wrong', () => {
    const f = fixture();
    f.result.metadata.totalPartArea = 2000;
    f.result.metadata.totalEfficiency = 42.8; // a percentage, not a fraction
    f.result.metadata.totalCuts = 4; // trims forgotten
    expectViolation(f, /metadata\.totalPartArea is 2000, the layout gives 2140/);
    expectViolation(f, /metadata\.totalEfficiency is 42\.8, the layout gives 0\.428/);
    expectViolation(f, /metadata\.totalCuts is 4, the layout gives 8/);
  });
});

/** The fixture as a free (cutType efficiency) layout: same parts, no cuts, minSpacing 3. */
function freeFixture(): { request: Json; result: Json } {
  const f = fixture();
  f.request.saw.cutType = 'efficiency';
  f.request.saw.options = { minSpacing: 3 };
  // Spacing 3 (more than the blade): A at x 5 and 48, B above them (a thinner top trim makes
  // room); offcut right of B.
  f.request.stock[0].trim.l2 = 3;
  f.result.stock[0].trim.l2 = 3;
  part(f, '0.1').x = 48;
  part(f, '1.0').y = 28;
  f.result.cuts = [];
  f.result.metadata.totalCuts = 0;
  f.result.offcuts = [{ id: '0', l: 57, w: 15, x: 38, y: 30, q: 1, material: 'oak', stock: { id: '0.0' } }];
  return f;
}

describe('validateLayout: free layouts (cutType efficiency)', () => {
  it('accepts parts anywhere a tool width apart, no cuts, offcuts clear of the parts', () => {
    const f = freeFixture();
    expect(validateLayout(f.request, f.result)).toEqual([]);
    // Not guillotine-separable: a part in the middle of the free space is still fine.
    part(f, '1.0').x = 60;
    f.result.offcuts = [];
    expect(validateLayout(f.request, f.result)).toEqual([]);
  });

  it('parts closer than minSpacing', () => {
    const f = freeFixture();
    part(f, '0.1').x = 47; // 2 from part 0.0: enough for the blade, not for minSpacing 3
    expectViolation(f, /parts 0\.0 and 0\.1 on stock 0\.0 are closer than the kerf \(blade 3\)/);
  });

  it('a cut listed for a free layout', () => {
    const f = freeFixture();
    f.result.cuts = [cut(1, 'l', 25, 5, 95)];
    f.result.metadata.totalCuts = 1;
    expectViolation(f, /free \(efficiency\) layout lists 1 cut/);
  });

  it('an offcut within the kerf of a part, outside the sheet or overlapping another', () => {
    const f = freeFixture();
    f.result.offcuts.push({ id: '1', l: 10, w: 10, x: 46, y: 5, q: 1, stock: { id: '0.0' } });
    f.result.offcuts.push({ id: '2', l: 10, w: 10, x: 90, y: 30, q: 1, stock: { id: '0.0' } });
    f.result.offcuts.push({ id: '3', l: 10, w: 10, x: 40, y: 32, q: 1, stock: { id: '0.0' } });
    expectViolation(f, /offcut 1 .* within the kerf of part 0\.0/);
    expectViolation(f, /offcut 2 .* outside the usable area/);
    expectViolation(f, /offcut 3 .* overlaps offcut/);
  });
});
