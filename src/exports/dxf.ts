// DXF, ASCII R12 (AC1009), which CAD and CAM programs of every age open. Layers: STOCK (sheet
// outlines), PARTS (part outlines, true shape when nested, inner contours), CUTS (the saw cuts,
// trims included, as the record gives them), OFFCUTS, LABELS (texts: each part's number and
// name where the diagrams print them, its size), DRILLING (front face circles),
// DRILLING_BACK (back face circles, dashed), DRILLING_EDGE (edge bores: a slot from the edge,
// the bore's diameter wide and its depth long), BANDING (a line on each banded edge).
// Sheets lie side by side along x in record order, a tenth of the longest sheet apart; bars of
// linear stock lie one above the other. Each sheet keeps the record's own coordinates, shifted.
// Units: $INSUNITS 4 (millimetres) and $MEASUREMENT 1, since the record carries no units and
// panel work is metric, unless the saw settings say inches (then 1 and 0). R12 has no
// $INSUNITS of its own; readers that know it (R2000 on) use it, older ones ignore it.
import { diagram, drillShape } from './diagram.js';
import { bandingOf, drillsOf, edgeOf, fmt, sheetsOf, SIDES, sizeText, unitsOf, type ExportRecord, type Pt } from './model.js';

/** Name, colour and line type. */
const LAYERS: [string, number, string][] = [['STOCK', 7, 'CONTINUOUS'], ['PARTS', 5, 'CONTINUOUS'], ['CUTS', 1, 'CONTINUOUS'], ['OFFCUTS', 3, 'CONTINUOUS'],
  ['LABELS', 8, 'CONTINUOUS'], ['DRILLING', 6, 'CONTINUOUS'], ['DRILLING_BACK', 4, 'DASHED'], ['DRILLING_EDGE', 140, 'CONTINUOUS'], ['BANDING', 200, 'CONTINUOUS']];

class Dxf {
  private readonly out: string[] = [];
  pair(code: number, value: string | number): void {
    this.out.push(String(code), typeof value === 'number' ? fmt(value) : value);
  }
  pairs(...items: [number, string | number][]): void {
    for (const [c, v] of items) this.pair(c, v);
  }
  text(): string {
    return this.out.length ? `${this.out.join('\r\n')}\r\n` : '';
  }
}

