// What makes a request's groups unusable, as 400 issues naming the field: a group on stock or
// a cut type that has no groups, a position naming no part, positions that overlap, members
// that no straight cut a kerf wide can separate (guillotine) or closer than the gap (free
// placement), and groups asking for more instances of a part than its q.
import type { CutType, RequestIssue, StockType } from './request-rules.js';
import { separate, tooClose } from './group-shapes.js';

/** A group as parsed (request.ts CalcGroup). */
interface Group { positions: { part: number; x: number; y: number }[]; q: number }

const EPS = 1e-7;

export function groupIssues(groups: Group[], parts: { l: number; w: number; q: number }[], saw: { stockType: StockType; cutType: CutType; kerf: number; firstCut: 'x' | 'y' }): RequestIssue[] {
  if (saw.stockType !== 'sheet' || saw.cutType === 'nesting') {
    return [{ path: ['groups'], message: `groups are for sheet stock with cutType guillotine, beam or efficiency (got ${saw.stockType}${saw.stockType === 'sheet' ? ` ${saw.cutType}` : ''})` }];
  }
  const issues: RequestIssue[] = [];
  const taken = parts.map(() => 0);
  groups.forEach((group, g) => {
    const before = issues.length;
    group.positions.forEach((p, j) => {
      if (p.part >= parts.length) issues.push({ path: ['groups', g, 'positions', j, 'part'], message: `no part row ${p.part} (there are ${parts.length})` });
    });
    if (issues.length > before) return;
    const members = group.positions.map((p) => ({ row: p.part, x: p.x, y: p.y, l: parts[p.part]!.l, w: parts[p.part]!.w }));
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        const a = members[i]!, b = members[j]!;
        if (Math.min(a.x + a.l, b.x + b.l) - Math.max(a.x, b.x) > EPS && Math.min(a.y + a.w, b.y + b.w) - Math.max(a.y, b.y) > EPS) {
          issues.push({ path: ['groups', g, 'positions', j], message: `part ${b.row} at (${b.x}, ${b.y}) overlaps part ${a.row} at (${a.x}, ${a.y}) of position ${i}` });
        }
      }
    }
    if (issues.length > before) return;
    const x0 = Math.min(...members.map((m) => m.x)), y0 = Math.min(...members.map((m) => m.y));
    const region = { x: x0, y: y0, l: Math.max(...members.map((m) => m.x + m.l)) - x0, w: Math.max(...members.map((m) => m.y + m.w)) - y0 };
    if (saw.cutType === 'efficiency') {
      const close = tooClose(members, saw.kerf);
      if (close) issues.push({ path: ['groups', g, 'positions', close[1]], message: `closer than the gap ${saw.kerf} (max of bladeWidth and minSpacing) to position ${close[0]}` });
    } else if (!separate(region, members, saw.firstCut, saw.kerf) && !separate(region, members, saw.firstCut === 'x' ? 'y' : 'x', saw.kerf)) {
      issues.push({ path: ['groups', g, 'positions'], message: `no straight cuts ${saw.kerf} wide (bladeWidth) separate these parts: leave at least a kerf between them, in rows a cut can run along` });
    }
    for (const m of members) taken[m.row]! += group.q;
  });
  taken.forEach((n, row) => {
    if (n > parts[row]!.q) {
      const g = groups.findLastIndex((group) => group.positions.some((p) => p.part === row));
      issues.push({ path: ['groups', g, 'q'], message: `the groups take ${n} of part ${row}, which has q ${parts[row]!.q}` });
    }
  });
  return issues;
}
