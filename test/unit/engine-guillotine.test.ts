// Long (over 400 lines) because it is the guillotine engine's whole contract: geometry, tree rules, stages, stock, determinism.
// Facade + WASM guillotine engine: every solution is checked against the contract in
// src/engine/guillotine/types.ts by an independent validator (geometry, tree rules, stages, rotation,
// stock limits, accounting), plus determinism, budget and quality cases with known optima.
// Needs build/engine.wasm: npx asc --config asconfig.json --target release

import { beforeAll, describe, expect, it } from 'vitest';
import { loadEngineModule } from '../../src/engine/guillotine/boundary.js';
import { solveGuillotine } from '../../src/engine/guillotine/solve.js';
import { seededRandom } from '../../bench/seeded.js';
import type {
  Axis,
  EngineNode,
  EnginePart,
  EngineSolution,
  EngineStock,
  GuillotineProblem,
} from '../../src/engine/guillotine/types.js';

const EPS = 1e-6;
let mod: WebAssembly.Module;

beforeAll(() => {
  mod = loadEngineModule();
});

// ---------------------------------------------------------------- builders

function stock(l: number, w: number, extra: Partial<EngineStock> = {}): EngineStock {
  return { l, w, q: -1, cost: 0, trim: { l1: 0, l2: 0, w1: 0, w2: 0 }, grain: 0, ...extra };
}

function part(l: number, w: number, q: number, extra: Partial<EnginePart> = {}): EnginePart {
  return { l, w, q, rotMask: [3, 3, 3], stock: [0], ...extra };
}

function problem(stockRows: EngineStock[], parts: EnginePart[], extra: Partial<GuillotineProblem> = {}): GuillotineProblem {
  return {
    stock: stockRows,
    parts,
    kerf: 0,
    firstCut: 'x',
    maxPhase: 0,
    headCuts: false,
    stockSelection: 'efficiency',
    strategy: 'efficiency',
    seed: 1,
    budgetMs: 600_000,
    ...extra,
  };
}


/** Furniture-like mix: n part rows, integer mm sizes, mixed rotation rules. */
function randomParts(n: number, seed: number, stockIdx: number[] = [0, 1, 2]): EnginePart[] {
  const r = seededRandom(seed);
  const out: EnginePart[] = [];
  for (let i = 0; i < n; i++) {
    const l = 100 + Math.floor(r() * 800);
    const w = 50 + Math.floor(r() * 550);
    const k = r();
    const rotMask: [number, number, number] = k < 0.6 ? [3, 3, 3] : k < 0.8 ? [3, 1, 2] : [1, 1, 1];
    out.push({ l, w, q: 1 + Math.floor(r() * 3), rotMask, stock: stockIdx });
  }
  return out;
}

// ---------------------------------------------------------------- validator

interface Check {
  sheetsPerStock: number[];
  placed: number[];
  maxDepth: number;
}

