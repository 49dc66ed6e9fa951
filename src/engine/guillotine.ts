// TS facade of the guillotine engine (engine-as/guillotine, built to build/engine.wasm).
// It flattens a GuillotineProblem into one Float64Array, runs it in a fresh WebAssembly
// instance (one per task, so memory never outlives the task) and turns the flat answer back
// into EngineSolution trees. No packing logic lives here: the engine owns the algorithms.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineNode, EngineSheet, EngineSolution, GuillotineProblem } from './types.js';

// ---- flat layout; mirrors engine-as/guillotine/layout.ts (change both together) ----
const FORMAT_VERSION = 1;
const HEADER_LEN = 13;
const STOCK_STRIDE = 10;
const PART_STRIDE = 8;
const LIST_STRIDE = 2;
const OUT_HEADER = 8;
const NODE_STRIDE = 8;
const KIND_CUT = 0;

/** Where the release build lands, relative to the package root. */
export const ENGINE_WASM_PATH = join('build', 'engine.wasm');

interface EngineExports {
  memory: WebAssembly.Memory;
  inputPtr(n: number): number;
  solveGuillotine(): number;
  outputPtr(): number;
}

let cachedModule: WebAssembly.Module | undefined;

/** First directory at or above `start` that holds a package.json. */
function packageRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`kerf engine: no package.json above ${start}`);
    dir = up;
  }
}

/**
 * Compiles build/engine.wasm once per thread. The file is found from this module's own
 * location, which is src/engine under vitest and dist/src/engine after tsc.
 */
export function loadEngineModule(): WebAssembly.Module {
  if (cachedModule) return cachedModule;
  const root = packageRoot(dirname(fileURLToPath(import.meta.url)));
  const file = join(root, ENGINE_WASM_PATH);
  if (!existsSync(file)) {
    throw new Error(`kerf engine: ${file} is missing; build it with: npx asc --config asconfig.json --target release`);
  }
  cachedModule = new WebAssembly.Module(readFileSync(file));
  return cachedModule;
}

/** Flattens the problem. Parts share stock lists (one per distinct `stock` array). */
function encodeProblem(p: GuillotineProblem): Float64Array {
  // Parts of one material usually share the very same array: look that up before joining.
  const byArray = new Map<readonly number[], number>();
  const byKey = new Map<string, number>();
  const lists: number[][] = [];
  const partList: number[] = [];
  for (const part of p.parts) {
    let id = byArray.get(part.stock);
    if (id === undefined) {
      const key = part.stock.join(',');
      id = byKey.get(key);
      if (id === undefined) {
        id = lists.length;
        byKey.set(key, id);
        lists.push(part.stock);
      }
      byArray.set(part.stock, id);
    }
    partList.push(id);
  }
  let nRefs = 0;
  for (const l of lists) nRefs += l.length;
  const nS = p.stock.length;
  const nP = p.parts.length;
  const stockBase = HEADER_LEN;
  const partBase = stockBase + nS * STOCK_STRIDE;
  const listBase = partBase + nP * PART_STRIDE;
  const refBase = listBase + lists.length * LIST_STRIDE;
  const a = new Float64Array(refBase + nRefs);
  a[0] = FORMAT_VERSION;
  a[1] = nS;
  a[2] = nP;
  a[3] = p.kerf;
  a[4] = p.firstCut === 'y' ? 1 : 0;
  a[5] = p.maxPhase;
  a[6] = p.headCuts ? 1 : 0;
  a[7] = p.stockSelection === 'smallest' ? 1 : 0;
  a[8] = p.strategy === 'time' ? 1 : 0;
  a[9] = p.seed;
  a[10] = p.budgetMs;
  a[11] = lists.length;
  a[12] = nRefs;
  p.stock.forEach((s, i) => {
    const b = stockBase + i * STOCK_STRIDE;
    a[b] = s.l;
    a[b + 1] = s.w;
    a[b + 2] = s.q;
    a[b + 3] = s.cost;
    a[b + 4] = s.trim.l1;
    a[b + 5] = s.trim.l2;
    a[b + 6] = s.trim.w1;
    a[b + 7] = s.trim.w2;
    a[b + 8] = s.grain;
  });
  p.parts.forEach((part, i) => {
    const b = partBase + i * PART_STRIDE;
    a[b] = part.l;
    a[b + 1] = part.w;
    a[b + 2] = part.q;
    a[b + 3] = part.rotMask[0];
    a[b + 4] = part.rotMask[1];
    a[b + 5] = part.rotMask[2];
    a[b + 6] = partList[i]!;
  });
  let off = 0;
  lists.forEach((l, i) => {
    a[listBase + i * LIST_STRIDE] = off;
    a[listBase + i * LIST_STRIDE + 1] = l.length;
    for (const s of l) a[refBase + off++] = s;
  });
  return a;
}

