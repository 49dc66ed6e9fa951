// Long (over 400 lines) because decoding, merging rows into types and splitting into components build one Instance step by step.
// Instance decoding: reads the flat input, drops what can never be used, merges identical
// part rows into item types (so 20,000 instances of a few sizes cost a few types) and
// identical stock rows into stock types, and splits the problem into independent
// components (parts and stock linked by compatibility, usually one per material).

import * as L from "./layout";
import { seedFromF64 } from "../common/rng";
import { sortByKey } from "../common/arrays";
import { findRoot } from "../common/union-find";

export const AXIS_X: i32 = 0;
export const AXIS_Y: i32 = 1;
/** Depth cap when maxPhase is 0 (unlimited); regions shrink each level, so this is never reached in practice. */
export const MAX_STAGE: i32 = 24;
const MAX_Q: f64 = 10000000.0;

export class Instance {
  kerf: f64 = 0;
  firstDir: i32 = AXIS_X;
  maxStage: i32 = MAX_STAGE;
  headCuts: bool = false;
  smallest: bool = false;
  timeStrategy: bool = false;
  seed: u64 = 0;
  budgetMs: f64 = 0;
  /** Effort-limit scale (1 default); 0 = no effort limit, only the budget stops the search. */
  effort: f64 = 1;
  /** Stop rule (H_MODE: a MODE_* code) and its clock limit in ms (0 = the budget only). */
  mode: i32 = 0;
  softMs: f64 = 0;
  /** Repeat each committed sheet pattern while demand and stock allow. */
  repeat: bool = false;
  /** Stock types are band lengths of one strip (see layout.H_STRIP). */
  strip: bool = false;
  /** Absolute tolerance for "fits" comparisons, scaled to the largest dimension. */
  eps: f64 = 1e-9;

  // Original rows (for mapping results back).
  nPartRows: i32 = 0;
  rowQ: Int32Array = new Int32Array(0);
  nStockRows: i32 = 0;

  // Item types (merged part rows).
  nTypes: i32 = 0;
  tL: Float64Array = new Float64Array(0);
  tW: Float64Array = new Float64Array(0);
  tArea: Float64Array = new Float64Array(0);
  tQ: Int32Array = new Int32Array(0);
  /** Rotation masks per stock grain, 3 per type. */
  tRm: Int32Array = new Int32Array(0);
  tList: Int32Array = new Int32Array(0);
  /** Orientations allowed on at least one stock type (what the fit index may offer). */
  tUnion: Int32Array = new Int32Array(0);
  /** Component of the type, -1 when it fits no stock at all. */
  tComp: Int32Array = new Int32Array(0);
  tRowStart: Int32Array = new Int32Array(1);
  tRows: Int32Array = new Int32Array(0);

  // Stock lists (per material), as sorted unique stock types.
  nLists: i32 = 0;
  listStart: Int32Array = new Int32Array(1);
  listStocks: Int32Array = new Int32Array(0);

  // Stock types (merged stock rows).
  nStocks: i32 = 0;
  sL: Float64Array = new Float64Array(0);
  sW: Float64Array = new Float64Array(0);
  sX0: Float64Array = new Float64Array(0);
  sY0: Float64Array = new Float64Array(0);
  sXL: Float64Array = new Float64Array(0);
  sYL: Float64Array = new Float64Array(0);
  sCost: Float64Array = new Float64Array(0);
  sArea: Float64Array = new Float64Array(0);
  /** Sheets available, -1 unlimited. */
  sQ: Int32Array = new Int32Array(0);
  sGrain: Int32Array = new Int32Array(0);
  /** 1: an offcut the shop owns, used before new stock. */
  sOffcut: Int32Array = new Int32Array(0);
  sRowStart: Int32Array = new Int32Array(1);
  sRows: Int32Array = new Int32Array(0);
  /** Original stock row quantities (-1 unlimited) for assigning sheets back to rows. */
  stockRowQ: Int32Array = new Int32Array(0);