/** Throws on any breach of the contract; returns usage figures. */
function validate(p: GuillotineProblem, sol: EngineSolution): Check {
  const placed = p.parts.map(() => 0);
  const sheetsPerStock = p.stock.map(() => 0);
  let maxDepth = 0;
  const fail = (msg: string): never => {
    throw new Error(msg);
  };
  const near = (a: number, b: number): boolean => Math.abs(a - b) <= EPS;

  sol.sheets.forEach((sheet, si) => {
    const st = p.stock[sheet.stock] ?? fail(`sheet ${si}: bad stock ${sheet.stock}`);
    sheetsPerStock[sheet.stock]!++;
    const ux = st.trim.w1;
    const uy = st.trim.l1;
    const ul = st.l - st.trim.w1 - st.trim.w2;
    const uw = st.w - st.trim.l1 - st.trim.l2;
    const root = sheet.root;
    if (root.kind !== 'cut') fail(`sheet ${si}: root is not a cut node`);
    // A roll is cut across first; its piece is as long as it used (sheet.length, trims included).
    const firstCut = st.open ? 'y' : p.firstCut;
    // A root across the first-cut direction is a head cut: one cut, then stage 1 in each piece.
    const head = root.kind === 'cut' && root.along !== firstCut;
    if (head && !p.headCuts) fail(`sheet ${si}: first cut ${root.kind === 'cut' ? root.along : ''} != ${firstCut}`);
    if (head && root.kind === 'cut' && root.children.length > 2) fail(`sheet ${si}: ${root.children.length - 1} head cuts`);
    const rootL = st.open ? root.l : ul;
    if (st.open) {
      if (st.l > 0 && root.l > ul + EPS) fail(`sheet ${si}: roll piece ${root.l} longer than the roll`);
      if (!near(sheet.length ?? NaN, root.l + st.trim.w1 + st.trim.w2)) fail(`sheet ${si}: length ${sheet.length} != used ${root.l} + trims`);
    }
    if (!near(root.x, ux) || !near(root.y, uy) || !near(root.l, rootL) || !near(root.w, uw)) {
      fail(`sheet ${si}: root region ${root.x},${root.y},${root.l},${root.w} != usable ${ux},${uy},${rootL},${uw}`);
    }
    const rects: [number, number, number, number][] = [];

    const visit = (node: EngineNode, depth: number): void => {
      if (node.kind === 'part') {
        const pr = p.parts[node.part] ?? fail(`sheet ${si}: bad part row ${node.part}`);
        placed[node.part]!++;
        if (!pr.stock.includes(sheet.stock)) fail(`part ${node.part} on stock ${sheet.stock} not in its list`);
        const mask = pr.rotMask[st.grain];
        if (!(mask & (1 << node.rot))) fail(`part ${node.part}: rot ${node.rot} not allowed by mask ${mask} (grain ${st.grain})`);
        const el = node.rot === 0 ? pr.l : pr.w;
        const ew = node.rot === 0 ? pr.w : pr.l;
        if (!near(node.l, el) || !near(node.w, ew)) fail(`part ${node.part}: extents ${node.l}x${node.w} != placed ${el}x${ew}`);
        if (node.x < ux - EPS || node.y < uy - EPS || node.x + node.l > ux + rootL + EPS || node.y + node.w > uy + uw + EPS) {
          fail(`part ${node.part} at ${node.x},${node.y} outside the usable region`);
        }
        rects.push([node.x, node.y, node.l, node.w]);
        return;
      }
      if (node.kind === 'free') return fail(`sheet ${si}: a free-placement root inside a guillotine tree`);
      maxDepth = Math.max(maxDepth, depth);
      if (p.maxPhase > 0 && depth > p.maxPhase) fail(`sheet ${si}: cut node at stage ${depth} > maxPhase ${p.maxPhase}`);
      if (node.children.length === 0) fail(`sheet ${si}: empty cut node`);
      // Bands stack across the cuts: in y for along 'x', in x for along 'y'.
      const alongX = node.along === 'x';
      let pos = alongX ? node.y : node.x;
      const end = alongX ? node.y + node.w : node.x + node.l;
      node.children.forEach((ch, ci) => {
        const start = alongX ? ch.y : ch.x;
        if (!near(start, pos)) fail(`sheet ${si} stage ${depth}: child ${ci} starts at ${start}, expected ${pos}`);
        // Along the cuts: starts at the region start; a cut child spans it fully, a part may be shorter.
        const a0 = alongX ? ch.x : ch.y;
        const aLen = alongX ? ch.l : ch.w;
        const pa0 = alongX ? node.x : node.y;
        const paLen = alongX ? node.l : node.w;
        if (!near(a0, pa0)) fail(`sheet ${si} stage ${depth}: child ${ci} not at the band start`);
        if (ch.kind === 'cut') {
          if (!near(aLen, paLen)) fail(`sheet ${si} stage ${depth}: cut child ${ci} does not span the band`);
          if (ch.along === node.along) fail(`sheet ${si} stage ${depth}: nested cut runs the same way`);
        } else if (aLen > paLen + EPS) fail(`sheet ${si} stage ${depth}: part child ${ci} longer than the band`);
        const across = alongX ? ch.w : ch.l;
        pos = start + across;
        if (pos > end + EPS) fail(`sheet ${si} stage ${depth}: child ${ci} ends at ${pos} beyond ${end}`);
        pos += p.kerf;
        if (ch.kind === 'cut') visit(ch, depth + 1);
        else visit(ch, depth);
      });
    };
    visit(root, head ? 0 : 1);

    // Independent geometric check: no overlaps, and a kerf between any two parts.
    for (let i = 0; i < rects.length; i++) {
      for (let j = i + 1; j < rects.length; j++) {
        const [ax, ay, al, aw] = rects[i]!;
        const [bx, by, bl, bw] = rects[j]!;
        const gapX = Math.max(bx - (ax + al), ax - (bx + bl));
        const gapY = Math.max(by - (ay + aw), ay - (by + bw));
        if (Math.max(gapX, gapY) < p.kerf - EPS) fail(`sheet ${si}: parts ${i} and ${j} overlap or lack the kerf`);
      }
    }
  });

  if (sol.unplaced.length !== p.parts.length) fail('unplaced has the wrong length');
  p.parts.forEach((pr, i) => {
    if (placed[i]! + sol.unplaced[i]! !== pr.q) fail(`part ${i}: placed ${placed[i]} + unplaced ${sol.unplaced[i]} != q ${pr.q}`);
  });
  p.stock.forEach((s, i) => {
    if (s.q >= 0 && sheetsPerStock[i]! > s.q) fail(`stock ${i}: ${sheetsPerStock[i]} sheets > q ${s.q}`);
  });
  return { sheetsPerStock, placed, maxDepth };
}

