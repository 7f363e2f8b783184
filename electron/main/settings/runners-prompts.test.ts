import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRunnerSettings } from '../runners/settings';
import { getPromptSection, listPromptSections, resetPromptSection, setPromptSection } from './prompts';
import { ProjectTrust } from '../project/trust';
import { getRunnerSettings as get, setRunnerSettings as set, type RunnerChanges } from './runners';

let dir: string;
let trust: ProjectTrust;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'erasmus-settings-'));
  trust = ProjectTrust.forHome(join(dir, 'home'));
});
const getRunnerSettings = (d: string) => get(d, trust);
const setRunnerSettings = (d: string, c: RunnerChanges) => set(d, c, trust);
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('runner settings of a project', () => {
  it('lists every rewrite rule, toggles rules and review, and keeps the file’s other keys', async () => {
    mkdirSync(join(dir, '.erasmus'));
    writeFileSync(join(dir, '.erasmus', 'settings.json'), JSON.stringify({ theme: 'mine', runners: { allowDangerous: true } }));
    await expect(setRunnerSettings(dir, { review: false })).rejects.toThrow(/not trusted yet; review it and trust it first/);
    writeFileSync(join(dir, '.erasmus', 'settings.json'), JSON.stringify({ theme: 'mine', runners: { allowDangerous: false } }));
    await trust.trust(dir);
    const first = await getRunnerSettings(dir);
    expect(first.review).toBe(true);
    expect(first.rules.length).toBeGreaterThan(3);
    expect(first.rules.every((r) => r.enabled && r.description.length > 0)).toBe(true);

    const next = await setRunnerSettings(dir, { disable: ['npm', 'pip-install'], review: false });
    expect(next.rules.filter((r) => !r.enabled).map((r) => r.id).sort()).toEqual(['npm', 'pip-install']);
    const loaded = await loadRunnerSettings(dir, trust); // what Erasmus wrote for the user is trusted
    expect(loaded).toMatchObject({ review: false, allowDangerous: false, rewrite: { disabled: ['npm', 'pip-install'] } });
    expect(JSON.parse(readFileSync(join(dir, '.erasmus', 'settings.json'), 'utf8')).theme).toBe('mine');

    expect((await setRunnerSettings(dir, { enable: ['npm'] })).rules.find((r) => r.id === 'npm')?.enabled).toBe(true);
  });

  it('refuses unknown rules, relative paths and a damaged file without writing', async () => {
    await expect(setRunnerSettings(dir, { disable: ['rm-rf'] })).rejects.toThrow(/unknown rewrite rule\(s\) rm-rf/);
    expect(existsSync(join(dir, '.erasmus'))).toBe(false);
    await expect(getRunnerSettings('relative/path')).rejects.toThrow(/absolute/);
    mkdirSync(join(dir, '.erasmus'));
    writeFileSync(join(dir, '.erasmus', 'settings.json'), '{ not json');
    await expect(setRunnerSettings(dir, { review: false })).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(join(dir, '.erasmus', 'settings.json'), 'utf8')).toBe('{ not json');
  });
});

describe('prompt sections', () => {
  it('lists shipped sections, writes an override, reads both texts, and resets', async () => {
    const dirs = { builtin: join(dir, 'shipped'), overrides: join(dir, 'home', 'prompts') };
    mkdirSync(dirs.builtin);
    writeFileSync(join(dirs.builtin, 'RULES.md'), 'Be careful.');
    writeFileSync(join(dirs.builtin, 'Answer format.md'), 'Short.');
    expect(await listPromptSections(dirs)).toEqual([
      { name: 'Answer format', builtin: true, overridden: false },
      { name: 'RULES', builtin: true, overridden: false },
    ]);
    expect(await setPromptSection(dirs, 'RULES', 'Be very careful.')).toEqual({ name: 'RULES', builtin: true, overridden: true });
    expect(await getPromptSection(dirs, 'RULES')).toEqual({ name: 'RULES', builtin: 'Be careful.', override: 'Be very careful.' });
    await setPromptSection(dirs, 'My notes', 'Use tabs.');
    expect((await listPromptSections(dirs)).find((s) => s.name === 'My notes')).toEqual({ name: 'My notes', builtin: false, overridden: true });
    expect(await resetPromptSection(dirs, 'RULES')).toBe(true);
    expect(await resetPromptSection(dirs, 'RULES')).toBe(false);
    expect((await getPromptSection(dirs, 'RULES')).override).toBeNull();
    await expect(getPromptSection(dirs, 'Nothing')).rejects.toThrow(/no prompt section "Nothing"/);
  });

  it('refuses names that could leave the prompts folder', async () => {
    const dirs = { builtin: join(dir, 'shipped'), overrides: join(dir, 'prompts') };
    for (const bad of ['../config', '..', 'a/b', '/etc/passwd', '.hidden', 'x\\y']) {
      await expect(setPromptSection(dirs, bad, 'x')).rejects.toThrow(/section name/);
    }
    expect(existsSync(join(dir, 'config.md'))).toBe(false);
    expect(existsSync(dirs.overrides)).toBe(false);
  });
});
