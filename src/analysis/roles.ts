// Is this solid sheet goods or a fitting? The shape speaks first: a flat slab of uniform
// thickness with sheet-like proportions is a panel wherever it lies, however it is turned and
// whatever it is named; profiles, discs, small thin plates, curved and chunky solids are
// fittings. Names and materials only decide what the shape leaves open (a material still
// marks a steel plate). The score is in [0, 1]: 0 = surely a panel, 1 = surely a fitting.
import type { MeasuredComponent } from './mesh-engine.js';

const HARDWARE_NAME = /\b(hinges?|handles?|knobs?|screws?|bolts?|nuts?|washers?|dowels?|cams?|confirmats?|pulls?|runners?|slides?|brackets?|hooks?|locks?|magnets?|castors?|casters?|levell?ers?|minifix|rafix|grommets?|hangers?)\b/i;
const HARDWARE_MATERIAL = /\b(steel|metal|brass|chrome|alumin(i)?um|zinc|nickel|iron|stainless|inox)\b/i;

export const FIXTURE_THRESHOLD = 0.6;
/** Thinner than any board sold as sheet goods (hardboard starts at 2.5-3 mm)... */
const THIN_MM = 2.5;
/** ...and this short: a fitting's plate, not a veneer. */
const SMALL_MM = 150;

export interface RoleVerdict {
  fixture: boolean;
  score: number;
  reason: string;
}

/** Share of the surface that is neither parallel nor perpendicular to the panel plane. */
export function curvedShare(c: MeasuredComponent): number {
  return c.area > 0 ? 1 - (c.flatArea + c.edgeArea) / c.area : 0;
}

/** Material well outside the two dominant planes: an L, U or stepped solid, not a slab. */
export function standsOut(c: MeasuredComponent): boolean {
  return c.extent > 2 * c.t + 1;
}

/** A round outline: square box, hull filling about pi/4 of it. */
function roundDisc(c: MeasuredComponent): boolean {
  const box = c.l * c.w;
  return c.w > 0 && c.l / c.w < 1.02 && box > 0 && c.hullArea / box > 0.76 && c.hullArea / box < 0.8;
}

export function fixtureVerdict(c: MeasuredComponent, name: string | undefined, material: string | undefined): RoleVerdict {
  const shape: [number, string][] = [];
  const slab = c.w > 0 ? c.t / c.w : 1;
  // Face-frame rails (40 x 18) are still sheet goods; a 30 x 30 section is a close call.
  if (slab >= 0.8) shape.push([0.9, 'not slab-like']);
  else if (slab > 0.5) shape.push([0.45 + ((slab - 0.5) / 0.3) * 0.3, 'barely slab-like']);
  if (c.l < 15) shape.push([0.85, 'tiny']);
  if (standsOut(c)) shape.push([0.9, `an angled or stepped profile (${round1(c.extent)} mm across, walls ${round1(c.t)} mm)`]);
  if (roundDisc(c)) shape.push([0.85, 'a round disc']);
  if (c.t < THIN_MM && c.l < SMALL_MM) shape.push([0.8, `a small plate ${round1(c.t)} mm thin`]);
  const curved = curvedShare(c);
  // Curved takes many triangles; a few slanted planes are a tapered panel, not a fitting.
  if (c.triangles >= 100 && curved > 0.3) shape.push([0.8, 'mostly curved']);
  else if (c.triangles >= 100 && curved > 0.15) shape.push([0.5, 'partly curved']);
  const density = c.area > 0 ? c.triangles / c.area : 0;
  if (c.triangles > 2000 && density > 1) shape.push([0.7, 'densely tessellated (threads)']);
  const signs = [...shape];
  if (material && HARDWARE_MATERIAL.test(material)) signs.push([0.9, `made of ${material}`]);
  // A name only counts where the shape leaves the question open.
  const flatSlab = shape.length === 0 && c.planesFound && c.extent - c.t <= Math.max(0.5, 0.05 * c.t);
  if (name && HARDWARE_NAME.test(name) && !flatSlab) signs.push([0.95, `named "${name}"`]);
  if (signs.length === 0) return { fixture: false, score: 0, reason: 'a flat panel' };
  signs.sort((a, b) => b[0] - a[0]);
  const [score, reason] = signs[0];
  return { fixture: score >= FIXTURE_THRESHOLD, score, reason };
}

const round1 = (v: number) => Math.round(v * 10) / 10;