function solveAndValidate(p: GuillotineProblem): { sol: EngineSolution; check: Check } {
  const sol = solveGuillotine(p, mod);
  return { sol, check: validate(p, sol) };
}

const totalUnplaced = (s: EngineSolution): number => s.unplaced.reduce((a, b) => a + b, 0);

// ---------------------------------------------------------------- tests

describe('guillotine engine: validity', () => {
  const stocks = [
    stock(2440, 1220, { trim: { l1: 10, l2: 5, w1: 8, w2: 12 } }),
    stock(2800, 2070, { cost: 80 }),
    stock(1220, 610, { grain: 1 }),
  ];

  for (const firstCut of ['x', 'y'] as Axis[]) {
    for (const maxPhase of [0, 1, 2, 3, 4]) {
      it(`mixed instance, firstCut ${firstCut}, maxPhase ${maxPhase}, kerf 4`, () => {
        const p = problem(stocks, randomParts(60, 7 + maxPhase), { kerf: 4, firstCut, maxPhase, budgetMs: 600_000 });
        const { sol, check } = solveAndValidate(p);
        expect(totalUnplaced(sol)).toBe(0);
        if (maxPhase > 0) expect(check.maxDepth).toBeLessThanOrEqual(maxPhase);
        for (const s of sol.sheets) expect(s.root.kind === 'cut' && s.root.along).toBe(firstCut);
      });
    }
  }

  it('uses deeper stages when allowed and useful', () => {
    // Tall 700x1200 parts form bands that small 300x200 parts fill beside them only with 3+ stages.
    const p = problem([stock(2440, 1220)], [part(700, 1200, 3, { rotMask: [1, 1, 1] }), part(300, 200, 12, { rotMask: [1, 1, 1] })], {
      maxPhase: 0,
    });
    const { check } = solveAndValidate(p);
    expect(check.maxDepth).toBeGreaterThanOrEqual(2);
  });

  it('keeps exactly one kerf between pieces', () => {
    // 1200 + 4 + 1200 = 2404: both fit one sheet only with an exact kerf gap.
    const fits = problem([stock(2404, 1220)], [part(1200, 1220, 2, { rotMask: [1, 1, 1] })], { kerf: 4 });
    const a = solveAndValidate(fits).sol;
    expect(a.sheets).toHaveLength(1);
    const xs = a.sheets[0]!.root.kind === 'cut' ? collectParts(a.sheets[0]!.root).map((n) => n.x).sort((u, v) => u - v) : [];
    expect(xs).toEqual([0, 1204]);
    const tooWide = problem([stock(2404, 1220)], [part(1200, 1220, 2, { rotMask: [1, 1, 1] })], { kerf: 4.5 });
    expect(solveAndValidate(tooWide).sol.sheets).toHaveLength(2);
  });

  it('honours trims: parts stay inside the usable region', () => {
    const p = problem([stock(1000, 500, { trim: { l1: 20, l2: 30, w1: 40, w2: 50 } })], [part(910, 450, 1, { rotMask: [1, 1, 1] })]);
    const { sol } = solveAndValidate(p);
    expect(sol.sheets).toHaveLength(1);
    const [pn] = collectParts(sol.sheets[0]!.root);
    expect(pn).toMatchObject({ x: 40, y: 20, l: 910, w: 450 });
    // One unit more than the usable length fits nowhere.
    const q = problem([stock(1000, 500, { trim: { l1: 20, l2: 30, w1: 40, w2: 50 } })], [part(911, 450, 1, { rotMask: [1, 1, 1] })]);
    expect(solveAndValidate(q).sol.unplaced).toEqual([1]);
  });
});

