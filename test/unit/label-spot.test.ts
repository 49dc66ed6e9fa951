// Where a part's label goes, on seeded shapes with known answers: L shapes, U shapes and frames
// of random proportions, with random drill holes. The label's point must lie in the material,
// clear of holes and drills; the fitted box too; and in an L or U it lands in the widest arm,
// whose half width (or half length, when shorter) is the known clearance.
import { describe, expect, it } from 'vitest';
import { boxClear, clearance, fitScale, pole, type Region } from '../../src/exports/label-spot.js';

function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const rect = (x: number, y: number, w: number, h: number) => [{ x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h }];

/** A shape and the largest circle that fits in it (known by construction). */
function generated(seed: number): { region: Region; clearance: number; kind: string } {
  const r = random(seed);
  const kind = ['L', 'U', 'frame'][seed % 3];
  const W = 200 + r() * 1800, H = 200 + r() * 1800;
  if (kind === 'L') {
    // Arms a (vertical, along the left) and b (horizontal, along the bottom).
    const a = W * (0.1 + r() * 0.4), b = H * (0.1 + r() * 0.4);
    const outline = [{ x: 0, y: 0 }, { x: W, y: 0 }, { x: W, y: b }, { x: a, y: b }, { x: a, y: H }, { x: 0, y: H }];
    // An arm a wide and H long holds a circle of min(a, H) / 2; the other, min(b, W) / 2.
    return { region: { outline, holes: [], circles: [] }, clearance: Math.max(Math.min(a, H), Math.min(b, W)) / 2, kind };
  }
  if (kind === 'U') {
    const side = W * (0.1 + r() * 0.2), base = H * (0.1 + r() * 0.3);
    const outline = [{ x: 0, y: 0 }, { x: W, y: 0 }, { x: W, y: H }, { x: W - side, y: H }, { x: W - side, y: base }, { x: side, y: base }, { x: side, y: H }, { x: 0, y: H }];
    return { region: { outline, holes: [], circles: [] }, clearance: Math.max(Math.min(side, H), Math.min(base, W)) / 2, kind };
  }
  const band = Math.min(W, H) * (0.05 + r() * 0.3);
  return { region: { outline: rect(0, 0, W, H), holes: [rect(band, band, W - 2 * band, H - 2 * band)], circles: [] }, clearance: band / 2, kind };
}

describe('label spot (pole of inaccessibility)', () => {
  it('lands in the material, as far from every edge as the widest arm allows, on 300 seeded shapes', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { region, clearance: known, kind } = generated(seed);
      const spot = pole(region, known / 200);
      const d = clearance(spot, region);
      expect(d, `${kind} seed ${seed}: inside the material`).toBeGreaterThan(0);
      expect(d, `${kind} seed ${seed}: clearance ${d} of ${known}`).toBeGreaterThanOrEqual(known * 0.98);
      expect(spot.r).toBeCloseTo(d, 6);
    }
  });

  it('keeps clear of drill holes, and the fitted text box is clear of holes, drills and edges', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const r = random(seed * 7919);
      const W = 300 + r() * 900, H = 200 + r() * 600;
      // Hinge cups and shelf holes, some on the middle where a centred label would go.
      const circles = Array.from({ length: 1 + Math.floor(r() * 5) }, (_, i) => ({
        x: i === 0 ? W / 2 : r() * W, y: i === 0 ? H / 2 : r() * H, r: 2.5 + r() * 15,
      }));
      const region: Region = { outline: rect(0, 0, W, H), holes: [], circles };
      const spot = pole(region, 0.5);
      for (const c of circles) expect(Math.hypot(spot.x - c.x, spot.y - c.y) - c.r, `seed ${seed}`).toBeGreaterThan(0);
      // A label three ems wide: the fitted box is clear, and a tenth larger would not be.
      const s = fitScale(region, spot, 3, 1, 1000);
      expect(s).toBeGreaterThan(0);
      expect(boxClear(region, spot.x, spot.y, (s * 3) / 2, s / 2), `seed ${seed}`).toBe(true);
      if (s < 1000) expect(boxClear(region, spot.x, spot.y, (s * 1.1 * 3) / 2, (s * 1.1) / 2)).toBe(false);
    }
  });

  it('puts a frame\'s label in its band, never in the hole', () => {
    const region: Region = { outline: rect(0, 0, 200, 200), holes: [rect(20, 20, 160, 160)], circles: [] };
    const spot = pole(region, 0.1);
    // In a corner of the band: as far from the outer edges as from the hole's corner, 20√2 / (1 + √2).
    expect(clearance(spot, region)).toBeCloseTo((20 * Math.SQRT2) / (1 + Math.SQRT2), 1);
    const inHole = spot.x > 20 && spot.x < 180 && spot.y > 20 && spot.y < 180;
    expect(inHole).toBe(false);
  });
});