  // Components.
  nComps: i32 = 0;
  cTypeStart: Int32Array = new Int32Array(1);
  cTypes: Int32Array = new Int32Array(0);
  /** Stock types of the component, largest sheet area first. */
  cStockStart: Int32Array = new Int32Array(1);
  cStocks: Int32Array = new Int32Array(0);
  cInstances: Int32Array = new Int32Array(0);

  /** Allowed orientations of type t on stock type s (bit 0 rot 0, bit 1 rot 1); 0 = cannot go there. */
  maskOn(t: i32, s: i32): i32 {
    return maskOn(t, s);
  }

  /** Orientation mask from grain rules and geometry only (the caller knows s is in t's list). */
  fitMask(t: i32, s: i32): i32 {
    return fitMask(t, s);
  }

  /** Publishes the arrays to the hot-path accessors below; call once the arrays are final. */
  bind(): void {
    pTL = this.tL.dataStart;
    pTW = this.tW.dataStart;
    pTArea = this.tArea.dataStart;
    pTRm = this.tRm.dataStart;
    pTList = this.tList.dataStart;
    pTUnion = this.tUnion.dataStart;
    pListStart = this.listStart.dataStart;
    pListStocks = this.listStocks.dataStart;
    pSGrain = this.sGrain.dataStart;
    pSXL = this.sXL.dataStart;
    pSYL = this.sYL.dataStart;
    gEps = this.eps;
  }
}

// ---- hot-path accessors ----
// One instance per engine run, read through raw addresses: the search's inner loops then
// touch no managed references (the incremental GC spills those to its shadow stack).

let pTL: usize = 0;
let pTW: usize = 0;
let pTArea: usize = 0;
let pTRm: usize = 0;
let pTList: usize = 0;
let pTUnion: usize = 0;
let pListStart: usize = 0;
let pListStocks: usize = 0;
let pSGrain: usize = 0;
let pSXL: usize = 0;
let pSYL: usize = 0;
let gEps: f64 = 0;

@inline export function typeL(t: i32): f64 {
  return load<f64>(pTL + (<usize>t << 3));
}
@inline export function typeW(t: i32): f64 {
  return load<f64>(pTW + (<usize>t << 3));
}
@inline export function typeArea(t: i32): f64 {
  return load<f64>(pTArea + (<usize>t << 3));
}
@inline export function typeUnion(t: i32): i32 {
  return load<i32>(pTUnion + (<usize>t << 2));
}

