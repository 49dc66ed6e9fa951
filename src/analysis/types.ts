// The analysis response (docs: shared spec, "Analysis response"): numbers in `units`.
import type { FileWarning, ModelFormat } from '../models/types.js';
import type { Unit } from '../models/units.js';

export type Role = 'rect' | 'nesting' | 'fixture';

export interface Point { x: number; y: number }

export interface DrillHole {
  x: number;
  y: number;
  diameter: number;
  face: number;
  type: 'regular' | 'hinge' | 'shelf';
  depth?: number;
}

export interface AnalysisPart {
  name?: string;
  l: number;
  w: number;
  t: number;
  q: number;
  material?: string;
  role: Role;
  machining?: { holes: DrillHole[] };
  outline?: Point[];
  holes?: Point[][];
}

export interface Advice {
  code: string;
  severity: 'info' | 'warning' | 'error';
  message: string;
  partIndex?: number;
  otherPartIndex?: number;
  penetrationFraction?: number;
  wastePct?: number;
  confidence?: number;
}

export interface AnalysisStats {
  parts: number;
  rectangular: number;
  irregular: number;
  unrecognised: number;
  fixtures: number;
  merged: number;
  triangles: number;
  components: number;
  debris: number;
  modelDiagonal: number;
  modelSize: { x: number; y: number; z: number };
}

export interface AnalysisResponse {
  version: '3';
  model: {
    format: ModelFormat;
    units: Unit;
    sourceUnits: Unit;
    declaredUnits: Unit | null;
    suggestedUnits?: Unit;
    stats: AnalysisStats;
  };
  parts: AnalysisPart[];
  advice: Advice[];
  warnings: FileWarning[];
}

export interface AnalysisOptions {
  units: Unit;
  sourceUnits?: Unit;
  dedupe: boolean;
  mirrorDedupe: boolean;
  bladeWidth?: number;
  holesCut: boolean;
}

/** The analysis ran out of its time budget; the advice gathered so far goes with the refusal. */
export class AnalysisTimeout extends Error {
  constructor(message: string, readonly advice: Advice[]) {
    super(message);
  }
}
