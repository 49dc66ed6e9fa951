// Do two measured panels share space? Separating-axis test on their oriented boxes; the
// penetration is the smallest overlap over the 15 axes (touching panels overlap by ~0).
import type { MeasuredComponent, Vec3 } from './mesh-engine.js';

interface Box { c: Vec3; a: Vec3[]; e: number[] }

const dot = (p: Vec3, q: Vec3) => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
const cross = (p: Vec3, q: Vec3): Vec3 => [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];

export function boxOf(m: MeasuredComponent): Box {
  const e = [m.l / 2, m.w / 2, m.extent / 2];
  const a = [m.lAxis, m.wAxis, m.normal];
  const c: Vec3 = [0, 1, 2].map((k) => m.origin[k] + a[0][k] * e[0] + a[1][k] * e[1] + a[2][k] * e[2]) as Vec3;
  return { c, a, e };
}

/** Penetration depth in mm (0 when separated or only touching). */
export function penetration(p: Box, q: Box): number {
  const d: Vec3 = [q.c[0] - p.c[0], q.c[1] - p.c[1], q.c[2] - p.c[2]];
  const axes: Vec3[] = [...p.a, ...q.a];
  for (const u of p.a) for (const v of q.a) axes.push(cross(u, v));
  let least = Infinity;
  for (const axis of axes) {
    const len = Math.sqrt(dot(axis, axis));
    if (len < 1e-6) continue;
    const n: Vec3 = [axis[0] / len, axis[1] / len, axis[2] / len];
    const rp = p.e[0] * Math.abs(dot(p.a[0], n)) + p.e[1] * Math.abs(dot(p.a[1], n)) + p.e[2] * Math.abs(dot(p.a[2], n));
    const rq = q.e[0] * Math.abs(dot(q.a[0], n)) + q.e[1] * Math.abs(dot(q.a[1], n)) + q.e[2] * Math.abs(dot(q.a[2], n));
    const overlap = rp + rq - Math.abs(dot(d, n));
    if (overlap <= 0) return 0;
    least = Math.min(least, overlap);
  }
  return least === Infinity ? 0 : least;
}