/** DXF text is 8-bit: anything past ASCII goes as AutoCAD's \U+XXXX escape. */
const dxfText = (s: string) => [...s.replace(/[\r\n]+/g, ' ')].map((c) => (c.charCodeAt(0) < 128 ? c : `\\U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)).join('');

export function renderDxf(record: ExportRecord): string {
  const sheets = sheetsOf(record);
  const linear = sheets.some((s) => s.stock.type === 'linear');
  const longest = Math.max(1, ...sheets.map((s) => s.stock.l));
  const widest = Math.max(1, ...sheets.map((s) => s.stock.w));
  const gap = linear ? Math.max(widest * 3, longest / 40) : longest / 10;
  const titleH = Math.max(longest / 120, linear ? widest / 2 : 0);

  const e = new Dxf();
  const poly = (layer: string, points: Pt[], ox: number, oy: number) => {
    e.pairs([0, 'POLYLINE'], [8, layer], [66, 1], [10, 0], [20, 0], [30, 0], [70, 1]);
    for (const p of points) e.pairs([0, 'VERTEX'], [8, layer], [10, p.x + ox], [20, p.y + oy], [30, 0]);
    e.pairs([0, 'SEQEND'], [8, layer]);
  };
  const rect = (layer: string, x: number, y: number, w: number, h: number, ox: number, oy: number) =>
    poly(layer, [{ x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h }], ox, oy);
  const label = (text: string, x: number, y: number, height: number, centred: boolean, angle = 0) => {
    e.pairs([0, 'TEXT'], [8, 'LABELS'], [10, x], [20, y], [30, 0], [40, height], [1, dxfText(text)]);
    if (angle) e.pair(50, angle);
    if (centred) e.pairs([72, 1], [11, x], [21, y], [31, 0], [73, 2]);
  };

  let ox = 0, oy = 0;
  let maxX = 0, maxY = 0;
  for (const sheet of sheets) {
    const { stock } = sheet;
    rect('STOCK', 0, 0, stock.l, stock.w, ox, oy);
    label(`${stock.id}  ${sizeText(stock, ' x ')}${stock.material ? ` ${stock.material}` : ''}  x${stock.stack}`, ox, oy - titleH * 1.8, titleH, false);
    // Part numbers and names where the diagrams put them, sized for a drawing of the longest sheet.
    const texts = diagram(sheet, { minText: longest / 500, maxText: longest / 50 }).shapes
      .flatMap((t) => (t.kind === 'text' && t.of !== undefined ? [t] : []));
    for (const pl of sheet.placements) {
      poly('PARTS', pl.outline, ox, oy);
      for (const hole of pl.holes) poly('PARTS', hole, ox, oy);
      for (const d of drillsOf(pl.part)) {
        const shape = drillShape(d, pl);
        if (shape.kind === 'poly') poly('DRILLING_EDGE', shape.points, ox, oy);
        else e.pairs([0, 'CIRCLE'], [8, d.face === 1 ? 'DRILLING_BACK' : 'DRILLING'], [10, d.at.x + ox], [20, d.at.y + oy], [30, 0], [40, d.diameter / 2]);
      }
      if (!pl.part.placedOutline?.length) {
        const band = bandingOf(pl.part);
        for (const side of SIDES) {
          if (!band[side]) continue;
          const { a, b } = edgeOf(pl.part, side);
          e.pairs([0, 'LINE'], [8, 'BANDING'], [10, a.x + ox], [20, a.y + oy], [30, 0], [11, b.x + ox], [21, b.y + oy], [31, 0]);
        }
      }
      const own = texts.filter((t) => t.of === pl.part.id);
      for (const t of own) label(t.text, ox + t.x, oy + t.y, t.size * 0.72, true, t.angle);
      // Its size under an upright label, when that stays on the part.
      const last = own[own.length - 1];
      if (last?.angle === 0) {
        const h = last.size * 0.4, y = last.y - last.size * 0.5 - h * 1.2;
        if (y - h > pl.y) label(`${fmt(pl.dx)} x ${fmt(pl.dy)}`, ox + last.x, oy + y, h, true);
      }
    }
    for (const o of sheet.offcuts) {
      rect('OFFCUTS', o.x, o.y, o.l, o.w, ox, oy);
      label(`offcut ${fmt(o.l)} x ${fmt(o.w)}`, ox + o.x + o.l / 2, oy + o.y + o.w / 2, Math.min(o.w * 0.15, o.l / 20, longest / 80), true);
    }
    for (const c of sheet.cuts) e.pairs([0, 'LINE'], [8, 'CUTS'], [10, c.x1 + ox], [20, c.y1 + oy], [30, 0], [11, c.x2 + ox], [21, c.y2 + oy], [31, 0]);
    maxX = Math.max(maxX, ox + stock.l);
    maxY = Math.max(maxY, oy + stock.w);
    if (linear) oy += stock.w + gap;
    else ox += stock.l + gap;
  }

  const inches = unitsOf(record) === 'in';
  const d = new Dxf();
  d.pairs([0, 'SECTION'], [2, 'HEADER'], [9, '$ACADVER'], [1, 'AC1009'], [9, '$INSBASE'], [10, 0], [20, 0], [30, 0],
    [9, '$EXTMIN'], [10, 0], [20, -titleH * 2.5], [30, 0], [9, '$EXTMAX'], [10, maxX], [20, maxY], [30, 0],
    [9, '$INSUNITS'], [70, inches ? 1 : 4], [9, '$MEASUREMENT'], [70, inches ? 0 : 1], [0, 'ENDSEC']);
  d.pairs([0, 'SECTION'], [2, 'TABLES'],
    [0, 'TABLE'], [2, 'LTYPE'], [70, 2], [0, 'LTYPE'], [2, 'CONTINUOUS'], [70, 0], [3, 'Solid line'], [72, 65], [73, 0], [40, 0],
    [0, 'LTYPE'], [2, 'DASHED'], [70, 0], [3, 'Dashed __ __ __'], [72, 65], [73, 2], [40, 3], [49, 2], [49, -1], [0, 'ENDTAB'],
    [0, 'TABLE'], [2, 'LAYER'], [70, LAYERS.length + 1]);
  for (const [name, colour, type] of [['0', 7, 'CONTINUOUS'] as [string, number, string], ...LAYERS]) d.pairs([0, 'LAYER'], [2, name], [70, 0], [62, colour], [6, type]);
  d.pairs([0, 'ENDTAB'],
    [0, 'TABLE'], [2, 'STYLE'], [70, 1], [0, 'STYLE'], [2, 'STANDARD'], [70, 0], [40, 0], [41, 1], [50, 0], [71, 0], [42, 2.5], [3, 'txt'], [4, ''], [0, 'ENDTAB'],
    [0, 'ENDSEC'], [0, 'SECTION'], [2, 'BLOCKS'], [0, 'ENDSEC'], [0, 'SECTION'], [2, 'ENTITIES']);
  return `${d.text()}${e.text()}0\r\nENDSEC\r\n0\r\nEOF\r\n`;
}
