// Reads and writes straight from a typed array's memory, given its dataStart. The hot loops
// use these: the standard element accessors are bounds-checked calls that the optimiser does
// not always inline. Indices are never checked: callers keep them in range.

@inline export function f64At(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}

@inline export function setF64At(base: usize, i: i32, v: f64): void {
  store<f64>(base + (<usize>i << 3), v);
}

@inline export function f32At(base: usize, i: i32): f32 {
  return load<f32>(base + (<usize>i << 2));
}

@inline export function i32At(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}

@inline export function setI32At(base: usize, i: i32, v: i32): void {
  store<i32>(base + (<usize>i << 2), v);
}

/** Element i of an array of references (Array<T>.dataStart). */
@inline export function refAt<T>(base: usize, i: i32): T {
  return changetype<T>(load<usize>(base + (<usize>i << alignof<usize>())));
}
