// Representative jobs for the exports, used by the export tests and by `make render-exports`:
// a cabinet with drilling on every face and banding in every notation, shaped parts to nest,
// bars of linear stock, a roll, and part names in several scripts.
import shapes from '../fixtures/nesting/shapes.json' with { type: 'json' };

export const EXPORT_JOBS = {
  /** Sheets with drilling on both faces and into edges, hinge cups, banding (true, a type, {type, thickness}, legacy x/y names). */
  cabinet: {
    saw: { bladeWidth: 4, cutType: 'guillotine', stockType: 'sheet', cutPreference: 'l' },
    stock: [{ l: 2800, w: 2070, t: 18, material: 'Oak', q: 10, grain: 'l', trim: { l1: 10, l2: 10, w1: 10, w2: 10 } }],
    parts: [
      {
        l: 720, w: 560, t: 18, q: 4, name: 'side', material: 'Oak', grain: 'l',
        extras: { banding: { sides: { l1: { type: 'ABS', thickness: 2 }, l2: 'ABS 0.8' } } },
        machining: {
          holes: [
            { x: 37, y: 100, diameter: 5, depth: 12, face: 0, type: 'shelf' }, { x: 37, y: 132, diameter: 5, depth: 12, face: 0, type: 'shelf' },
            { x: 683, y: 100, diameter: 5, depth: 12, face: 1, type: 'shelf' }, { x: 683, y: 132, diameter: 5, depth: 12, face: 1, type: 'shelf' },
            { x: 280, y: 9, diameter: 8, depth: 30, face: 2, type: 'regular' }, { x: 280, y: 9, diameter: 8, depth: 30, face: 4, type: 'regular' },
          ],
        },
      },
      {
        l: 716, w: 396, t: 18, q: 4, name: 'door', material: 'Oak', grain: 'l',
        extras: { banding: { sides: { l1: true, l2: true, w1: true, w2: true } } },
        machining: { hingeHoles: [{ x: 100, y: 198, diameter: 35, depth: 13 }, { x: 616, y: 198, diameter: 35, depth: 13 }] },
      },
      { l: 764, w: 560, t: 18, q: 4, name: 'bottom', material: 'Oak', extras: { banding: { x1: 'PVC', y2: 'PVC' } } },
      { l: 764, w: 100, t: 18, q: 8, name: 'rail', material: 'Oak' },
      { l: 740, w: 520, t: 18, q: 3, name: 'shelf', material: 'Oak', extras: { banding: { sides: { l2: 'ABS 2' } } } },
    ],
  },
  /** True shapes: L shapes, triangles and frames, whole-number sizes. */
  nesting: {
    saw: { bladeWidth: 4, cutType: 'nesting', stockType: 'sheet', options: { seed: 1 }, nestingOptions: { searchTime: 2 } },
    stock: [{ l: 1200, w: 800 }],
    parts: [
      { l: 300, w: 200, q: 4, name: 'L bracket', outline: shapes.lShape },
      { l: 240, w: 160, q: 5, name: 'gusset', outline: shapes.triangle },
      { l: 200, w: 200, q: 2, name: 'frame', outline: shapes.frame.outline, holes: shapes.frame.holes },
    ],
  },
  /** Bars: enough patterns for several pages of one bar each, as the PDF used to print them. */
  linear: {
    saw: { bladeWidth: 3, stockType: 'linear' },
    stock: [{ l: 6000, w: 40, material: 'alu', trim: { l1: 10, l2: 10 } }],
    parts: [
      { l: 2500, w: 40, q: 5, name: 'post', material: 'alu' }, { l: 1830, w: 40, q: 7, name: 'rail', material: 'alu' },
      { l: 1170, w: 40, q: 9, name: 'brace', material: 'alu' }, { l: 640, w: 40, q: 11, name: 'stub', material: 'alu' },
    ],
  },
  roll: {
    saw: { bladeWidth: 0, stockType: 'roll' },
    stock: [{ l: 50000, w: 1370, material: 'vinyl' }],
    parts: [{ l: 900, w: 600, q: 5, name: 'panel', material: 'vinyl' }, { l: 1200, w: 400, q: 4, name: 'strip', material: 'vinyl' }, { l: 500, w: 500, q: 6, name: 'tile', material: 'vinyl' }],
  },
  /** Names in Polish, German, Greek, Russian, Chinese and Japanese, two that shorten to the same code. */
  names: {
    saw: { bladeWidth: 3.2 },
    stock: [{ l: 2440, w: 1220, t: 18, material: 'Płyta MDF', trim: { l1: 5, l2: 5, w1: 5, w2: 5 } }],
    parts: [
      { l: 600, w: 400, q: 2, name: 'półka łączona', material: 'Płyta MDF' },
      { l: 700, w: 350, q: 2, name: 'Tür links', material: 'Płyta MDF' },
      { l: 500, w: 300, q: 2, name: 'ράφι κουζίνας', material: 'Płyta MDF' },
      { l: 800, w: 450, q: 2, name: 'Шкаф боковина', material: 'Płyta MDF' },
      { l: 450, w: 450, q: 2, name: '书架 側板', material: 'Płyta MDF' },
      { l: 400, w: 250, q: 2, name: 'CABINET SIDE LEFT', material: 'Płyta MDF' },
      { l: 420, w: 250, q: 2, name: 'CABINET SIDE RIGHT', material: 'Płyta MDF' },
    ],
  },
} as const;

export type ExportJobName = keyof typeof EXPORT_JOBS;