function decodeSolution(out: Float64Array, startedAt: number, calledAt: number): EngineSolution {
  if (out.length < OUT_HEADER || out[0] !== 0) {
    throw new Error(`kerf engine: input rejected (status ${out.length ? out[0] : 'none'})`);
  }
  const nSheets = out[1]!;
  const nParts = out[7]!;
  const unplaced = Array.from(out.subarray(OUT_HEADER, OUT_HEADER + nParts));
  let pos = OUT_HEADER + nParts;

  const readNode = (): EngineNode => {
    const b = pos;
    pos += NODE_STRIDE;
    const x = out[b + 2]!;
    const y = out[b + 3]!;
    const l = out[b + 4]!;
    const w = out[b + 5]!;
    if (out[b] === KIND_CUT) {
      const n = out[b + 7]!;
      const children: EngineNode[] = [];
      for (let i = 0; i < n; i++) children.push(readNode());
      return { kind: 'cut', along: out[b + 1] === 1 ? 'y' : 'x', x, y, l, w, children };
    }
    return { kind: 'part', x, y, l, w, part: out[b + 6]!, rot: out[b + 1] === 1 ? 1 : 0 };
  };

  const sheets: EngineSheet[] = [];
  for (let s = 0; s < nSheets; s++) {
    const stock = out[pos]!;
    pos += 2; // stock row, node count (the tree is self-delimiting)
    sheets.push({ stock, root: readNode() });
  }
  const offset = calledAt - startedAt;
  return {
    sheets,
    unplaced,
    lowerBound: out[2]!,
    stats: {
      iterations: out[3]!,
      elapsedMs: performance.now() - startedAt,
      timeToBestMs: out[5]! + offset,
      stoppedByDeadline: out[6] === 1,
    },
  };
}

/** Reads an AssemblyScript string (UTF-16, byte length stored just before it). */
function readAsString(memory: WebAssembly.Memory, ptr: number): string {
  if (!ptr) return '';
  const bytes = new Uint32Array(memory.buffer, ptr - 4, 1)[0]!;
  return String.fromCharCode(...new Uint16Array(memory.buffer, ptr, Math.min(bytes >>> 1, 1000)));
}

/**
 * Solves one guillotine problem in a fresh instance of `module` (see loadEngineModule).
 * The engine stops by itself within problem.budgetMs (it keeps a small reserve for this
 * decoding) and always returns a complete solution.
 */
export function solveGuillotine(problem: GuillotineProblem, module: WebAssembly.Module): EngineSolution {
  const startedAt = performance.now();
  const input = encodeProblem(problem);
  let memory: WebAssembly.Memory | undefined;
  const env = {
    now: (): number => performance.now(),
    abort: (msg: number, file: number, line: number, col: number): never => {
      const where = memory ? `${readAsString(memory, file)}:${line}:${col}` : `${line}:${col}`;
      throw new Error(`kerf engine aborted at ${where}: ${memory ? readAsString(memory, msg) : ''}`);
    },
  };
  const instance = new WebAssembly.Instance(module, { env });
  const ex = instance.exports as unknown as EngineExports;
  memory = ex.memory;
  const ptr = ex.inputPtr(input.length);
  new Float64Array(ex.memory.buffer, ptr, input.length).set(input);
  const calledAt = performance.now();
  const len = ex.solveGuillotine();
  // Memory may have grown during the call: take a fresh view of the buffer.
  const out = new Float64Array(ex.memory.buffer, ex.outputPtr(), len);
  return decodeSolution(out, startedAt, calledAt);
}
