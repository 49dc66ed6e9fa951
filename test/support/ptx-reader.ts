/**
 * An independent PTX (Pattern Exchange) reader for the tests. It imports nothing from src/:
 * it reads the records the way a saw's import does, then walks each pattern's CUTS phase by
 * phase, cutting pieces off the board, and reports where every part and offcut lands.
 *
 * Reading rules (ptx-format.md and the writer's documented conventions):
 * - CSV lines, first token the record type; quoted fields may hold commas; missing trailing
 *   fields are empty.
 * - FUNCTION n < 90 is phase n; 90 + n is a waste or trim cut of phase n.
 * - PATTERNS.TYPE 0: phase 1 cuts run along the board's length (pieces taken from the top
 *   edge down); TYPE 1: phase 1 runs across (pieces taken from the left). TYPE 2 and 3 start
 *   with a head layer, phase 0, across the width (2) or along the length (3), then rip.
 *   Phases alternate.
 * - A row frees DIMENSION, then the kerf (MATERIALS.KERF_RIP along the length, KERF_XCT
 *   across); QTY_RPT repeats it and the rows nested under it; QTY_RPT 0 frees the piece with
 *   no cut of its own (no kerf after it).
 * - PART_INDEX 0 none, n a PARTS_REQ row, Xn an OFFCUTS row.
 * Landings are reported in bottom-left coordinates (x right, y up), like the result record.
 */

export interface PtxFile {
  version: string;
  units: number;
  records: Map<string, string[][]>;
}

export interface Landing {
  kind: 'part' | 'offcut';
  index: number;
  x: number;
  y: number;
  dx: number;
  dy: number;
}

export interface PatternReading {
  pattern: number;
  board: number;
  type: number;
  qtyRun: number;
  qtyCycles: number;
  length: number;
  width: number;
  landings: Landing[];
  /** Sum of QTY_PARTS per PARTS_REQ index. */
  qtyParts: Map<number, number>;
  cutsMade: number;
}

export function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

export function parsePtx(text: string): PtxFile {
  const records = new Map<string, string[][]>();
  for (const raw of text.split(/\r?\n/)) {
    if (raw.trim() === '') continue;
    const [type, ...fields] = splitCsvLine(raw);
    const list = records.get(type) ?? [];
    list.push(fields);
    records.set(type, list);
  }
  const header = records.get('HEADER')?.[0] ?? [];
  return { version: header[0] ?? '', units: Number(header[2] ?? 0), records };
}

const num = (s: string | undefined) => (s === undefined || s === '' ? 0 : Number(s));

/** Walks every pattern's cut program; throws on a program that does not add up. */
export function readPatterns(file: PtxFile): PatternReading[] {
  const boards = new Map((file.records.get('BOARDS') ?? []).map((f) => [num(f[1]), { mat: num(f[3]), length: num(f[4]), width: num(f[5]) }]));
  const materials = new Map((file.records.get('MATERIALS') ?? []).map((f) => [num(f[1]), { rip: num(f[6]), xct: num(f[7]) }]));
  const cuts = file.records.get('CUTS') ?? [];
  const out: PatternReading[] = [];
  for (const p of file.records.get('PATTERNS') ?? []) {
    const pattern = num(p[1]);
    const board = boards.get(num(p[2]));
    if (!board) throw new Error(`pattern ${pattern}: no board ${p[2]}`);
    const mat = materials.get(board.mat) ?? { rip: 0, xct: 0 };
    const type = num(p[3]);
    const rows = cuts.filter((c) => num(c[1]) === pattern).sort((a, b) => num(a[2]) - num(b[2]));
    rows.forEach((r, i) => {
      if (num(r[2]) !== i + 1) throw new Error(`pattern ${pattern}: CUT_INDEX ${r[2]} out of sequence`);
    });
    const reading: PatternReading = {
      pattern, board: num(p[2]), type, qtyRun: num(p[4]), qtyCycles: num(p[5]),
      length: board.length, width: board.width, landings: [], qtyParts: new Map(), cutsMade: 0,
    };
    // Pieces in top-left coordinates: left, top, width (along x), height (along y, down).
    interface Piece { left: number; top: number; w: number; h: number }
    const phaseOf = (r: string[]) => { const f = num(r[4]); return f >= 90 ? f - 90 : f; };
    // Odd phases take pieces from the top for TYPE 0 and 2 (rips along the length), from the left for 1 and 3.
    const fromTop = (phase: number) => (phase % 2 === 1) === (type === 0 || type === 2);
    const firstPhase = type === 2 || type === 3 ? 0 : 1;

    const counted = new Set<string[]>();
    const level = (piece: Piece, phase: number, start: number): number => {
      let i = start;
      let pos = 0;
      const extent = fromTop(phase) ? piece.h : piece.w;
      const kerf = phase % 2 === 1 ? mat.rip : mat.xct; // rips are the odd phases
      while (i < rows.length && phaseOf(rows[i]) === phase) {
        const r = rows[i];
        const dim = num(r[5]);
        const qty = num(r[6]);
        const partField = r[7] ?? '0';
        i++;
        const childStart = i;
        let childEnd = i;
        for (let k = 0; k < Math.max(qty, 1); k++) {
          if (pos + dim > extent + 1e-6) throw new Error(`pattern ${pattern}, cut ${r[2]}: piece of ${dim} past the end of its ${extent} (at ${pos})`);
          const sub: Piece = fromTop(phase)
            ? { left: piece.left, top: piece.top + pos, w: piece.w, h: dim }
            : { left: piece.left + pos, top: piece.top, w: dim, h: piece.h };
          if (childStart < rows.length && phaseOf(rows[childStart]) > phase) {
            if (phaseOf(rows[childStart]) !== phase + 1) throw new Error(`pattern ${pattern}, cut ${rows[childStart][2]}: phase ${phaseOf(rows[childStart])} under phase ${phase}`);
            childEnd = level(sub, phase + 1, childStart);
          } else if (partField !== '0' && partField !== '') {
            const offcut = partField.startsWith('X');
            reading.landings.push({
              kind: offcut ? 'offcut' : 'part', index: Number(offcut ? partField.slice(1) : partField),
              x: sub.left, y: reading.width - sub.top - sub.h, dx: sub.w, dy: sub.h,
            });
          }
          pos += dim + (qty > 0 ? kerf : 0);
          if (qty > 0) reading.cutsMade++;
        }
        i = childEnd;
        // QTY_PARTS already totals the repetitions above the row: count each row once.
        if (!counted.has(r) && !partField.startsWith('X') && partField !== '0' && partField !== '') {
          counted.add(r);
          const idx = Number(partField);
          reading.qtyParts.set(idx, (reading.qtyParts.get(idx) ?? 0) + num(r[8]));
        }
      }
      return i;
    };
    const end = level({ left: 0, top: 0, w: board.length, h: board.width }, firstPhase, 0);
    if (end !== rows.length) throw new Error(`pattern ${pattern}: rows from cut ${rows[end][2]} on are not under phase ${firstPhase}`);
    out.push(reading);
  }
  return out;
}
