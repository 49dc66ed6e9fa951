// The engines' WASM builds: found from this module's own location (src/engine/common under vitest,
// dist/src/engine/common after tsc), compiled once per thread, and instantiated fresh for every task
// with the two imports every engine takes: a clock and an abort that names where it stopped.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const compiled = new Map<string, WebAssembly.Module>();

/** First directory at or above `start` that holds a package.json. */
function packageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`kerf: no package.json above ${start}`);
  }
}

/** build/<name>.wasm, compiled once per thread. */
export function loadWasm(name: string): WebAssembly.Module {
  let module = compiled.get(name);
  if (module) return module;
  const file = join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'build', `${name}.wasm`);
  if (!existsSync(file)) throw new Error(`kerf: ${file} is missing; build the engines with: make build`);
  module = new WebAssembly.Module(readFileSync(file));
  compiled.set(name, module);
  return module;
}

/** Reads an AssemblyScript string (UTF-16, byte length stored just before it). */
function readAsString(memory: WebAssembly.Memory, ptr: number): string {
  if (!ptr) return '';
  const bytes = new Uint32Array(memory.buffer, ptr - 4, 1)[0]!;
  return String.fromCharCode(...new Uint16Array(memory.buffer, ptr, Math.min(bytes >>> 1, 1000)));
}

/** A fresh instance: memory never outlives the task. `label` names the engine in abort errors. */
export function instantiate<T extends { memory: WebAssembly.Memory }>(module: WebAssembly.Module, label: string): T {
  // The abort handler reads the instance's memory, which exists only once the instance does.
  const made: { memory?: WebAssembly.Memory } = {};
  const env = {
    now: (): number => performance.now(),
    abort: (msg: number, file: number, line: number, col: number): never => {
      const memory = made.memory;
      const where = memory ? `${readAsString(memory, file)}:${line}:${col}` : `${line}:${col}`;
      throw new Error(`kerf ${label} aborted at ${where}: ${memory ? readAsString(memory, msg) : ''}`);
    },
  };
  const exports = new WebAssembly.Instance(module, { env }).exports as unknown as T;
  made.memory = exports.memory;
  return exports;
}

/** The flat-array calling convention of the solver engines: inputs in, one call, outputs out. */
export interface FlatEngine {
  memory: WebAssembly.Memory;
  inputPtr(n: number): number;
  outputPtr(): number;
}

/**
 * Copies `input` into a fresh instance, runs `call` (which returns the output length) and
 * returns the output, viewed after the call because memory may have grown during it, and
 * how large the instance's memory grew.
 */
export function runFlat<T extends FlatEngine>(module: WebAssembly.Module, label: string, input: Float64Array, call: (engine: T) => number): { out: Float64Array; calledAt: number; memoryBytes: number } {
  const engine = instantiate<T>(module, label);
  // The allocation may grow memory, which detaches the old buffer: view memory.buffer only after it.
  const at = engine.inputPtr(input.length);
  new Float64Array(engine.memory.buffer, at, input.length).set(input);
  const calledAt = performance.now();
  const length = call(engine);
  return { out: new Float64Array(engine.memory.buffer, engine.outputPtr(), length), calledAt, memoryBytes: engine.memory.buffer.byteLength };
}
