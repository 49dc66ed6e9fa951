// The number ranges of src/schema/limits.ts: docs/operations.md lists each one as it is, and
// the request schema enforces each bound on both sides (numbers and numeric strings alike).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RANGES } from '../../src/schema/limits.js';
import { calculationRequest } from '../../src/schema/request.js';

const docs = fs.readFileSync(path.join(__dirname, '../../docs/operations.md'), 'utf8');
const shown = (n: number) => (Math.abs(n) >= 1e12 ? n.toExponential().replace('e+', 'e') : n.toLocaleString('en'));

describe('number ranges', () => {
  it('docs/operations.md shows every range as the table has it', () => {
    for (const [key, range] of Object.entries(RANGES)) {
      const name = key.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
      const max = `${shown(range.max)}${'int' in range && range.int ? ' (whole)' : ''}`;
      expect(docs, key).toContain(`| ${name} | ${shown(range.min)} | ${max} |`);
    }
  });

  it('the schema takes each bound and refuses what lies beyond it', () => {
    const base = { stock: [{ l: 2440, w: 1220 }], parts: [{ l: 600, w: 400 }] };
    const at = (value: number | string) => ({ ...base, saw: { bladeWidth: value } });
    expect(calculationRequest.safeParse(at(RANGES.gap.max)).success).toBe(true);
    expect(calculationRequest.safeParse(at('1000')).success).toBe(true);
    expect(calculationRequest.safeParse(at(RANGES.gap.max + 0.001)).success).toBe(false);
    expect(calculationRequest.safeParse(at('1000.5')).success).toBe(false);
    const part = (l: number) => ({ ...base, parts: [{ l, w: 400 }] });
    expect(calculationRequest.safeParse(part(RANGES.size.min)).success).toBe(true);
    expect(calculationRequest.safeParse(part(RANGES.size.min / 2)).success).toBe(false);
    expect(calculationRequest.safeParse(part(RANGES.size.max)).success).toBe(true);
    expect(calculationRequest.safeParse(part(RANGES.size.max * 1.000001)).success).toBe(false);
  });

  it('a signed string breaks the limit as its number does, and says so', () => {
    const base = { stock: [{ l: 2440, w: 1220 }], parts: [{ l: 600, w: 400 }] };
    const message = (searchTime: number | string) => {
      const parsed = calculationRequest.safeParse({ ...base, saw: { options: { searchTime } } });
      return parsed.success ? 'accepted' : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    };
    expect(message('-1')).toBe(message(-1));
    expect(message('-1')).toBe('saw.options.searchTime: must be greater than 0');
    expect(message(' - 1/2')).toBe('saw.options.searchTime: must be greater than 0');
    expect(message('-x')).toBe('saw.options.searchTime: expected a number, got "-x"');
    expect(message('2')).toBe('accepted');
  });
});
