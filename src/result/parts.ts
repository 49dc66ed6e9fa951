// What every result record lists the same way, whatever the engine: each requested part
// instance (placed ones first within their row, in sheet order), the rows left unplaced with
// their reason, and the machining the request carries.
import type { PartIssue } from '../engine/guillotine/problem.js';
import type { CalcRequest } from '../schema/request.js';
import type { ResultPart, UnusablePart } from '../schema/result.js';
import { round } from './totals.js';

export interface Placement {
  x: number;
  y: number;
  rot: 0 | 1;
  stockId: string;
}


/**
 * `placedByRow[row]` holds the row's placements; `blocked[row]` why the row fits no stock;
 * `shortage` words the reason when stock ran out.
 */
export function listParts(
  request: CalcRequest,
  placedByRow: Placement[][],
  blocked: (PartIssue | undefined)[],
  shortage: (missing: number, requested: number) => string,
): { parts: ResultPart[]; unusableParts: UnusablePart[] } {
  const parts: ResultPart[] = [];
  const unusableParts: UnusablePart[] = [];
  for (const p of request.parts) {
    const placed = placedByRow[p.index];
    for (let copy = 0; copy < p.q; copy++) {
      const at = placed[copy];
      parts.push({
        id: `${p.index}.${copy}`, name: p.name, l: p.l, w: p.w, t: p.t ?? null, material: p.material, notes: p.notes,
        grain: p.grain, orientationLock: p.orientationLock,
        x: at ? round(at.x) : null, y: at ? round(at.y) : null, rot: at ? at.rot : null,
        added: at !== undefined, stock: at ? { id: at.stockId } : null,
        extras: p.extras, customData: p.customData, machining: p.machining,
        ...(p.finished ? { finished: { ...p.finished } } : {}),
      });
    }
    const missing = p.q - Math.min(placed.length, p.q);
    if (missing > 0) {
      const issue = blocked[p.index] ?? { category: 'stock' as const, field: 'q', message: shortage(missing, p.q) };
      unusableParts.push({
        id: String(p.index), name: p.name, l: p.l, w: p.w, t: p.t ?? null, q: missing, material: p.material,
        issues: [{ message: issue.message, type: 'error', category: issue.category, field: issue.field }],
      });
    }
  }
  return { parts, unusableParts };
}

/**
 * The metadata every engine reports the same way, from the request and what it could not place:
 * parts left out, drilled holes (hinge holes included) and
 * machined corners over every requested instance.
 */
export function partsMetadata(request: CalcRequest, unusable: UnusablePart[]) {
  let holes = 0, corners = 0;
  for (const p of request.parts) {
    const m = p.machining as { holes?: unknown[]; hingeHoles?: unknown[]; corners?: unknown[] } | undefined;
    holes += ((m?.holes?.length ?? 0) + (m?.hingeHoles?.length ?? 0)) * p.q;
    corners += (m?.corners?.length ?? 0) * p.q;
  }
  return {
    unplacedParts: unusable.map((u) => ({ id: u.id, count: u.q, name: u.name, l: u.l, w: u.w, t: u.t, material: u.material })),
    // Filled in by addBandingTotals once the parts are placed.
    totalBandingLength: 0,
    bandingLengthByType: {},
    hasMachining: holes + corners > 0,
    numHoles: holes,
    numCorners: corners,
  };
}
