// The flat-array calling convention every solver entry shares (engine-as/index.ts, linear.ts,
// nesting.ts; src/engine/common/wasm.ts's runFlat on the host): the host writes the input at
// inputPtr(n), calls the entry's solve export, which returns the output length, and reads
// that many f64 values at outputPtr(). One fresh instance per task: nothing is reused.

let input: Float64Array = new Float64Array(0);
let output: Float64Array = new Float64Array(0);

/** Allocates the input buffer for n f64 values and returns its address. */
export function inputPtr(n: i32): usize {
  input = new Float64Array(n > 0 ? n : 0);
  return input.dataStart;
}

export function outputPtr(): usize {
  return output.dataStart;
}

/** Runs `solve` on the input buffer and keeps its answer for outputPtr; returns its length in f64s. */
export function run(solve: (input: Float64Array) => Float64Array): i32 {
  output = solve(input);
  return output.length;
}
