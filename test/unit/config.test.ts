// The settings a service reads at start: time limits must be positive (0 would end every job
// before its first layout), and a wrong value is refused with the setting's name.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('service settings', () => {
  it('reads the time limits', () => {
    expect(loadConfig({ KERF_JOB_BUDGET_MS: '5000', KERF_DEFAULT_SEARCH_MS: '1.5' })).toMatchObject({ jobBudgetMs: 5000, defaultSearchMs: 1.5 });
    expect(loadConfig({ KERF_DEFAULT_SEARCH_MS: '' }).defaultSearchMs).toBe(10_000);
  });

  it.each([
    ['KERF_DEFAULT_SEARCH_MS', '0', /KERF_DEFAULT_SEARCH_MS must be a number of milliseconds more than 0, got "0"/],
    ['KERF_JOB_BUDGET_MS', '0', /KERF_JOB_BUDGET_MS must be a number of milliseconds more than 0/],
    ['KERF_ANALYSIS_BUDGET_MS', '0', /KERF_ANALYSIS_BUDGET_MS must be a number of milliseconds more than 0/],
    ['KERF_DEFAULT_SEARCH_MS', '-1', /KERF_DEFAULT_SEARCH_MS must be a number of milliseconds more than 0, got "-1"/],
    ['KERF_JOB_BUDGET_MS', '10s', /KERF_JOB_BUDGET_MS must be a number of milliseconds more than 0, got "10s"/],
    ['KERF_JOB_BUDGET_MS', '1e3', /got "1e3"/],
    ['KERF_POOL_THREADS', '0x10', /KERF_POOL_THREADS must be a non-negative number, got "0x10"/],
    ['KERF_RATE_PER_MINUTE', ' 5 ', /KERF_RATE_PER_MINUTE must be a non-negative number/],
  ])('refuses %s=%s', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
