// What every reader returns: one triangle soup (corner coordinates in the file's own numbers)
// cut into groups by the file's own structure, plus what the file says about itself.
import type { Unit } from './units.js';

export type ModelFormat = 'stl' | 'obj' | 'ply' | 'gltf' | 'step';
export const SUPPORTED_FORMATS: readonly ModelFormat[] = ['obj', 'stl', 'ply', 'gltf', 'step'];

export interface MeshGroup {
  name?: string;
  material?: string;
  /** First triangle and triangle count in `positions`. */
  start: number;
  count: number;
  /** No structure in the file: split this group into parts by geometry. */
  soup: boolean;
}

export interface FileWarning {
  code: string;
  message: string;
}

export interface ModelMesh {
  format: ModelFormat;
  /** 9 numbers per triangle. */
  positions: Float32Array;
  groups: MeshGroup[];
  /** The unit the file declares (STEP, glTF), null when it declares none. */
  declaredUnits: Unit | null;
  /** Factor from the numbers in `positions` to the declared unit (occt already gives mm). */
  toDeclared: number;
  warnings: FileWarning[];
}

/** A file the server will not or cannot read: status and a message meant for the client. */
export class ModelError extends Error {
  constructor(readonly statusCode: number, message: string, readonly details: Record<string, unknown> = {}) {
    super(message);
  }
}

/** The analysis limit; readers stop at it instead of building a larger soup first. */
export const MAX_TRIANGLES = 2_000_000;

/** The one answer to a model over MAX_TRIANGLES, whichever reader or check finds it. */
export function tooManyTriangles(triangles?: number): ModelError {
  return new ModelError(422, `The model has more than ${MAX_TRIANGLES.toLocaleString('en')} triangles, the limit; export it coarser (a larger chord tolerance) or as STEP`, {
    ...(triangles === undefined ? {} : { triangles }), limit: MAX_TRIANGLES,
  });
}

/** Builds the soup group by group; drops triangles with non-finite corners and says so. */
export class MeshBuilder {
  private data: Float32Array;
  private length = 0;
  readonly groups: MeshGroup[] = [];
  dropped = 0;

  constructor(expectedTriangles = 1024) {
    this.data = new Float32Array(Math.max(9, Math.min(expectedTriangles, MAX_TRIANGLES + 1) * 9));
  }

  get triangles(): number {
    return this.length / 9;
  }

  begin(name: string | undefined, material: string | undefined, soup: boolean): void {
    const last = this.groups[this.groups.length - 1];
    if (last && last.count === 0) this.groups.pop();
    this.groups.push({ name, material, start: this.triangles, count: 0, soup });
  }

  add(ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number): void {
    if (!Number.isFinite(ax + ay + az + bx + by + bz + cx + cy + cz)) {
      this.dropped++;
      return;
    }
    if (this.length + 9 > this.data.length) {
      if (this.length / 9 >= MAX_TRIANGLES) {
        throw tooManyTriangles();
      }
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const d = this.data;
    let i = this.length;
    d[i++] = ax; d[i++] = ay; d[i++] = az; d[i++] = bx; d[i++] = by; d[i++] = bz; d[i++] = cx; d[i++] = cy; d[i++] = cz;
    this.length = i;
    if (this.groups.length === 0) this.begin(undefined, undefined, true);
    this.groups[this.groups.length - 1].count++;
  }

  finish(format: ModelFormat, declaredUnits: Unit | null = null, warnings: FileWarning[] = [], toDeclared = 1): ModelMesh {
    const groups = this.groups.filter((g) => g.count > 0);
    if (this.dropped > 0) {
      warnings.push({ code: 'invalid-coordinates', message: `${this.dropped} triangle(s) with NaN or infinite coordinates were dropped` });
    }
    if (this.triangles === 0) {
      throw new ModelError(400, this.dropped > 0
        ? `The ${format.toUpperCase()} file holds no triangle with finite coordinates`
        : `The ${format.toUpperCase()} file holds no triangles`);
    }
    return { format, positions: this.data.subarray(0, this.length), groups, declaredUnits, toDeclared, warnings };
  }
}

/** Guards a reader against counts a header claims but the bytes cannot hold. */
export function need(condition: boolean, format: string, message: string): asserts condition {
  if (!condition) throw new ModelError(400, `Malformed ${format} file: ${message}`);
}