describe('guillotine engine: rules', () => {
  it('honours rotation masks per stock grain', () => {
    const stocks = [stock(2440, 1220, { grain: 1 }), stock(2440, 1220, { grain: 2 })];
    const parts = [
      part(500, 300, 10, { rotMask: [3, 1, 2], stock: [0] }), // grain along x: rot 0 only
      part(500, 300, 10, { rotMask: [3, 1, 2], stock: [1] }), // grain along y: rot 1 only
      part(400, 200, 10, { rotMask: [1, 1, 1], stock: [0, 1] }),
    ];
    const p = problem(stocks, parts, { kerf: 3 });
    const { sol } = solveAndValidate(p); // the validator rejects any disallowed rot
    for (const sh of sol.sheets) {
      for (const n of collectParts(sh.root)) {
        if (n.part === 0) expect(n.rot).toBe(0);
        if (n.part === 1) expect(n.rot).toBe(1);
        if (n.part === 2) expect(n.rot).toBe(0);
      }
    }
    expect(totalUnplaced(sol)).toBe(0);
  });

  it('rotates a part only when allowed, and only into a fitting orientation', () => {
    // 1000x2000 fits a 2440x1220 sheet only turned.
    const turnable = problem([stock(2440, 1220)], [part(1000, 2000, 1)]);
    const a = solveAndValidate(turnable).sol;
    expect(collectParts(a.sheets[0]!.root)[0]!.rot).toBe(1);
    const locked = problem([stock(2440, 1220)], [part(1000, 2000, 1, { rotMask: [1, 1, 1] })]);
    expect(solveAndValidate(locked).sol.unplaced).toEqual([1]);
  });

  it('reports parts that fit nowhere in unplaced', () => {
    const p = problem(
      [stock(1000, 1000), stock(500, 500, { grain: 2 })],
      [
        part(1200, 100, 2, { stock: [0, 1] }), // bigger than every sheet
        part(100, 100, 3, { stock: [] }), // no compatible stock
        part(100, 100, 4, { rotMask: [3, 3, 0], stock: [1] }), // not allowed on grain 2 stock
        part(400, 400, 5, { stock: [0, 1] }),
        part(100, 100, 0, { stock: [0] }), // nothing asked
      ],
    );
    const { sol } = solveAndValidate(p);
    expect(sol.unplaced).toEqual([2, 3, 4, 0, 0]);
  });

  it('honours stock quantities and counts what does not fit', () => {
    // 12 parts of 600x400 fill a 2400x1200 sheet: 30 need 3 sheets, only 2 exist.
    const p = problem([stock(2400, 1200, { q: 2 })], [part(600, 400, 30, { rotMask: [1, 1, 1] })]);
    const { sol, check } = solveAndValidate(p);
    expect(check.sheetsPerStock).toEqual([2]);
    expect(sol.unplaced).toEqual([6]);
  });

  it('moves to other stock rows when a limited one runs out', () => {
    // Two 2400x1200 sheets hold 12 each, three 1200x1200 sheets hold 6 each: 42 of 50.
    const p = problem(
      [stock(2400, 1200, { q: 1 }), stock(2400, 1200, { q: 1, cost: 5 }), stock(1200, 1200, { q: 3 })],
      [part(600, 400, 50, { rotMask: [1, 1, 1], stock: [0, 1, 2] })],
    );
    const { sol, check } = solveAndValidate(p);
    expect(check.sheetsPerStock).toEqual([1, 1, 3]);
    expect(sol.unplaced).toEqual([8]);
  });

  it('keeps materials apart (parts only on their listed stock)', () => {
    const p = problem(
      [stock(2440, 1220), stock(2440, 1220), stock(3050, 1220)],
      [...randomParts(20, 3, [0]), ...randomParts(20, 4, [1, 2])],
      { kerf: 3 },
    );
    const { sol } = solveAndValidate(p); // the validator checks list membership
    expect(totalUnplaced(sol)).toBe(0);
  });

  it('respects the first cut direction', () => {
    for (const firstCut of ['x', 'y'] as Axis[]) {
      const p = problem([stock(2440, 1220)], randomParts(30, 11, [0]), { firstCut, kerf: 3, maxPhase: 2 });
      const { sol } = solveAndValidate(p);
      expect(sol.sheets.length).toBeGreaterThan(0);
      for (const s of sol.sheets) expect(s.root.kind === 'cut' && s.root.along).toBe(firstCut);
    }
  });

  it('respects maxPhase 1: one part per first-stage band', () => {
    const p = problem([stock(2440, 1220)], [part(2000, 100, 20, { rotMask: [1, 1, 1] })], { maxPhase: 1, kerf: 2 });
    const { sol, check } = solveAndValidate(p);
    expect(check.maxDepth).toBe(1);
    for (const s of sol.sheets) {
      if (s.root.kind === 'cut') for (const ch of s.root.children) expect(ch.kind).toBe('part');
    }
    // 1220 / 102 -> 11 bands (11*100 + 10*2 = 1120; 12 would need 1222).
    expect(sol.sheets).toHaveLength(2);
  });

  it('prefers the smallest sheets with stockSelection smallest', () => {
    // Everything fits the small sheet: both rules take it.
    const two = [part(500, 400, 2, { stock: [0, 1] })];
    const stocks = [stock(2440, 1220), stock(1100, 500)];
    expect(solveAndValidate(problem(stocks, two, { stockSelection: 'smallest' })).check.sheetsPerStock).toEqual([0, 1]);
    expect(solveAndValidate(problem(stocks, two, { stockSelection: 'efficiency' })).check.sheetsPerStock).toEqual([0, 1]);
    // Six 500x500 parts: one 2000x1000 sheet or two 1000x1000 sheets (same area); smallest takes the small ones.
    const six = [part(500, 500, 6, { stock: [0, 1] })];
    const ab = [stock(2000, 1000), stock(1000, 1000)];
    expect(solveAndValidate(problem(ab, six, { stockSelection: 'smallest' })).check.sheetsPerStock).toEqual([0, 2]);
  });

  it('survives degenerate input without trapping', () => {
    const p = problem(
      [stock(0, 1000), stock(1000, 1000, { q: 0 }), stock(100, 100, { trim: { l1: 60, l2: 60, w1: 0, w2: 0 } })],
      [part(10, 10, 2, { stock: [0, 1, 2, 7] })],
    );
    const { sol } = solveAndValidate(p);
    expect(sol.unplaced).toEqual([2]);
    expect(sol.sheets).toHaveLength(0);
    const empty = solveAndValidate(problem([], []));
    expect(empty.sol.sheets).toHaveLength(0);
    expect(empty.sol.unplaced).toEqual([]);
  });
});

