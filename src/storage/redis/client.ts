// One node-redis connection per concern, and Lua scripts run by their hash (reloaded when a
// restarted Redis has forgotten them). Every multi-key change that must not be seen half done
// is one script, so it is atomic on the server.
import crypto from 'node:crypto';
import { createClient } from 'redis';

/** Reconnects forever with a capped back-off: a Redis restart pauses kerf, it does not stop it. */
const newClient = (url: string) => createClient({
  url,
  socket: { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) },
});

export type Redis = ReturnType<typeof newClient>;

export async function connectRedis(url: string, onError: (error: Error) => void): Promise<Redis> {
  const client = newClient(url);
  client.on('error', onError);
  await client.connect();
  return client;
}

export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = crypto.createHash('sha1').update(source).digest('hex');
  }

  async run(client: Redis, keys: string[], args: (string | number)[]): Promise<unknown> {
    const options = { keys, arguments: args.map(String) };
    try {
      return await client.evalSha(this.sha, options);
    } catch (error) {
      if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
      return client.eval(this.source, options);
    }
  }
}

/** Deletes every key under a prefix (tests and benchmarks clean up after themselves). */
export async function deletePrefix(client: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  for await (const batch of client.scanIterator({ MATCH: `${escapeGlob(prefix)}*`, COUNT: 500 })) {
    const keys = batch as unknown as string[];
    if (keys.length) deleted += await client.unlink(keys);
  }
  return deleted;
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
