// The longest remnant on bars (saw.options.leftover): at equal bar count, the emptiest bar of
// each material gives its pieces, longest first, to the other bars' remnants where they fit
// (the fullest bar that still takes the piece), so that its own remnant grows as long as it
// can. A bar that gives away all its pieces is not cut at all. Done on the engine's plan, in
// whole bars: no piece moves to stock its row may not use, and no bar gets longer than usable.
import type { LinearProblem, LinearSolution } from './types.js';

interface Bar { stock: number; parts: number[] }

export function longestRemnants(problem: LinearProblem, solution: LinearSolution, lengths: number[], groupOf: (stockRow: number) => string): LinearSolution {
  const bars: Bar[] = solution.groups.flatMap((g) => Array.from({ length: g.bars }, () => ({ stock: g.stock, parts: [...g.parts] })));
  const kerf = problem.kerf;
  const used = (bar: Bar) => bar.parts.reduce((sum, row) => sum + lengths[row]!, 0) + kerf * Math.max(0, bar.parts.length - 1);
  const room = (bar: Bar) => problem.stock[bar.stock]!.usable - used(bar);
  const emptiest = new Map<string, Bar>();
  for (const bar of bars) {
    const key = groupOf(bar.stock);
    const best = emptiest.get(key);
    if (!best || room(bar) >= room(best)) emptiest.set(key, bar);
  }
  for (const target of emptiest.values()) {
    const pieces = [...target.parts].sort((a, b) => lengths[b]! - lengths[a]!);
    for (const row of pieces) {
      const need = lengths[row]! + kerf;
      let host: Bar | undefined;
      for (const bar of bars) {
        if (bar === target || bar.parts.length === 0 || !problem.parts[row]!.stock.includes(bar.stock)) continue;
        if (room(bar) + 1e-9 < need) continue;
        if (!host || room(bar) < room(host)) host = bar;
      }
      if (!host) continue;
      host.parts.push(row);
      target.parts.splice(target.parts.indexOf(row), 1);
    }
  }
  // Identical bars fold back into groups, in the order they first appear; the gathered bars last.
  const targets = new Set(emptiest.values());
  const ordered = [...bars.filter((b) => !targets.has(b)), ...bars.filter((b) => targets.has(b))].filter((b) => b.parts.length > 0);
  const groups: LinearSolution['groups'] = [];
  const byKey = new Map<string, LinearSolution['groups'][number]>();
  for (const bar of ordered) {
    const parts = [...bar.parts].sort((a, b) => lengths[b]! - lengths[a]! || a - b);
    const key = `${bar.stock}|${parts.join(',')}`;
    const group = byKey.get(key);
    if (group) group.bars++;
    else {
      const g = { stock: bar.stock, bars: 1, parts };
      byKey.set(key, g);
      groups.push(g);
    }
  }
  return { ...solution, groups };
}