/** Allowed orientations of type t on stock type s; 0 = cannot go there. */
export function maskOn(t: i32, s: i32): i32 {
  const li = load<i32>(pTList + (<usize>t << 2));
  let lo = load<i32>(pListStart + (<usize>li << 2));
  let hi = load<i32>(pListStart + (<usize>(li + 1) << 2)) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = load<i32>(pListStocks + (<usize>mid << 2));
    if (v == s) return fitMask(t, s);
    if (v < s) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** Orientation mask from grain rules and geometry only. */
export function fitMask(t: i32, s: i32): i32 {
  let m = load<i32>(pTRm + ((<usize>t * 3 + <usize>load<i32>(pSGrain + (<usize>s << 2))) << 2));
  if (m == 0) return 0;
  const l = typeL(t);
  const w = typeW(t);
  const X = load<f64>(pSXL + (<usize>s << 3)) + gEps;
  const Y = load<f64>(pSYL + (<usize>s << 3)) + gEps;
  if (!(l <= X && w <= Y)) m &= ~1;
  if (!(w <= X && l <= Y)) m &= ~2;
  // A square part looks the same both ways: keep one orientation to halve the branching.
  if (m == 3 && l == w) m = 1;
  return m;
}

// ---- decoding helpers (module-level state stands in for closures in comparators) ----

let gRowF: Float64Array = new Float64Array(0); // per-row normalised keys
let gStride: i32 = 0;
let gSigStart: Int32Array = new Int32Array(0);
let gSig: Int32Array = new Int32Array(0);

function count(v: f64): i32 {
  if (!isFinite(v) || v < 0) return 0;
  return <i32>Math.min(Math.floor(v), 100000000.0);
}

function positive(v: f64): f64 {
  return isFinite(v) && v > 0 ? v : 0.0;
}

function nonNeg(v: f64): f64 {
  return isFinite(v) && v > 0 ? v : 0.0;
}

function cmpKeys(a: i32, b: i32): i32 {
  const ba = a * gStride;
  const bb = b * gStride;
  for (let k = 0; k < gStride; k++) {
    const x = unchecked(gRowF[ba + k]);
    const y = unchecked(gRowF[bb + k]);
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}

function cmpStock(a: i32, b: i32): i32 {
  const c = cmpKeys(a, b);
  if (c != 0) return c;
  // Rows that appear in different stock lists are not interchangeable.
  const sa = unchecked(gSigStart[a]);
  const ea = unchecked(gSigStart[a + 1]);
  const sb = unchecked(gSigStart[b]);
  const eb = unchecked(gSigStart[b + 1]);
  const na = ea - sa;
  const nb = eb - sb;
  const n = na < nb ? na : nb;
  for (let k = 0; k < n; k++) {
    const x = unchecked(gSig[sa + k]);
    const y = unchecked(gSig[sb + k]);
    if (x != y) return x < y ? -1 : 1;
  }
  return na - nb;
}

function cmpStockIdx(a: i32, b: i32): i32 {
  const c = cmpStock(a, b);
  return c != 0 ? c : a - b;
}

function cmpKeysIdx(a: i32, b: i32): i32 {
  const c = cmpKeys(a, b);
  return c != 0 ? c : a - b;
}

/** Decodes the flat input; null when the layout itself is broken (wrong version or length). */
export function decode(inp: Float64Array): Instance | null {
  if (inp.length < L.HEADER_LEN) return null;
  if (<i32>inp[L.H_VERSION] != L.FORMAT_VERSION) return null;
  const nS = count(inp[L.H_NSTOCK]);
  const nP = count(inp[L.H_NPARTS]);
  const nL = count(inp[L.H_NLISTS]);
  const nR = count(inp[L.H_NREFS]);
  // Check the declared sizes against the buffer in f64 first, so the i32 offsets cannot wrap.
  const need = <f64>L.HEADER_LEN + <f64>nS * L.STOCK_STRIDE + <f64>nP * L.PART_STRIDE + <f64>nL * L.LIST_STRIDE + <f64>nR;
  if (<f64>inp.length < need) return null;
  const stockBase = L.HEADER_LEN;
  const partBase = stockBase + nS * L.STOCK_STRIDE;
  const listBase = partBase + nP * L.PART_STRIDE;
  const refBase = listBase + nL * L.LIST_STRIDE;

  const inst = new Instance();
  inst.kerf = nonNeg(inp[L.H_KERF]);
  inst.firstDir = inp[L.H_FIRSTCUT] == 1 ? AXIS_Y : AXIS_X;
  const mp = count(inp[L.H_MAXPHASE]);
  inst.maxStage = mp >= 1 && mp < MAX_STAGE ? mp : MAX_STAGE;
  inst.headCuts = inp[L.H_HEADCUTS] == 1;
  inst.smallest = inp[L.H_SELECTION] == 1;
  inst.timeStrategy = inp[L.H_STRATEGY] == 1;
  inst.seed = seedFromF64(inp[L.H_SEED]);
  inst.budgetMs = nonNeg(inp[L.H_BUDGET]);
  inst.effort = nonNeg(inp[L.H_EFFORT]);
  const mode = <i32>inp[L.H_MODE];
  inst.mode = mode == L.MODE_STALL || mode == L.MODE_SEARCH_TIME ? mode : L.MODE_EFFORT;
  inst.softMs = nonNeg(inp[L.H_SOFT]);
  inst.repeat = inp[L.H_REPEAT] == 1;
  inst.strip = inp[L.H_STRIP] == 1;
  inst.nPartRows = nP;
  inst.nStockRows = nS;

  // ---- stock rows ----
  const SK = 9; // l, w, l1, l2, w1, w2, grain, cost, offcut
  const sKeys = new Float64Array(nS * SK);
  const sValid = new Int32Array(nS);
  const sRowQ = new Int32Array(nS);
  let scale: f64 = 1.0;
  for (let r = 0; r < nS; r++) {
    const b = stockBase + r * L.STOCK_STRIDE;
    const l = positive(inp[b]);
    const w = positive(inp[b + 1]);
    const qv = inp[b + 2];
    const cost = nonNeg(inp[b + 3]);
    const l1 = nonNeg(inp[b + 4]);
    const l2 = nonNeg(inp[b + 5]);
    const w1 = nonNeg(inp[b + 6]);
    const w2 = nonNeg(inp[b + 7]);
    const gv = inp[b + 8];
    const grain = gv == 1 ? 1 : gv == 2 ? 2 : 0;
    let q: i32 = 0;
    if (qv < 0) q = -1;
    else if (isFinite(qv)) q = <i32>Math.min(Math.floor(qv), MAX_Q);
    else if (qv == Infinity) q = -1;
    sRowQ[r] = q;
    const k = r * SK;
    sKeys[k] = l;
    sKeys[k + 1] = w;
    sKeys[k + 2] = l1;
    sKeys[k + 3] = l2;
    sKeys[k + 4] = w1;
    sKeys[k + 5] = w2;
    sKeys[k + 6] = <f64>grain;
    sKeys[k + 7] = cost;
    sKeys[k + 8] = inp[b + 9] == 1 ? 1 : 0;
    const ok = l > 0 && w > 0 && l - w1 - w2 > 0 && w - l1 - l2 > 0 && q != 0;
    sValid[r] = ok ? 1 : 0;
    if (ok) scale = Math.max(scale, Math.max(l, w));
  }
  inst.stockRowQ = sRowQ;

  // ---- part rows (normalised keys: l, w, packed rotation masks, list id) ----
  const PK = 4;
  const pKeys = new Float64Array(nP * PK);
  const pValid = new Int32Array(nP);
  const rowQ = new Int32Array(nP);
  const listUsed = new Int32Array(nL);
  for (let r = 0; r < nP; r++) {
    const b = partBase + r * L.PART_STRIDE;
    const l = positive(inp[b]);
    const w = positive(inp[b + 1]);
    const q = <i32>Math.min(<f64>count(inp[b + 2]), MAX_Q);
    rowQ[r] = q;
    let rm: i32 = 0;
    for (let g = 0; g < 3; g++) {
      const v = inp[b + 3 + g];
      const m = isFinite(v) && v > 0 ? (<i32>Math.min(v, 3.0)) & 3 : 0;
      rm |= m << (g * 2);
    }
    const lv = inp[b + 6];
    const li = isFinite(lv) && lv >= 0 && lv < <f64>nL ? <i32>lv : -1;
    const k = r * PK;
    pKeys[k] = l;
    pKeys[k + 1] = w;
    pKeys[k + 2] = <f64>rm;
    pKeys[k + 3] = <f64>li;
    const ok = l > 0 && w > 0 && q > 0 && li >= 0 && rm != 0;
    pValid[r] = ok ? 1 : 0;
    if (ok) {
      listUsed[li] = 1;
      scale = Math.max(scale, Math.max(l, w));
    }
  }
  inst.rowQ = rowQ;
  inst.eps = 1e-9 * scale;

  // ---- stock signatures: which (used) lists each stock row appears in ----
  const lastSeen = new Int32Array(nS).fill(-1);
  const sigCount = new Int32Array(nS + 1);
  for (let li = 0; li < nL; li++) {
    if (listUsed[li] == 0) continue;
    const off = count(inp[listBase + li * L.LIST_STRIDE]);
    const cnt = count(inp[listBase + li * L.LIST_STRIDE + 1]);
    const end = <i32>Math.min(<f64>off + <f64>cnt, <f64>nR);
    for (let k = off; k < end; k++) {
      const v = inp[refBase + k];
      if (!(v >= 0 && v < <f64>nS)) continue;
      const r = <i32>v;
      if (sValid[r] == 0 || lastSeen[r] == li) continue;
      lastSeen[r] = li;
      sigCount[r + 1]++;
    }
  }
  for (let r = 0; r < nS; r++) sigCount[r + 1] += sigCount[r];
  const sig = new Int32Array(sigCount[nS]);
  const sigFill = new Int32Array(nS);
  lastSeen.fill(-1);
  for (let li = 0; li < nL; li++) {
    if (listUsed[li] == 0) continue;
    const off = count(inp[listBase + li * L.LIST_STRIDE]);
    const cnt = count(inp[listBase + li * L.LIST_STRIDE + 1]);
    const end = <i32>Math.min(<f64>off + <f64>cnt, <f64>nR);
    for (let k = off; k < end; k++) {
      const v = inp[refBase + k];
      if (!(v >= 0 && v < <f64>nS)) continue;
      const r = <i32>v;
      if (sValid[r] == 0 || lastSeen[r] == li) continue;
      lastSeen[r] = li;
      sig[sigCount[r] + sigFill[r]++] = li;
    }
  }

  // ---- merge stock rows into stock types ----
  const sOrder = new Array<i32>();
  for (let r = 0; r < nS; r++) if (sValid[r] == 1 && sigCount[r + 1] > sigCount[r]) sOrder.push(r);
  gRowF = sKeys;
  gStride = SK;
  gSigStart = sigCount;
  gSig = sig;
  sOrder.sort(cmpStockIdx);
  const stockRowType = new Int32Array(nS).fill(-1);
  let nST = 0;
  for (let i = 0; i < sOrder.length; i++) {
    if (i == 0 || cmpStock(sOrder[i - 1], sOrder[i]) != 0) nST++;
    stockRowType[sOrder[i]] = nST - 1;
  }
  inst.nStocks = nST;
  inst.sL = new Float64Array(nST);
  inst.sW = new Float64Array(nST);
  inst.sX0 = new Float64Array(nST);
  inst.sY0 = new Float64Array(nST);
  inst.sXL = new Float64Array(nST);
  inst.sYL = new Float64Array(nST);
  inst.sCost = new Float64Array(nST);
  inst.sArea = new Float64Array(nST);
  inst.sQ = new Int32Array(nST);
  inst.sGrain = new Int32Array(nST);
  inst.sOffcut = new Int32Array(nST);
  inst.sRowStart = new Int32Array(nST + 1);
  inst.sRows = new Int32Array(sOrder.length);
  for (let i = 0; i < sOrder.length; i++) {
    const r = sOrder[i];
    const s = stockRowType[r];
    inst.sRows[i] = r;
    inst.sRowStart[s + 1] = i + 1;
    const k = r * SK;
    const q = sRowQ[r];
    if (i == 0 || stockRowType[sOrder[i - 1]] != s) {
      inst.sL[s] = sKeys[k];
      inst.sW[s] = sKeys[k + 1];
      // Usable region: x in [w1, l - w2], y in [l1, w - l2].
      inst.sX0[s] = sKeys[k + 4];
      inst.sY0[s] = sKeys[k + 2];
      inst.sXL[s] = sKeys[k] - sKeys[k + 4] - sKeys[k + 5];
      inst.sYL[s] = sKeys[k + 1] - sKeys[k + 2] - sKeys[k + 3];
      inst.sGrain[s] = <i32>sKeys[k + 6];
      inst.sCost[s] = sKeys[k + 7];
      inst.sArea[s] = sKeys[k] * sKeys[k + 1];
      inst.sOffcut[s] = <i32>sKeys[k + 8];
      inst.sQ[s] = q;
    } else {
      const cur = inst.sQ[s];
      inst.sQ[s] = cur < 0 || q < 0 ? -1 : <i32>Math.min(<f64>cur + <f64>q, MAX_Q);
    }
  }

  // ---- lists as sorted unique stock types ----
  inst.nLists = nL;
  const listStart = new Int32Array(nL + 1);
  const tmpList = new I32List();
  const listStocks = new Array<i32>();
  for (let li = 0; li < nL; li++) {
    tmpList.clear();
    if (listUsed[li] == 1) {
      const off = count(inp[listBase + li * L.LIST_STRIDE]);
      const cnt = count(inp[listBase + li * L.LIST_STRIDE + 1]);
      const end = <i32>Math.min(<f64>off + <f64>cnt, <f64>nR);
      for (let k = off; k < end; k++) {
        const v = inp[refBase + k];
        if (!(v >= 0 && v < <f64>nS)) continue;
        const s = stockRowType[<i32>v];
        if (s >= 0) tmpList.push(s);
      }
      tmpList.sortUnique();
      for (let k = 0; k < tmpList.len; k++) listStocks.push(tmpList.a[k]);
    }
    listStart[li + 1] = listStocks.length;
  }
  inst.listStart = listStart;
  inst.listStocks = new Int32Array(listStocks.length);
  for (let k = 0; k < listStocks.length; k++) inst.listStocks[k] = listStocks[k];

  // ---- merge part rows into item types ----
  const pOrder = new Array<i32>();
  for (let r = 0; r < nP; r++) if (pValid[r] == 1) pOrder.push(r);
  gRowF = pKeys;
  gStride = PK;
  pOrder.sort(cmpKeysIdx);
  let nT = 0;
  const rowType = new Int32Array(nP).fill(-1);
  for (let i = 0; i < pOrder.length; i++) {
    if (i == 0 || cmpKeys(pOrder[i - 1], pOrder[i]) != 0) nT++;
    rowType[pOrder[i]] = nT - 1;
  }
  inst.nTypes = nT;
  inst.tL = new Float64Array(nT);
  inst.tW = new Float64Array(nT);
  inst.tArea = new Float64Array(nT);
  inst.tQ = new Int32Array(nT);
  inst.tRm = new Int32Array(nT * 3);
  inst.tList = new Int32Array(nT);
  inst.tUnion = new Int32Array(nT);
  inst.tComp = new Int32Array(nT).fill(-1);
  inst.tRowStart = new Int32Array(nT + 1);
  inst.tRows = new Int32Array(pOrder.length);
  for (let i = 0; i < pOrder.length; i++) {
    const r = pOrder[i];
    const t = rowType[r];
    inst.tRows[i] = r;
    inst.tRowStart[t + 1] = i + 1;
    const k = r * PK;
    if (i == 0 || rowType[pOrder[i - 1]] != t) {
      inst.tL[t] = pKeys[k];
      inst.tW[t] = pKeys[k + 1];
      inst.tArea[t] = pKeys[k] * pKeys[k + 1];
      const rm = <i32>pKeys[k + 2];
      inst.tRm[t * 3] = rm & 3;
      inst.tRm[t * 3 + 1] = (rm >> 2) & 3;
      inst.tRm[t * 3 + 2] = (rm >> 4) & 3;
      inst.tList[t] = <i32>pKeys[k + 3];
    }
    inst.tQ[t] = <i32>Math.min(<f64>inst.tQ[t] + <f64>rowQ[r], MAX_Q);
  }

  inst.bind();

  // ---- components: union the stock types each type can actually use ----
  // A stock type is useful when some type fits it; the useful stocks of one list form one
  // component (one union pass per list, not per type and stock).
  const parent = new Int32Array(nST);
  for (let s = 0; s < nST; s++) parent[s] = s;
  const useful = new Int32Array(nST);
  const firstStock = new Int32Array(nT).fill(-1);
  for (let t = 0; t < nT; t++) {
    const li = inst.tList[t];
    for (let k = inst.listStart[li]; k < inst.listStart[li + 1]; k++) {
      const s = inst.listStocks[k];
      const fm = inst.fitMask(t, s);
      if (fm == 0) continue;
      inst.tUnion[t] |= fm;
      useful[s] = 1;
      if (firstStock[t] < 0) firstStock[t] = s;
    }
  }
  const listDone = new Int32Array(nL);
  for (let t = 0; t < nT; t++) {
    const li = inst.tList[t];
    if (listDone[li] == 1) continue;
    listDone[li] = 1;
    let anchor = -1;
    for (let k = inst.listStart[li]; k < inst.listStart[li + 1]; k++) {
      const s = inst.listStocks[k];
      if (useful[s] == 0) continue;
      if (anchor < 0) {
        anchor = s;
        continue;
      }
      const a = findRoot(parent, anchor);
      const b = findRoot(parent, s);
      if (a != b) parent[a < b ? b : a] = a < b ? a : b;
    }
  }
  const rootComp = new Int32Array(nST).fill(-1);
  let nC = 0;
  for (let t = 0; t < nT; t++) {
    if (firstStock[t] < 0) continue;
    const root = findRoot(parent, firstStock[t]);
    if (rootComp[root] < 0) rootComp[root] = nC++;
    inst.tComp[t] = rootComp[root];
  }
  inst.nComps = nC;
  const cTypeStart = new Int32Array(nC + 1);
  const cInst = new Int32Array(nC);
  for (let t = 0; t < nT; t++) {
    const c = inst.tComp[t];
    if (c >= 0) {
      cTypeStart[c + 1]++;
      cInst[c] = <i32>Math.min(<f64>cInst[c] + <f64>inst.tQ[t], MAX_Q);
    }
  }
  for (let c = 0; c < nC; c++) cTypeStart[c + 1] += cTypeStart[c];
  const cTypes = new Int32Array(cTypeStart[nC]);
  const fillC = new Int32Array(nC);
  for (let t = 0; t < nT; t++) {
    const c = inst.tComp[t];
    if (c >= 0) cTypes[cTypeStart[c] + fillC[c]++] = t;
  }
  inst.cTypeStart = cTypeStart;
  inst.cTypes = cTypes;
  inst.cInstances = cInst;

  const cStockStart = new Int32Array(nC + 1);
  const stockComp = new Int32Array(nST).fill(-1);
  for (let s = 0; s < nST; s++) {
    if (useful[s] == 0) continue;
    const c = rootComp[findRoot(parent, s)];
    if (c < 0) continue;
    stockComp[s] = c;
    cStockStart[c + 1]++;
  }
  for (let c = 0; c < nC; c++) cStockStart[c + 1] += cStockStart[c];
  const cStocks = new Int32Array(cStockStart[nC]);
  fillC.fill(0);
  // Largest first, ties by index, via the stable key sort on negated areas.
  const byArea = new Int32Array(nST);
  const areaKey = new Float64Array(nST);
  for (let s = 0; s < nST; s++) {
    byArea[s] = s;
    areaKey[s] = -inst.sArea[s];
  }
  sortIdx(byArea, nST, areaKey);
  for (let i = 0; i < nST; i++) {
    const s = byArea[i];
    const c = stockComp[s];
    if (c >= 0) cStocks[cStockStart[c] + fillC[c]++] = s;
  }
  inst.cStockStart = cStockStart;
  inst.cStocks = cStocks;
  return inst;
}

// Small helpers local to decoding.

class I32List {
  a: Int32Array = new Int32Array(16);
  len: i32 = 0;
  push(v: i32): void {
    if (this.len == this.a.length) {
      const b = new Int32Array(this.len * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.len++] = v;
  }
  clear(): void {
    this.len = 0;
  }
  sortUnique(): void {
    if (this.len == 0) return;
    const v = this.a.subarray(0, this.len);
    v.sort();
    let n = 1;
    for (let i = 1; i < this.len; i++) if (this.a[i] != this.a[n - 1]) this.a[n++] = this.a[i];
    this.len = n;
  }
}

function sortIdx(idx: Int32Array, n: i32, key: Float64Array): void {
  const tmp = new Int32Array(n > 0 ? n : 1);
  sortByKey(idx, n, key, tmp);
}
