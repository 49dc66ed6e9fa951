// Length units of the analysis: factors to millimetres.
export const UNITS = { mm: 1, cm: 10, m: 1000, in: 25.4, ft: 304.8 } as const;
export type Unit = keyof typeof UNITS;
export const UNIT_NAMES = Object.keys(UNITS) as Unit[];

export function isUnit(value: unknown): value is Unit {
  return typeof value === 'string' && Object.hasOwn(UNITS, value);
}

/** Round for the response: about 1 µm whatever the unit. */
export function roundIn(value: number, unit: Unit): number {
  const decimals = { mm: 3, cm: 4, m: 6, in: 5, ft: 6 }[unit];
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
