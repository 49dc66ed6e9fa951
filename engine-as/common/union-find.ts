// The root of x's set in a union-find forest (parent[x] == x at a root), halving the path
// on the way so later finds are short.

export function findRoot(parent: Int32Array, x: i32): i32 {
  while (unchecked(parent[x]) != x) {
    const up = unchecked(parent[unchecked(parent[x])]);
    unchecked((parent[x] = up));
    x = up;
  }
  return x;
}
