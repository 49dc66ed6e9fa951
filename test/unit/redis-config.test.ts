// The settings that switch kerf to Redis: unset means the embedded service; roles other than
// `all` need Redis, and a wrong role is refused at start with the setting's name.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('Redis settings', () => {
  it('leaves the embedded default alone when KERF_REDIS_URL is unset', () => {
    const config = loadConfig({});
    expect(config.redisUrl).toBeUndefined();
    expect(config.role).toBe('all');
  });

  it('reads the URL, prefix and role', () => {
    const config = loadConfig({ KERF_REDIS_URL: 'redis://redis:6379', KERF_REDIS_PREFIX: 'shop-a:', KERF_ROLE: 'worker' });
    expect(config).toMatchObject({ redisUrl: 'redis://redis:6379', redisPrefix: 'shop-a:', role: 'worker' });
    expect(loadConfig({ KERF_REDIS_URL: 'redis://redis:6379' }).redisPrefix).toBe('kerf:');
  });

  it('refuses an unknown role, and a split role without Redis', () => {
    expect(() => loadConfig({ KERF_REDIS_URL: 'redis://redis:6379', KERF_ROLE: 'both' })).toThrow(/KERF_ROLE must be api, worker or all/);
    expect(() => loadConfig({ KERF_ROLE: 'api' })).toThrow(/KERF_ROLE=api needs KERF_REDIS_URL/);
  });
});