describe('guillotine engine: search', () => {
  it('is deterministic for the same seed when the effort limit ends the search', () => {
    const p = problem([stock(2440, 1220), stock(2070, 1000)], randomParts(80, 21, [0, 1]), { kerf: 4, seed: 42, budgetMs: 600_000 });
    const a = solveGuillotine(p, mod);
    const b = solveGuillotine(p, mod);
    expect(a.stats.stoppedByDeadline).toBe(false);
    expect(b.sheets).toEqual(a.sheets);
    expect(b.unplaced).toEqual(a.unplaced);
    expect(b.stats.iterations).toBe(a.stats.iterations);
    validate(p, a);
  });

  it('ends 2,000 parts by its effort limit, the same layout on every run', () => {
    const parts = randomParts(1000, 5);
    const q = parts.reduce((s, x) => s + x.q, 0);
    // Scale quantities to exactly 2,000 instances.
    let extra = 2000 - q;
    for (const pr of parts) {
      if (extra === 0) break;
      const d = extra > 0 ? 1 : Math.max(-(pr.q - 1), extra);
      pr.q += d;
      extra -= d;
    }
    expect(parts.reduce((s, x) => s + x.q, 0)).toBe(2000);
    // A budget no run reaches: the effort limit alone ends the search, so it is repeatable.
    const p = problem([stock(2440, 1220), stock(2800, 2070), stock(3050, 1530)], parts, { kerf: 4, budgetMs: 600_000 });
    const sol = solveGuillotine(p, mod);
    expect(sol.stats.stoppedByDeadline).toBe(false);
    validate(p, sol);
    expect(totalUnplaced(sol)).toBe(0);
    const again = solveGuillotine(p, mod);
    expect(again.stats.iterations).toBe(sol.stats.iterations);
    expect(again.sheets).toEqual(sol.sheets);
  });

  it('handles 20,000 instances and 1,000 stock rows without blowing up', () => {
    const stocks: EngineStock[] = [];
    for (let i = 0; i < 1000; i++) stocks.push(stock(1500 + (i % 40) * 25, 800 + (i % 17) * 30, { q: 50 }));
    const ids = stocks.map((_, i) => i);
    const parts = randomParts(2000, 9, ids).map((pr) => ({ ...pr, q: 10 }));
    // A small effort scale keeps the search short; the budget is never what ends it.
    const p = problem(stocks, parts, { kerf: 3, budgetMs: 600_000, effort: 0.05 });
    const sol = solveGuillotine(p, mod);
    expect(sol.stats.stoppedByDeadline).toBe(false);
    validate(p, sol);
    expect(totalUnplaced(sol)).toBe(0);
  });
});

