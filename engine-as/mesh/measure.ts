// Per-part measurement: thickness axis from the area-weighted face normals (the dominant
// direction cluster, front and back faces together), thickness between the two dominant
// opposite planes, and length and width from the minimum-area rectangle in the panel plane.
import { Welded } from "./weld";
import { Components } from "./components";
import { convexHull, minAreaRect } from "./hull";
import * as M from "./layout";
import { OUT_STRIDE } from "./layout";

const MAX_CLUSTERS = 32;
const SAME_DIR: f64 = 0.9995;   // about 1.8 degrees
const MAX_PLANES = 64;

class Cluster {
  x: f64 = 0; y: f64 = 0; z: f64 = 0; area: f64 = 0;
  cx: f64 = 0; cy: f64 = 0; cz: f64 = 0; // unit direction of the first face
}

export function measureAll(pos: Float32Array, w: Welded, comps: Components, out: Float64Array, base: i32): void {
  const faces = comps.faceComp.length;
  const nc = comps.count;
  // Faces listed per component (counting sort).
  const start = new Int32Array(nc + 1);
  for (let f = 0; f < faces; f++) { const c = unchecked(comps.faceComp[f]); if (c >= 0) unchecked(start[c + 1] = start[c + 1] + 1); }
  for (let c = 0; c < nc; c++) unchecked(start[c + 1] = start[c + 1] + start[c]);
  const fill = new Int32Array(nc);
  const list = new Int32Array(faces);
  for (let f = 0; f < faces; f++) {
    const c = unchecked(comps.faceComp[f]);
    if (c < 0) continue;
    unchecked(list[start[c] + fill[c]] = f);
    unchecked(fill[c] = fill[c] + 1);
  }
  const stamp = new Int32Array(w.count).fill(-1);
  let pu = new Float64Array(1024), pv = new Float64Array(1024);
  const clusters = new Array<Cluster>(MAX_CLUSTERS);
  for (let i = 0; i < MAX_CLUSTERS; i++) clusters[i] = new Cluster();
  const planeD = new Float64Array(MAX_PLANES * 2), planeA = new Float64Array(MAX_PLANES * 2);

  for (let c = 0; c < nc; c++) {
    const o = base + c * OUT_STRIDE;
    const f0 = unchecked(start[c]), f1 = unchecked(start[c + 1]);
    let nClusters = 0;
    let area = 0.0, volume = 0.0;
    let mnx = Infinity, mny = Infinity, mnz = Infinity, mxx = -Infinity, mxy = -Infinity, mxz = -Infinity;
    for (let i = f0; i < f1; i++) {
      const f = unchecked(list[i]);
      const ax = <f64>unchecked(pos[f * 9]), ay = <f64>unchecked(pos[f * 9 + 1]), az = <f64>unchecked(pos[f * 9 + 2]);
      const bx = <f64>unchecked(pos[f * 9 + 3]), by = <f64>unchecked(pos[f * 9 + 4]), bz = <f64>unchecked(pos[f * 9 + 5]);
      const cx = <f64>unchecked(pos[f * 9 + 6]), cy = <f64>unchecked(pos[f * 9 + 7]), cz = <f64>unchecked(pos[f * 9 + 8]);
      mnx = Math.min(mnx, Math.min(ax, Math.min(bx, cx))); mxx = Math.max(mxx, Math.max(ax, Math.max(bx, cx)));
      mny = Math.min(mny, Math.min(ay, Math.min(by, cy))); mxy = Math.max(mxy, Math.max(ay, Math.max(by, cy)));
      mnz = Math.min(mnz, Math.min(az, Math.min(bz, cz))); mxz = Math.max(mxz, Math.max(az, Math.max(bz, cz)));
      const ux = bx - ax, uy = by - ay, uz = bz - az, vx = cx - ax, vy = cy - ay, vz = cz - az;
      let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      volume += (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6.0;
      const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
      if (!(len > 0)) continue;
      const a = len * 0.5;
      area += a;
      nx /= len; ny /= len; nz /= len;
      // Canonical sign: front and back faces fall in one cluster.
      const ab = Math.max(Math.abs(nx), Math.max(Math.abs(ny), Math.abs(nz)));
      const flip = (Math.abs(nx) == ab ? nx : Math.abs(ny) == ab ? ny : nz) < 0;
      if (flip) { nx = -nx; ny = -ny; nz = -nz; }
      let k = 0;
      for (; k < nClusters; k++) {
        const q = unchecked(clusters[k]);
        if (q.cx * nx + q.cy * ny + q.cz * nz > SAME_DIR) break;
      }
      if (k == nClusters) {
        if (nClusters == MAX_CLUSTERS) continue;
        const q = unchecked(clusters[k]);
        q.x = 0; q.y = 0; q.z = 0; q.area = 0; q.cx = nx; q.cy = ny; q.cz = nz;
        nClusters++;
      }
      const q = unchecked(clusters[k]);
      q.x += nx * a; q.y += ny * a; q.z += nz * a; q.area += a;
    }
    let best = -1, bestArea = -1.0;
    for (let k = 0; k < nClusters; k++) if (unchecked(clusters[k]).area > bestArea) { bestArea = unchecked(clusters[k]).area; best = k; }
    let nx = 0.0, ny = 0.0, nz = 1.0;
    if (best >= 0) {
      const q = unchecked(clusters[best]);
      const l = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
      if (l > 0) { nx = q.x / l; ny = q.y / l; nz = q.z / l; }
    }
    // In-plane basis (u, v) with u x v = n.
    let ux: f64, uy: f64, uz: f64;
    if (Math.abs(nx) < 0.9) { ux = 0; uy = nz; uz = -ny; } else { ux = -nz; uy = 0; uz = nx; }
    let ul = Math.sqrt(ux * ux + uy * uy + uz * uz); ux /= ul; uy /= ul; uz /= ul;
    const vx = ny * uz - nz * uy, vy = nz * ux - nx * uz, vz = nx * uy - ny * ux;

    // Faces parallel and perpendicular to the panel, and the planes of the parallel faces.
    let flatArea = 0.0, edgeArea = 0.0;
    let nPlanes = 0;
    for (let i = f0; i < f1; i++) {
      const f = unchecked(list[i]);
      const ax = <f64>unchecked(pos[f * 9]), ay = <f64>unchecked(pos[f * 9 + 1]), az = <f64>unchecked(pos[f * 9 + 2]);
      const bx = <f64>unchecked(pos[f * 9 + 3]) - ax, by = <f64>unchecked(pos[f * 9 + 4]) - ay, bz = <f64>unchecked(pos[f * 9 + 5]) - az;
      const cx = <f64>unchecked(pos[f * 9 + 6]) - ax, cy = <f64>unchecked(pos[f * 9 + 7]) - ay, cz = <f64>unchecked(pos[f * 9 + 8]) - az;
      const mx = by * cz - bz * cy, my = bz * cx - bx * cz, mz = bx * cy - by * cx;
      const len = Math.sqrt(mx * mx + my * my + mz * mz);
      if (!(len > 0)) continue;
      const a = len * 0.5;
      const d = (mx * nx + my * ny + mz * nz) / len;
      if (Math.abs(d) > SAME_DIR) {
        flatArea += a;
        const off = ax * nx + ay * ny + az * nz;
        const side = d > 0 ? 0 : MAX_PLANES;
        let k = 0;
        const count = d > 0 ? (nPlanes & 0xffff) : (nPlanes >> 16);
        for (; k < count; k++) if (Math.abs(unchecked(planeD[side + k]) - off) < 0.01) break;
        if (k == count && count < MAX_PLANES) {
          unchecked(planeD[side + k] = off); unchecked(planeA[side + k] = 0);
          nPlanes += d > 0 ? 1 : 0x10000;
        }
        if (k < MAX_PLANES) unchecked(planeA[side + k] = planeA[side + k] + a);
      } else if (Math.abs(d) < 1 - SAME_DIR) {
        edgeArea += a;
      }
    }
    let topD = NaN, topA = -1.0, botD = NaN, botA = -1.0;
    for (let k = 0; k < (nPlanes & 0xffff); k++) if (unchecked(planeA[k]) > topA) { topA = unchecked(planeA[k]); topD = unchecked(planeD[k]); }
    for (let k = 0; k < (nPlanes >> 16); k++) if (unchecked(planeA[MAX_PLANES + k]) > botA) { botA = unchecked(planeA[MAX_PLANES + k]); botD = unchecked(planeD[MAX_PLANES + k]); }

    // Unique vertices projected on the panel plane, and their extent along n.
    let n = 0;
    let mnN = Infinity, mxN = -Infinity;
    for (let i = f0; i < f1; i++) {
      const f = unchecked(list[i]);
      for (let k = 0; k < 3; k++) {
        const id = unchecked(w.ids[f * 3 + k]);
        if (unchecked(stamp[id]) == c) continue;
        unchecked(stamp[id] = c);
        const fc = unchecked(w.first[id]) * 3;
        const x = <f64>unchecked(pos[fc]), y = <f64>unchecked(pos[fc + 1]), z = <f64>unchecked(pos[fc + 2]);
        if (n == pu.length) {
          const nu = new Float64Array(n * 2), nv = new Float64Array(n * 2);
          nu.set(pu); nv.set(pv); pu = nu; pv = nv;
        }
        unchecked(pu[n] = x * ux + y * uy + z * uz);
        unchecked(pv[n] = x * vx + y * vy + z * vz);
        const s = x * nx + y * ny + z * nz;
        if (s < mnN) mnN = s; if (s > mxN) mxN = s;
        n++;
      }
    }
    const hull = convexHull(pu, pv, n);
    const r = minAreaRect(pu, pv, hull);
    const e0 = r.max0 - r.min0, e1 = r.max1 - r.min1;
    // Length axis in 2D, then in 3D.
    let lx2 = r.dx, ly2 = r.dy, wx2 = -r.dy, wy2 = r.dx;
    let L = e0, W = e1, oL = r.min0, oW = r.min1;
    if (e1 > e0) { lx2 = -r.dy; ly2 = r.dx; wx2 = -r.dx; wy2 = -r.dy; L = e1; W = e0; oL = r.min1; oW = -r.max0; }
    const lX = lx2 * ux + ly2 * vx, lY = lx2 * uy + ly2 * vy, lZ = lx2 * uz + ly2 * vz;
    const wX = wx2 * ux + wy2 * vx, wY = wx2 * uy + wy2 * vy, wZ = wx2 * uz + wy2 * vz;
    const extentT = mxN - mnN;
    const planesFound = topA > 0 && botA > 0;
    const T = planesFound ? Math.abs(topD - botD) : extentT;
    // Origin: the corner at (0, 0) of the rectangle, on the back plane (lowest along n).
    const oX = oL * lX + oW * wX + mnN * nx, oY = oL * lY + oW * wY + mnN * ny, oZ = oL * lZ + oW * wZ + mnN * nz;

    unchecked(out[o + M.C_GROUP] = <f64>comps.group[c]);
    unchecked(out[o + M.C_TRIANGLES] = <f64>(f1 - f0));
    unchecked(out[o + M.C_L] = L); unchecked(out[o + M.C_W] = W); unchecked(out[o + M.C_T] = T);
    unchecked(out[o + M.C_ORIGIN] = oX); unchecked(out[o + M.C_ORIGIN + 1] = oY); unchecked(out[o + M.C_ORIGIN + 2] = oZ);
    unchecked(out[o + M.C_AXIS_L] = lX); unchecked(out[o + M.C_AXIS_L + 1] = lY); unchecked(out[o + M.C_AXIS_L + 2] = lZ);
    unchecked(out[o + M.C_AXIS_W] = wX); unchecked(out[o + M.C_AXIS_W + 1] = wY); unchecked(out[o + M.C_AXIS_W + 2] = wZ);
    unchecked(out[o + M.C_NORMAL] = nx); unchecked(out[o + M.C_NORMAL + 1] = ny); unchecked(out[o + M.C_NORMAL + 2] = nz);
    unchecked(out[o + M.C_AREA] = area); unchecked(out[o + M.C_FLAT_AREA] = flatArea); unchecked(out[o + M.C_EDGE_AREA] = edgeArea);
    unchecked(out[o + M.C_OPEN_EDGES] = <f64>comps.open[c]); unchecked(out[o + M.C_NON_MANIFOLD] = <f64>comps.nonManifold[c]);
    unchecked(out[o + M.C_MIN] = mnx); unchecked(out[o + M.C_MIN + 1] = mny); unchecked(out[o + M.C_MIN + 2] = mnz);
    unchecked(out[o + M.C_MAX] = mxx); unchecked(out[o + M.C_MAX + 1] = mxy); unchecked(out[o + M.C_MAX + 2] = mxz);
    unchecked(out[o + M.C_HULL_AREA] = r.hullArea); unchecked(out[o + M.C_VERTICES] = <f64>n);
    unchecked(out[o + M.C_VOLUME] = Math.abs(volume)); unchecked(out[o + M.C_EXTENT] = extentT);
    unchecked(out[o + M.C_PLANES_FOUND] = planesFound ? 1 : 0);
    unchecked(out[o + M.C_TOP_AREA] = topA); unchecked(out[o + M.C_BOTTOM_AREA] = botA);
  }
}
