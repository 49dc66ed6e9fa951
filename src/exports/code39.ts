// Code 39: each character is 5 bars and 4 spaces, 3 of them wide, between `*` start and stop
// characters, with a narrow gap between characters. Scanners read it without a check digit.
const WIDE: Record<string, string> = {
  '0': '000110100', '1': '100100001', '2': '001100001', '3': '101100000', '4': '000110001',
  '5': '100110000', '6': '001110000', '7': '000100101', '8': '100100100', '9': '001100100',
  A: '100001001', B: '001001001', C: '101001000', D: '000011001', E: '100011000', F: '001011000',
  G: '000001101', H: '100001100', I: '001001100', J: '000011100', K: '100000011', L: '001000011',
  M: '101000010', N: '000010011', O: '100010010', P: '001010010', Q: '000000111', R: '100000110',
  S: '001000110', T: '000010110', U: '110000001', V: '011000001', W: '111000000', X: '010010001',
  Y: '110010000', Z: '011010000', '-': '010000101', '.': '110000100', ' ': '011000100',
  '$': '010101000', '/': '010100010', '+': '010001010', '%': '000101010', '*': '010010100',
};

export const code39Encodable = (text: string) => [...text.toUpperCase()].every((c) => c !== '*' && c in WIDE);

/** The bars of `text` as [start, width] in narrow-module units (wide = 3), and the total width. */
export function code39(text: string): { bars: [number, number][]; width: number } {
  const bars: [number, number][] = [];
  let at = 0;
  for (const ch of `*${text.toUpperCase()}*`) {
    const pattern = WIDE[ch];
    if (!pattern) throw new Error(`Code 39 cannot encode "${ch}"`);
    for (let i = 0; i < 9; i++) {
      const w = pattern[i] === '1' ? 3 : 1;
      if (i % 2 === 0) bars.push([at, w]);
      at += w;
    }
    at += 1;
  }
  return { bars, width: at - 1 };
}