describe('guillotine engine: quality', () => {
  it('40 parts of 400x300 on 2440x1220, kerf 0: 2 sheets (24 per sheet, area bound 2)', () => {
    const p = problem([stock(2440, 1220)], [part(400, 300, 40)]);
    const { sol } = solveAndValidate(p);
    expect(sol.lowerBound).toBe(2);
    expect(sol.sheets).toHaveLength(2);
  });

  it('perfect tilings are found: 36 of 600x400 on 2400x1200 -> 3 sheets', () => {
    const p = problem([stock(2400, 1200)], [part(600, 400, 36)]);
    const { sol } = solveAndValidate(p);
    expect(sol.lowerBound).toBe(3);
    expect(sol.sheets).toHaveLength(3);
  });

  it('kerf-aware tiling: 48 of 600x300 on 2440x1220 with kerf 4 -> 3 sheets of 16', () => {
    const p = problem([stock(2440, 1220)], [part(600, 300, 48)], { kerf: 4 });
    const { sol } = solveAndValidate(p);
    expect(sol.sheets).toHaveLength(3);
  });

  it('zero-waste guillotine puzzle (3 sheets cut into 3-stage pieces) needs at most 4 sheets', () => {
    // Cut three 2400x1200 sheets into strips, then pieces, then stacked parts: the optimum is 3.
    const r = seededRandom(77);
    const parts: EnginePart[] = [];
    for (let s = 0; s < 3; s++) {
      let y = 0;
      while (y < 1200) {
        const h = Math.min(1200 - y, 200 + Math.floor(r() * 4) * 100);
        let x = 0;
        while (x < 2400) {
          const w = Math.min(2400 - x, 300 + Math.floor(r() * 5) * 100);
          const split = r() < 0.4 && h >= 200;
          if (split) {
            const h1 = 100 * Math.max(1, Math.floor((h / 100) * r()));
            parts.push(part(w, h1, 1), part(w, h - h1, 1));
          } else parts.push(part(w, h, 1));
          x += w;
        }
        y += h;
      }
    }
    const p = problem([stock(2400, 1200)], parts, { maxPhase: 3 });
    const { sol } = solveAndValidate(p);
    expect(sol.lowerBound).toBe(3);
    expect(sol.sheets.length).toBeLessThanOrEqual(4);
  });

  it('reports an area lower bound that no solution beats', () => {
    const p = problem([stock(2440, 1220), stock(1220, 1220)], randomParts(100, 31, [0, 1]), { kerf: 3, budgetMs: 600_000 });
    const { sol } = solveAndValidate(p);
    expect(sol.lowerBound).toBeGreaterThan(0);
    expect(sol.sheets.length).toBeGreaterThanOrEqual(sol.lowerBound);
    expect(sol.stats.timeToBestMs).toBeLessThanOrEqual(sol.stats.elapsedMs + EPS);
  });
});

function collectParts(node: EngineNode): Extract<EngineNode, { kind: 'part' }>[] {
  if (node.kind === 'part') return [node];
  return node.children.flatMap(collectParts);
}

