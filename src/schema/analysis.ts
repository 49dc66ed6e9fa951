// The analysis response (POST /v3/model/analysis) as a zod schema, for the OpenAPI document.
// Mirrors src/analysis/types.ts.
import { z } from 'zod';

const unit = z.enum(['mm', 'cm', 'm', 'in', 'ft']);
const point = z.object({ x: z.number(), y: z.number() });

const drillHole = z.object({
  x: z.number().describe('Centre from the left end (along l); for an edge face (2-5), along that edge.'),
  y: z.number().describe('Centre from the bottom edge (along w); for an edge face, across the thickness.'),
  diameter: z.number(),
  face: z.number().int().describe('0 front, 1 back, 2 edge l1, 3 edge l2, 4 edge w1, 5 edge w2.'),
  type: z.enum(['regular', 'hinge', 'shelf']),
  depth: z.number().optional().describe('Absent: a through hole.'),
});

export const analysisPart = z.object({
  name: z.string().optional(),
  l: z.number(),
  w: z.number(),
  t: z.number(),
  q: z.number().int(),
  material: z.string().optional(),
  role: z.enum(['rect', 'nesting', 'fixture']),
  machining: z.object({ holes: z.array(drillHole) }).optional(),
  outline: z.array(point).optional().describe('Part frame: origin bottom-left, x along l, y along w.'),
  holes: z.array(z.array(point)).optional().describe('Non-round cut-outs (and round ones with holes=cut).'),
});

const advice = z.object({
  code: z.enum(['fixture-detected', 'role-uncertain', 'squared-off-waste', 'dimensions-approximate', 'parts-overlap',
    'not-flat-panel', 'open-mesh', 'non-manifold-edge', 'model-too-heavy', 'scanned-mesh-file']),
  severity: z.enum(['info', 'warning', 'error']),
  message: z.string(),
  partIndex: z.number().int().optional(),
  otherPartIndex: z.number().int().optional(),
  penetrationFraction: z.number().optional(),
  wastePct: z.number().optional(),
  confidence: z.number().optional(),
});

export const analysisResponse = z.object({
  version: z.literal('3'),
  model: z.object({
    format: z.enum(['stl', 'obj', 'ply', 'gltf', 'step']),
    units: unit,
    sourceUnits: unit,
    declaredUnits: unit.nullable(),
    suggestedUnits: unit.optional(),
    stats: z.object({
      parts: z.number().int().describe('Part instances found (debris excluded).'),
      rectangular: z.number().int(),
      irregular: z.number().int(),
      unrecognised: z.number().int().describe('Instances measured by a fallback (no flat faces, or not flat).'),
      fixtures: z.number().int(),
      merged: z.number().int().describe('Instances folded into another row by dedupe.'),
      triangles: z.number().int(),
      components: z.number().int(),
      debris: z.number().int(),
      modelDiagonal: z.number(),
      modelSize: z.object({ x: z.number(), y: z.number(), z: z.number() }),
    }),
  }),
  parts: z.array(analysisPart),
  advice: z.array(advice),
  warnings: z.array(z.object({ code: z.string(), message: z.string() })),
}).meta({ id: 'AnalysisResponse' });
