// Is this solid sheet goods or a fitting? A score in [0, 1] from the signs of a fitting: not
// slab-like, curved, tiny, thread-dense, or named or made of what hardware is named and made of.
import type { MeasuredComponent } from './mesh-engine.js';

const HARDWARE_NAME = /\b(hinges?|handles?|knobs?|screws?|bolts?|nuts?|washers?|dowels?|cams?|confirmats?|pulls?|runners?|slides?|brackets?|hooks?|locks?|magnets?|castors?|casters?|levell?ers?|minifix|rafix|grommets?|hangers?)\b/i;
const HARDWARE_MATERIAL = /\b(steel|metal|brass|chrome|alumin(i)?um|zinc|nickel|iron|stainless|inox)\b/i;

export const FIXTURE_THRESHOLD = 0.6;

export interface RoleVerdict {
  fixture: boolean;
  /** Fixture score: 0 = surely a panel, 1 = surely a fitting. */
  score: number;
  reason: string;
}

export function fixtureVerdict(c: MeasuredComponent, name: string | undefined, material: string | undefined): RoleVerdict {
  const signs: [number, string][] = [];
  if (name && HARDWARE_NAME.test(name)) signs.push([0.95, `named "${name}"`]);
  if (material && HARDWARE_MATERIAL.test(material)) signs.push([0.9, `made of ${material}`]);
  const slab = c.w > 0 ? c.t / c.w : 1;
  // Face-frame rails (40 x 18) are still sheet goods; a 30 x 30 section is a close call.
  if (slab >= 0.8) signs.push([0.9, 'not slab-like']);
  else if (slab > 0.5) signs.push([0.45 + ((slab - 0.5) / 0.3) * 0.3, 'barely slab-like']);
  if (c.l < 15) signs.push([0.85, 'tiny']);
  const curved = c.area > 0 ? 1 - (c.flatArea + c.edgeArea) / c.area : 0;
  // Curved takes many triangles; a few slanted planes are a tapered panel, not a fitting.
  if (c.triangles >= 100 && curved > 0.3) signs.push([0.8, 'mostly curved']);
  else if (c.triangles >= 100 && curved > 0.15) signs.push([0.5, 'partly curved']);
  const density = c.area > 0 ? c.triangles / c.area : 0;
  if (c.triangles > 2000 && density > 1) signs.push([0.7, 'densely tessellated (threads)']);
  if (signs.length === 0) return { fixture: false, score: 0, reason: 'a flat panel' };
  signs.sort((a, b) => b[0] - a[0]);
  const [score, reason] = signs[0];
  return { fixture: score >= FIXTURE_THRESHOLD, score, reason };
}