describe('guillotine engine: head cuts', () => {
  // Two 2000x600 bands leave a 440 wide tail that only a head cut across the sheet can use.
  const parts = [part(2000, 600, 2, { rotMask: [1, 1, 1] }), part(400, 1200, 1, { rotMask: [1, 1, 1] })];

  it('needs two sheets without a head cut', () => {
    const { sol } = solveAndValidate(problem([stock(2440, 1220)], parts, { maxPhase: 2, budgetMs: 600_000 }));
    expect(sol.sheets.length).toBe(2);
  });

  it('fits one sheet with a head cut, which restarts the stages', () => {
    const { sol } = solveAndValidate(problem([stock(2440, 1220)], parts, { maxPhase: 2, headCuts: true, budgetMs: 600_000 }));
    expect(sol.sheets.length).toBe(1);
    const root = sol.sheets[0]!.root;
    expect(root.kind === 'cut' && root.along).toBe('y');
  });

  it('places the head cut where it pays, not only where the longest band ends', () => {
    // One sheet: two 1400x600 bands would take a 1000x600 part beside them and run the whole
    // length; cutting the head after 1000 instead fits the two 500x1200 parts, more area.
    const fixed = { rotMask: [1, 1, 1] as [number, number, number] };
    const p = problem([stock(2440, 1220, { q: 1 })], [part(1400, 600, 2, fixed), part(500, 1200, 2, fixed), part(1000, 600, 1, fixed)], {
      maxPhase: 2, headCuts: true, budgetMs: 600_000,
    });
    const { sol } = solveAndValidate(p);
    expect(sol.unplaced).toEqual([0, 0, 1]);
    const root = sol.sheets[0]!.root;
    expect(root.kind === 'cut' && root.along).toBe('y');
  });

  it('stays valid on mixed jobs, kerf and trims, both directions', () => {
    for (const firstCut of ['x', 'y'] as Axis[]) {
      const st = stock(2440, 1220, { trim: { l1: 10, l2: 5, w1: 8, w2: 12 } });
      // A tenth of the default effort: validity is the point here, and the full search of these
      // ~240 parts takes 20 s a direction on a quiet machine.
      const p = problem([st], randomParts(80, 5, [0]), { kerf: 4, firstCut, maxPhase: 3, headCuts: true, budgetMs: 600_000, effort: 0.1 });
      const { sol } = solveAndValidate(p);
      expect(totalUnplaced(sol)).toBe(0);
    }
  });
});

describe('open-length stock (roll)', () => {
  it('finds the optimum length of a perfect-fit strip', () => {
    // A 1000 wide roll; the parts tile exactly 1000 x 900 in three 300 long columns.
    const parts = [part(300, 500, 3), part(300, 250, 6)];
    const p = problem([stock(0, 1000, { q: 1, open: true })], parts, { maxPhase: 3, budgetMs: 600_000 });
    const { sol } = solveAndValidate(p);
    expect(totalUnplaced(sol)).toBe(0);
    expect(sol.sheets.length).toBe(1);
    expect(sol.sheets[0]!.length).toBe(900);
    expect(sol.lengthBound).toBe(900);
  });

  it('ends a roll job sent as thousands of single lines by its effort limit', () => {
    // 2,400 lines of 12 sizes, one copy each (as the zero-waste BKW sets come): the strip search
    // works on the 12 sizes and hands every placement back to its own line.
    const rnd = seededRandom(5);
    const sizes = Array.from({ length: 12 }, () => [10 + Math.floor(rnd() * 60), 10 + Math.floor(rnd() * 60)] as const);
    const parts = Array.from({ length: 2400 }, (_, i) => part(sizes[i % 12]![0], sizes[i % 12]![1], 1));
    for (const extra of [{ maxPhase: 0 }, { maxPhase: 3 }]) {
      const p = problem([stock(0, 640, { q: 1, open: true })], parts, { budgetMs: 600_000, effort: 0.2, ...extra });
      const { sol } = solveAndValidate(p);
      expect(totalUnplaced(sol)).toBe(0);
      const lines = new Set<number>();
      const visit = (n: EngineNode): void => {
        if (n.kind === 'part') lines.add(n.part);
        else n.children.forEach(visit);
      };
      sol.sheets.forEach((sh) => visit(sh.root));
      expect(lines.size).toBe(2400);
      // The search ends by its effort limit (it once took 27 s of a 5 s budget): no deadline is met.
      expect(sol.stats.stoppedByDeadline).toBe(false);
    }
  });

  it('leaves out a part wider than the roll and still shortens the piece for the rest', () => {
    const parts = [part(300, 500, 3, { rotMask: [1, 1, 1] }), part(300, 250, 6), part(1200, 1100, 1, { rotMask: [1, 1, 1] })];
    const p = problem([stock(0, 1000, { q: 1, open: true })], parts, { maxPhase: 3, budgetMs: 600_000 });
    const { sol } = solveAndValidate(p);
    expect(sol.unplaced).toEqual([0, 0, 1]);
    expect(sol.sheets[0]!.length).toBe(900);
  });

  /** Pieces of a size x size square cut recursively by random guillotine cuts (a zero-waste strip). */
  function guillotinePieces(size: number, pieces: number, seed: number): EnginePart[] {
    const rnd = seededRandom(seed);
    const rects: [number, number][] = [[size, size]];
    while (rects.length < pieces) {
      rects.sort((a, b) => b[0] * b[1] - a[0] * a[1]);
      const [l, w] = rects.shift()!;
      const alongL = l >= w ? rnd() < 0.75 : rnd() < 0.25;
      const len = alongL ? l : w;
      const cut = Math.max(1, Math.min(len - 1, Math.round(len * (0.2 + 0.6 * rnd()))));
      if (alongL) rects.push([cut, w], [l - cut, w]);
      else rects.push([l, cut], [l, w - cut]);
    }
    return rects.map(([l, w]) => part(l, w, 1));
  }

  it('packs a recursively cut square with bands that combine different parts', () => {
    const parts = guillotinePieces(200, 25, 7);
    for (const extra of [{ maxPhase: 0 }, { maxPhase: 3 }, { maxPhase: 2, kerf: 0.5 }]) {
      const p = problem([stock(0, 200, { q: 1, open: true })], parts, { budgetMs: 600_000, ...extra });
      const { sol } = solveAndValidate(p);
      expect(totalUnplaced(sol)).toBe(0);
      // Unlimited stages, service effort: within 7 % of the square (213 when written).
      if (extra.maxPhase === 0) expect(sol.sheets[0]!.length).toBeLessThanOrEqual(214);
      expect(solveAndValidate(p).sol.sheets[0]!.length).toBe(sol.sheets[0]!.length);
    }
  });

  it('reaches the exact length of recursively cut squares by backtracking, and stops there', () => {
    // Squares the best-fit strips alone left 1-7 units long (4 s each, when written).
    for (const seed of [4, 7, 11]) {
      const parts = guillotinePieces(120, 16, seed);
      const p = problem([stock(0, 120, { q: 1, open: true })], parts, { budgetMs: 600_000, effort: 0 });
      const { sol } = solveAndValidate(p);
      expect(totalUnplaced(sol)).toBe(0);
      expect(sol.sheets[0]!.length).toBe(120);
      expect(sol.lengthBound).toBe(120);
      // The bound met is a proof: with no effort limit, only it can have ended the search.
      expect(sol.stats.stoppedByDeadline).toBe(false);
    }
  });

  it('counts trims and kerf, keeps within a roll length cap and is deterministic', () => {
    const st = stock(20000, 1500, { q: 1, open: true, trim: { l1: 10, l2: 10, w1: 5, w2: 15 } });
    const p = problem([st], randomParts(60, 3, [0]), { kerf: 4, maxPhase: 3, budgetMs: 600_000, effort: 0.2 });
    const a = solveAndValidate(p).sol;
    const b = solveAndValidate(p).sol;
    expect(totalUnplaced(a)).toBe(0);
    expect(a.sheets[0]!.length).toBeGreaterThanOrEqual(a.lengthBound! + 20);
    expect(b.sheets[0]!.length).toBe(a.sheets[0]!.length);
  });
});

