import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RUNNER_SETTINGS, disabledRules, loadRunnerSettings } from './settings';

const root = mkdtempSync(join(tmpdir(), 'erasmus-rs-'));
const write = (value: unknown) => {
  mkdirSync(join(root, '.erasmus'), { recursive: true });
  writeFileSync(join(root, '.erasmus', 'settings.json'), typeof value === 'string' ? value : JSON.stringify(value));
};
afterEach(() => rmSync(join(root, '.erasmus'), { recursive: true, force: true }));

describe('loadRunnerSettings', () => {
  it('defaults without a file, review on', async () => {
    expect(await loadRunnerSettings(root)).toEqual(DEFAULT_RUNNER_SETTINGS);
    expect(DEFAULT_RUNNER_SETTINGS.review).toBe(true);
  });
  it('reads the runners key and leaves other keys to their parts', async () => {
    write({ files: { anything: 1 }, runners: { review: false, rewrite: { disabled: ['npm'] } } });
    const s = await loadRunnerSettings(root);
    expect(s.review).toBe(false);
    expect([...disabledRules(s)]).toEqual(['npm']);
  });
  it('names what is wrong', async () => {
    write('{ nope');
    await expect(loadRunnerSettings(root)).rejects.toThrow(/settings\.json is not valid JSON/);
    write({ runners: { rewrite: { disabled: ['no-such-rule'] } } });
    await expect(loadRunnerSettings(root)).rejects.toThrow(/unknown rewrite rule\(s\) no-such-rule/);
    write({ runners: { reviw: true } });
    await expect(loadRunnerSettings(root)).rejects.toThrow(/"runners" is invalid/);
  });
});
