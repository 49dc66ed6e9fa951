// Scores an analysis response against a scene's truth: panel rows (L/W/T within 0.1 mm, q and
// role right), fitting pieces (all found as fixtures, and no panel among them), holes (centre
// within 0.1 mm, diameter, face, depth and type, under the turns the analysis may choose) and
// units. Counts, not ratios, so many scenes add up.
import { framings, type TrueHole, type TrueRow, type Truth } from './scene.js';

export interface AnalysedPart {
  l: number; w: number; t: number; q: number; role: string; name?: string;
  machining?: { holes: { x: number; y: number; diameter: number; face: number; depth?: number; type: string }[] };
}
export interface AnalysedModel { model: { sourceUnits: string }; parts: AnalysedPart[]; advice: { code: string }[] }

export interface Score {
  rows: number; rowsRight: number; extraRows: number;
  fittings: number; fittingsRight: number;
  /** Panels reported as fixtures (never allowed). */
  panelsAsFixtures: number;
  holes: number; holesRight: number; extraHoles: number;
  units: number; unitsRight: number;
  problems: string[];
}

export const emptyScore = (): Score => ({ rows: 0, rowsRight: 0, extraRows: 0, fittings: 0, fittingsRight: 0, panelsAsFixtures: 0, holes: 0, holesRight: 0, extraHoles: 0, units: 0, unitsRight: 0, problems: [] });

export function addScore(into: Score, s: Score): void {
  for (const k of Object.keys(into) as (keyof Score)[]) if (k !== 'problems') (into[k] as number) += s[k] as number;
  into.problems.push(...s.problems);
}

const near = (a: number, b: number, tol = 0.1) => Math.abs(a - b) <= tol + 1e-9;
const sameSize = (p: AnalysedPart, r: { l: number; w: number; t: number }) => near(p.l, r.l) && near(p.w, r.w) && near(p.t, r.t);

function holeMatches(h: TrueHole, p: NonNullable<AnalysedPart['machining']>['holes'][number]): boolean {
  return h.face === p.face && near(h.x, p.x) && near(h.y, p.y) && near(h.diameter, p.diameter)
    && (h.depth === null ? p.depth === undefined : p.depth !== undefined && near(h.depth, p.depth)) && h.type === p.type;
}

/** Holes of a row matched under the best of the turns; returns [right, extra]. */
function scoreHoles(row: TrueRow, part: AnalysedPart): [number, number] {
  const found = part.machining?.holes ?? [];
  let best = -1, bestExtra = 0;
  for (const truth of framings(row.holes, row.l, row.w, row.t)) {
    const left = [...found];
    let right = 0;
    for (const h of truth) {
      const i = left.findIndex((p) => holeMatches(h, p));
      if (i >= 0) { right++; left.splice(i, 1); }
    }
    if (right > best) { best = right; bestExtra = left.length; }
  }
  return [best, bestExtra];
}

export function scoreAnalysis(truth: Truth, structured: boolean, reply: AnalysedModel, label: string): Score {
  const s = emptyScore();
  s.units = 1;
  if (reply.model.sourceUnits === truth.unit) s.unitsRight = 1;
  else s.problems.push(`${label}: sourceUnits ${reply.model.sourceUnits}, expected ${truth.unit}`);
  const panels = reply.parts.filter((p) => p.role !== 'fixture');
  const fixtures = reply.parts.filter((p) => p.role === 'fixture');
  const left = [...panels];
  for (const row of truth.rows) {
    s.rows++;
    s.holes += row.holes.length;
    const i = left.findIndex((p) => sameSize(p, row) && p.q === row.q && p.role === row.role);
    if (i >= 0) {
      const part = left.splice(i, 1)[0];
      s.rowsRight++;
      const [right, extra] = scoreHoles(row, part);
      s.holesRight += right;
      s.extraHoles += extra;
      if (right < row.holes.length || extra > 0) s.problems.push(`${label}: ${row.l}x${row.w}x${row.t} (${row.names[0] ?? ''}) holes ${right}/${row.holes.length} right, ${extra} extra: ${JSON.stringify(part.machining?.holes ?? [])} vs ${JSON.stringify(row.holes)}`);
      continue;
    }
    const asFixture = fixtures.find((p) => sameSize(p, row));
    if (asFixture) s.panelsAsFixtures++;
    const similar = panels.filter((p) => sameSize(p, row));
    s.problems.push(`${label}: row ${row.l}x${row.w}x${row.t} q${row.q} ${row.role} (${row.names.join(', ')}) not found${asFixture ? ` (called a fixture: ${JSON.stringify(asFixture)})` : ''}${similar.length ? `; same size: ${JSON.stringify(similar.map((p) => [p.q, p.role]))}` : ''}`);
  }
  s.extraRows = left.length;
  for (const p of left) s.problems.push(`${label}: extra row ${p.l}x${p.w}x${p.t} q${p.q} ${p.role} "${p.name ?? ''}"`);
  // Fittings: every piece a fixture (pieces: items with structure, solids in soups).
  const expected = structured ? truth.fittingItems : truth.fittingSolids;
  const got = fixtures.reduce((n, p) => n + p.q, 0);
  s.fittings = expected;
  s.fittingsRight = Math.max(0, expected - Math.abs(expected - got));
  if (got !== expected) s.problems.push(`${label}: ${got} fixture pieces, expected ${expected}`);
  return s;
}

export function pct(right: number, total: number): string {
  return total === 0 ? '-' : `${((100 * right) / total).toFixed(1)} %`;
}
