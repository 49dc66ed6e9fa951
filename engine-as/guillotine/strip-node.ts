// The strip packer's layout tree and its flat output (see strip.ts for the layout): cut
// nodes over a region with their children side by side, and parts; a free root
// (KIND_FREE) holds parts placed anywhere, for free placement.

import { NODE_STRIDE, ON_KIND, ON_DIR, ON_X, ON_Y, ON_L, ON_W, ON_PART, ON_CHILDREN } from "../sheets/format";

export { KIND_CUT, KIND_PART, KIND_FREE } from "../sheets/format";
/** Cut lines parallel to x (children stacked along y). */
export const ALONG_X: i32 = 0;
/** Cut lines parallel to y (children side by side along x): the cuts across the roll. */
export const ALONG_Y: i32 = 1;
/** Values per node in the output. */
export const NODE_VALUES: i32 = NODE_STRIDE;

export class Node {
  kind: i32;
  dir: i32;
  x: f64;
  y: f64;
  l: f64;
  w: f64;
  part: i32;
  children: Array<Node> = [];
  constructor(kind: i32, dir: i32, x: f64, y: f64, l: f64, w: f64, part: i32) {
    this.kind = kind;
    this.dir = dir;
    this.x = x;
    this.y = y;
    this.l = l;
    this.w = w;
    this.part = part;
  }
}

export function countNodes(node: Node): i32 {
  let c = 1;
  for (let i = 0; i < node.children.length; i++) c += countNodes(node.children[i]);
  return c;
}

/** Writes the tree in preorder from out[at]; returns the position after it. */
export function writeNode(out: Float64Array, at: i32, node: Node): i32 {
  out[at + ON_KIND] = <f64>node.kind;
  out[at + ON_DIR] = <f64>node.dir;
  out[at + ON_X] = node.x;
  out[at + ON_Y] = node.y;
  out[at + ON_L] = node.l;
  out[at + ON_W] = node.w;
  out[at + ON_PART] = <f64>node.part;
  out[at + ON_CHILDREN] = <f64>node.children.length;
  let j = at + NODE_VALUES;
  for (let i = 0; i < node.children.length; i++) j = writeNode(out, j, node.children[i]);
  return j;
}
