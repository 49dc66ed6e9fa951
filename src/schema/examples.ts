// The README's example requests, shown as examples in the OpenAPI document. A test checks that
// the README sends exactly these, and the typed client example submits them.
export const SHEET_EXAMPLE = {
  saw: { cutType: 'guillotine', stockType: 'sheet', bladeWidth: 4, cutPreference: 'l' },
  stock: [{ l: 2800, w: 2070, t: 18, material: 'MDF', trim: { l1: 10, l2: 10, w1: 10, w2: 10 } }],
  parts: [
    { l: 720, w: 560, t: 18, q: 4, name: 'side', material: 'MDF' },
    { l: 716, w: 396, t: 18, q: 4, name: 'door', material: 'MDF', grain: 'l' },
  ],
};

export const LINEAR_EXAMPLE = {
  saw: { stockType: 'linear', bladeWidth: 4 },
  stock: [
    { l: 4800, w: 45, t: 95, material: 'C24', trim: { l1: 20, l2: 20 } },
    { l: 3600, w: 45, t: 95, material: 'C24', q: 4 },
  ],
  parts: [
    { l: 2400, w: 45, t: 95, q: 6, name: 'stud', material: 'C24' },
    { l: 1180, w: 45, t: 95, q: 8, name: 'nogging', material: 'C24' },
  ],
};

export const NESTING_EXAMPLE = {
  saw: {
    cutType: 'nesting', stockType: 'sheet', bladeWidth: 6, options: { minSpacing: 2 },
    nestingOptions: { freeRotation: false, mirror: false },
  },
  stock: [{ l: 2440, w: 1220, q: 5, trim: { l1: 5, l2: 5, w1: 5, w2: 5 } }],
  parts: [
    {
      l: 300, w: 200, q: 12, name: 'ell',
      outline: [{ x: 0, y: 0 }, { x: 300, y: 0 }, { x: 300, y: 100 }, { x: 100, y: 100 }, { x: 100, y: 200 }, { x: 0, y: 200 }],
    },
    {
      l: 200, w: 200, q: 2, name: 'frame',
      outline: [{ x: 0, y: 0 }, { x: 200, y: 0 }, { x: 200, y: 200 }, { x: 0, y: 200 }],
      holes: [[{ x: 20, y: 20 }, { x: 180, y: 20 }, { x: 180, y: 180 }, { x: 20, y: 180 }]],
    },
  ],
};

/** As OpenAPI media type examples. */
export const REQUEST_EXAMPLES = {
  sheet: { summary: 'Sheets cut on a panel saw (guillotine)', value: SHEET_EXAMPLE },
  linear: { summary: 'Bars cut to length', value: LINEAR_EXAMPLE },
  nesting: { summary: 'True shapes nested on sheets', value: NESTING_EXAMPLE },
};
