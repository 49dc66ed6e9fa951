// Word fields as SmartCut clients send them: enum values in any letter case with spaces around
// ("SHEET", " L "), legacy words, and the several spellings of "no lock". Each is a union of
// the canonical enum and one regular expression for the legacy spellings, so the OpenAPI
// document lists exactly what the server accepts, and the parsed value is canonical.
import { z } from 'zod';

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** "Sheet" -> "[sS][hH][eE][eE][tT]": JSON Schema patterns have no case-insensitive flag. */
const anyCase = (word: string) => [...word].map((c) => (c.toLowerCase() === c.toUpperCase() ? escape(c) : `[${c.toLowerCase()}${c.toUpperCase()}]`)).join('');
export const wordsPattern = (words: readonly string[], emptyToo = false) =>
  new RegExp(`^\\s*(?:${words.map(anyCase).join('|')})${emptyToo ? '?' : ''}\\s*$`);

/**
 * One of `values`, in any letter case and with spaces around; `legacy` words are accepted the
 * same way and passed on lowercased for the caller to map.
 */
export function caseless<const T extends readonly [string, ...string[]], const L extends readonly string[] = []>(values: T, legacy?: L) {
  const message = `must be one of ${values.join(', ')}`;
  const others = legacy ?? [];
  const loose = z.string()
    .regex(wordsPattern([...values, ...others]), message)
    .describe(`Legacy spellings: any letter case, spaces around${others.length ? `; also ${others.join(', ')}` : ''}.`);
  return z.union([z.enum(values), loose], { error: message })
    .transform((value) => value.trim().toLowerCase() as T[number] | L[number]);
}

export type Direction = '' | 'l' | 'w';
const NO_LOCK = ['n', 'none'];

/**
 * A grain or orientation lock: "l", "w" or "" (none). Legacy: any case; null, "n", "none" and
 * blanks mean none; `alsoNone` adds words that mean none here (stock grain "y").
 */
export function direction(alsoNone: readonly string[] = []) {
  const none = [...NO_LOCK, ...alsoNone];
  const loose = z.string()
    .regex(wordsPattern(['l', 'w', ...none], true), 'must be l, w or "" (no lock)')
    .describe(`Legacy spellings: any letter case, spaces around; ${none.map((w) => `"${w}"`).join(', ')} and blanks mean no lock.`);
  return z.union([z.enum(['', 'l', 'w']), z.null().describe('Legacy: no lock.'), loose], { error: 'must be l, w or "" (no lock)' })
    .transform((value): Direction => {
      const word = (value ?? '').trim().toLowerCase();
      return word === 'l' || word === 'w' ? word : '';
    });
}
