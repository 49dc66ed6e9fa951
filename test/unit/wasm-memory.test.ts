// The engines' flat calling convention when the input is large enough that allocating it
// grows the instance's memory (issue 34 point 2): the input must be written through a view
// of the memory taken after the allocation ("Cannot perform Construct on a detached
// ArrayBuffer" before), and arrive whole.
import { describe, expect, it } from 'vitest';
import { loadWasm, runFlat, type FlatEngine } from '../../src/engine/common/wasm.js';

describe('runFlat', () => {
  for (const name of ['engine', 'linear', 'nesting']) {
    it(`copies an input larger than the initial memory into the ${name} engine`, () => {
      // 300,000 values (2.4 MB) against a 1 MB initial memory: the allocation must grow it.
      const input = Float64Array.from({ length: 300_000 }, (_, i) => i + 0.5);
      let found = -1;
      let whole = false;
      const { memoryBytes } = runFlat<FlatEngine>(loadWasm(name), name, input, (engine) => {
        // The engine's view: memory as it is now, searched for the first value.
        const memory = new Float64Array(engine.memory.buffer);
        found = memory.indexOf(0.5);
        whole = found >= 0 && memory.subarray(found, found + input.length).every((v, i) => v === input[i]);
        return 0;
      });
      expect(memoryBytes).toBeGreaterThan(input.byteLength);
      expect(found).toBeGreaterThanOrEqual(0);
      expect(whole).toBe(true);
    });
  }
});
