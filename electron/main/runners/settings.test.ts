import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ProjectTrust } from '../project/trust';
import { DEFAULT_RUNNER_SETTINGS, disabledRules, loadRunnerSettings as load } from './settings';

const root = mkdtempSync(join(tmpdir(), 'erasmus-rs-'));
const trustHome = mkdtempSync(join(tmpdir(), 'erasmus-rs-home-'));
const trust = ProjectTrust.forHome(trustHome);
/** Writes the file as the user would, and trusts it (an untrusted file is the next test's subject). */
const write = async (value: unknown, trusted = true) => {
  mkdirSync(join(root, '.erasmus'), { recursive: true });
  writeFileSync(join(root, '.erasmus', 'settings.json'), typeof value === 'string' ? value : JSON.stringify(value));
  if (trusted) await trust.trust(root, { files: ['.erasmus/settings.json'] });
};
const loadRunnerSettings = (dir: string) => load(dir, trust);
afterEach(() => rmSync(join(root, '.erasmus'), { recursive: true, force: true }));
afterAll(() => [root, trustHome].forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('loadRunnerSettings', () => {
  it('defaults without a file, review on', async () => {
    expect(await loadRunnerSettings(root)).toEqual(DEFAULT_RUNNER_SETTINGS);
    expect(DEFAULT_RUNNER_SETTINGS.review).toBe(true);
  });
  it('reads the runners key and leaves other keys to their parts', async () => {
    await write({ files: { anything: 1 }, runners: { review: false, rewrite: { disabled: ['npm'] } } });
    const s = await loadRunnerSettings(root);
    expect(s.review).toBe(false);
    expect([...disabledRules(s)]).toEqual(['npm']);
  });
  it('a file the project brought lowers nothing until trusted, and a change needs trust again', async () => {
    await write({ runners: { review: false, allowDangerous: true } }, false);
    expect(await loadRunnerSettings(root)).toEqual(DEFAULT_RUNNER_SETTINGS);
    await trust.trust(root);
    expect(await loadRunnerSettings(root)).toMatchObject({ review: false, allowDangerous: true });
    await write({ runners: { review: false, allowDangerous: true, rewrite: { disabled: ['npm'] } } }, false);
    expect(await loadRunnerSettings(root)).toEqual(DEFAULT_RUNNER_SETTINGS);
  });
  it('allowed hosts: none by default; a cloned repository grants none until trusted; a bad entry is named', async () => {
    expect(DEFAULT_RUNNER_SETTINGS.network.allowedHosts).toEqual([]);
    await write({ runners: { network: { allowedHosts: ['registry.npmjs.org', '*.pythonhosted.org', '127.0.0.1:8080', '[::1]:9000'] } } }, false);
    expect((await loadRunnerSettings(root)).network.allowedHosts).toEqual([]);
    await trust.trust(root);
    expect((await loadRunnerSettings(root)).network.allowedHosts).toEqual(['registry.npmjs.org', '*.pythonhosted.org', '127.0.0.1:8080', '[::1]:9000']);
    await write({ runners: { network: { allowedHosts: ['https://registry.npmjs.org/'] } } });
    await expect(loadRunnerSettings(root)).rejects.toThrow(/network\.allowedHosts\.0: an allowed host is a host name/);
  });
  it('names what is wrong', async () => {
    await write('{ nope');
    await expect(loadRunnerSettings(root)).rejects.toThrow(/settings\.json is not valid JSON/);
    await write({ runners: { rewrite: { disabled: ['no-such-rule'] } } });
    await expect(loadRunnerSettings(root)).rejects.toThrow(/unknown rewrite rule\(s\) no-such-rule/);
    await write({ runners: { reviw: true } });
    await expect(loadRunnerSettings(root)).rejects.toThrow(/"runners" is invalid/);
  });
});
