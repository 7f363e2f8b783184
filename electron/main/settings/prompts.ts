import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { SectionName, type PromptSectionInfo } from '../../contract/index';
import { writeFileAtomic } from '../common/fs';
import { SettingsError } from './errors';

/**
 * Prompt sections: the shipped ones in resources/prompts and the user's overrides in
 * ERASMUS_HOME/prompts (file name = section title, `.md`). The agent merges them per session
 * (agent/prompt/sections.ts): an override replaces the shipped text, an empty one removes the section.
 */
export interface PromptDirs {
  builtin: string;
  overrides: string;
}

/** A section's file; the name is checked so it can only ever be a file directly in `dir`. */
function sectionFile(dir: string, name: string): string {
  const ok = SectionName.safeParse(name);
  if (!ok.success) throw new SettingsError(`section name "${name}": ${ok.error.issues[0]!.message}`, 'name');
  return join(dir, `${name}.md`);
}

async function names(dir: string): Promise<Set<string>> {
  try {
    return new Set((await readdir(dir)).filter((n) => n.endsWith('.md')).map((n) => n.slice(0, -3)).filter((n) => SectionName.safeParse(n).success));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw err;
  }
}

async function readOrNull(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export async function listPromptSections(dirs: PromptDirs): Promise<PromptSectionInfo[]> {
  const [builtin, overrides] = await Promise.all([names(dirs.builtin), names(dirs.overrides)]);
  return [...new Set([...builtin, ...overrides])].sort((a, b) => a.localeCompare(b)).map((name) => ({ name, builtin: builtin.has(name), overridden: overrides.has(name) }));
}

export async function getPromptSection(dirs: PromptDirs, name: string): Promise<{ name: string; builtin: string | null; override: string | null }> {
  const [builtin, override] = await Promise.all([readOrNull(sectionFile(dirs.builtin, name)), readOrNull(sectionFile(dirs.overrides, name))]);
  if (builtin === null && override === null) throw new SettingsError(`no prompt section "${name}"`, 'name');
  return { name, builtin, override };
}

export async function setPromptSection(dirs: PromptDirs, name: string, body: string): Promise<PromptSectionInfo> {
  await writeFileAtomic(sectionFile(dirs.overrides, name), body);
  return { name, builtin: (await readOrNull(sectionFile(dirs.builtin, name))) !== null, overridden: true };
}

export async function resetPromptSection(dirs: PromptDirs, name: string): Promise<boolean> {
  try {
    await unlink(sectionFile(dirs.overrides, name));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