describe('repeated patterns (strategy time, beam saws)', () => {
  const key = (n: EngineNode): string =>
    n.kind === 'part' ? `p${n.part}:${n.x},${n.y},${n.rot}` : `${n.kind === 'cut' ? `c${n.along}` : 'free'}[${n.children.map(key).join(';')}]`;

  it('repeats sheet patterns while the demand lasts, at little material cost', () => {
    const parts = [part(600, 500, 60), part(900, 300, 30), part(400, 350, 24)];
    const base = problem([stock(2800, 2070)], parts, { kerf: 4, maxPhase: 3, budgetMs: 600_000 });
    const eff = solveAndValidate(base).sol;
    const time = solveAndValidate({ ...base, strategy: 'time' }).sol;
    const distinct = (s: EngineSolution) => new Set(s.sheets.map((sh) => key(sh.root))).size;
    expect(totalUnplaced(time)).toBe(0);
    expect(distinct(time)).toBeLessThan(time.sheets.length);
    expect(distinct(time)).toBeLessThanOrEqual(distinct(eff));
    expect(time.sheets.length).toBeLessThanOrEqual(eff.sheets.length + 1);
    // The flag alone gives the same repetition with the full search.
    const rep = solveAndValidate({ ...base, repeatPatterns: true }).sol;
    expect(distinct(rep)).toBeLessThan(rep.sheets.length);
  });

  it('never repeats past the stock quantity', () => {
    const p = problem([stock(1000, 1000, { q: 3 }), stock(1000, 1000, { q: -1, cost: 5 })], [part(500, 500, 40)], { repeatPatterns: true, budgetMs: 600_000 });
    const { check } = solveAndValidate(p);
    expect(check.sheetsPerStock[0]).toBeLessThanOrEqual(3);
  });
});
