// Format by magic bytes, the extension (or `format`) as tiebreak. OBJ and ASCII STL carry no
// magic, so they need a name or a format; bytes that contradict the named format fail here
// with a message, before any parser runs.
import { ModelError, SUPPORTED_FORMATS, type ModelFormat } from './types.js';

const UNSUPPORTED_HELP = 'Export the model as STEP (preferred: exact solids with names and units) or STL and upload that file';

const EXTENSIONS: Record<string, ModelFormat | 'collada' | '3mf'> = {
  stl: 'stl', obj: 'obj', ply: 'ply', gltf: 'gltf', glb: 'gltf', step: 'step', stp: 'step', dae: 'collada', '3mf': '3mf',
};

/** What the format query parameter takes (any letter case). */
export const FORMAT_NAMES = Object.keys(EXTENSIONS) as [string, ...string[]];

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.max(0, Math.min(length, bytes.length - start))).toString('latin1');
}

function unsupported(format: string): ModelError {
  const label = format === 'collada' ? 'Collada (.dae)' : '3MF (.3mf)';
  return new ModelError(415, `${label} files are not supported; supported formats: ${SUPPORTED_FORMATS.join(', ')}`, {
    format, supported: [...SUPPORTED_FORMATS], help: UNSUPPORTED_HELP,
  });
}

function isBinaryStl(bytes: Uint8Array): boolean {
  if (bytes.length < 84) return false;
  const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
  return 84 + 50 * n === bytes.length;
}

/** What the bytes themselves say, if anything. */
function sniff(bytes: Uint8Array): ModelFormat | 'collada' | '3mf' | 'zip' | undefined {
  const head = ascii(bytes, 0, 512);
  if (head.startsWith('ISO-10303-21')) return 'step';
  if (/^ply\r?\n/.test(head)) return 'ply';
  if (head.startsWith('glTF')) return 'gltf';
  if (head.startsWith('PK\u0003\u0004')) return head.includes('3D/3dmodel.model') || head.includes('[Content_Types].xml') ? '3mf' : 'zip';
  const text = head.trimStart();
  if (text.startsWith('<') && /<COLLADA/i.test(ascii(bytes, 0, 4096))) return 'collada';
  if (text.startsWith('{') && /"asset"\s*:/.test(ascii(bytes, 0, 1 << 20))) return 'gltf';
  if (isBinaryStl(bytes)) return 'stl';
  return undefined;
}

export function extensionOf(filename: string | undefined): string | undefined {
  const match = filename ? /\.([a-z0-9]+)$/i.exec(filename.trim()) : null;
  return match ? match[1].toLowerCase() : undefined;
}

export interface Detected {
  format: ModelFormat;
  warning?: string;
}

export function detectFormat(bytes: Uint8Array, filename?: string, forced?: string): Detected {
  if (bytes.length === 0) throw new ModelError(400, 'The request body is empty; send the model file itself as the body');
  const ext = extensionOf(filename);
  const fromName = forced ? EXTENSIONS[forced.toLowerCase()] ?? forced.toLowerCase() : ext ? EXTENSIONS[ext] : undefined;
  if (forced && !(forced.toLowerCase() in EXTENSIONS)) {
    throw new ModelError(400, `Unknown format "${forced}"; supported formats: ${SUPPORTED_FORMATS.join(', ')}`, { supported: [...SUPPORTED_FORMATS] });
  }
  const sniffed = sniff(bytes);
  if (sniffed === 'collada' || sniffed === '3mf') throw unsupported(sniffed);
  if (sniffed === 'zip') {
    if (fromName === '3mf') throw unsupported('3mf');
    throw new ModelError(400, 'The file is a ZIP archive, not a model; upload the model file itself');
  }
  if (sniffed) {
    const warning = fromName && fromName !== sniffed
      ? `The file's bytes are ${sniffed.toUpperCase()}, not ${String(fromName).toUpperCase()} as its name or format says; it was read as ${sniffed.toUpperCase()}`
      : undefined;
    return { format: sniffed, warning };
  }
  if (fromName === 'collada' || fromName === '3mf') throw unsupported(fromName);
  const head = ascii(bytes, 0, 4096);
  const printable = !/[\u0000-\u0008\u000e-\u001f]/.test(head);
  if (!fromName) {
    const hint = printable && /^\s*solid\b/.test(head) ? 'it looks like ASCII STL'
      : printable && /^\s*(v|o|g|#|mtllib)\s/m.test(head) ? 'it looks like OBJ' : 'its bytes carry no known signature';
    throw new ModelError(400, `Cannot tell the model format: ${hint}; send the filename or format query parameter (obj, stl, ply, gltf, step)`, {
      supported: [...SUPPORTED_FORMATS],
    });
  }
  const named = filename ? `"${filename}"` : `format=${forced}`;
  switch (fromName) {
    case 'stl':
      if (printable && /^\s*solid\b/.test(head)) return { format: 'stl' };
      if (bytes.length >= 84) {
        const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
        throw new ModelError(400, `${named} is neither ASCII STL (no "solid" line) nor binary STL (its header counts ${n} triangles, which need ${84 + 50 * n} bytes; the file has ${bytes.length})`);
      }
      throw new ModelError(400, `${named} is not an STL file: ${bytes.length} bytes, shorter than a binary STL header and not ASCII STL`);
    case 'obj':
      if (printable && /^\s*(v|f)\s/m.test(ascii(bytes, 0, 1 << 16))) return { format: 'obj' };
      throw new ModelError(400, `${named} is not an OBJ file: no "v" or "f" lines${printable ? '' : ' (the bytes are binary)'}`);
    case 'ply':
      throw new ModelError(400, `${named} is not a PLY file: it does not start with "ply"`);
    case 'gltf':
      throw new ModelError(400, `${named} is not glTF: neither a GLB ("glTF" magic) nor glTF JSON with an "asset" object`);
    case 'step':
      throw new ModelError(400, `${named} is not a STEP file: it does not start with "ISO-10303-21"`);
  }
  throw new ModelError(400, `Cannot tell the model format of ${named}; supported formats: ${SUPPORTED_FORMATS.join(', ')}`);
}
