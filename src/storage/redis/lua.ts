// The Lua scripts of the Redis adapters, one file each under lua/<concern>/<name>.lua (KEYS and
// ARGV described at the top of each). A line `--! include <concern>/<name>` pastes a shared
// helper in. The build copies lua/ beside the compiled code (make build), so this reads it
// relative to itself both from src/ (tests) and from dist/.
import { readFileSync } from 'node:fs';
import { LuaScript } from './client.js';

const DIR = new URL('./lua/', import.meta.url);

function source(name: string, seen: string[] = []): string {
  if (seen.includes(name)) throw new Error(`lua include cycle: ${[...seen, name].join(' -> ')}`);
  const text = readFileSync(new URL(`${name}.lua`, DIR), 'utf8');
  return text.replace(/^--! include (\S+)$/gm, (_, inner: string) => source(inner, [...seen, name]).trimEnd());
}

/** The script lua/<name>.lua, with its includes, read once at startup. */
export function luaScript(name: string): LuaScript {
  return new LuaScript(source(name));
}
