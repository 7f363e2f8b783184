import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface PromptSection {
  title: string;
  body: string;
}

/** Preferred order of the built-in sections; others follow alphabetically. */
const ORDER = ['Identity', 'RULES', 'Working method', 'Answer format'];

async function readDir(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw new Error(`cannot read prompt sections in ${dir}: ${(err as Error).message}`);
  }
  for (const n of names.filter((x) => x.endsWith('.md')).sort()) out.set(n.slice(0, -3), (await readFile(join(dir, n), 'utf8')).trim());
  return out;
}

/**
 * Static sections: every `resources/prompts/*.md` (file name = section title), overridden by a file
 * of the same name in ERASMUS_HOME/prompts/ (an empty override removes the section; new files add one).
 */
export async function loadStaticSections(resourcesDir: string, overridesDir: string): Promise<PromptSection[]> {
  const merged = await readDir(resourcesDir);
  for (const [title, body] of await readDir(overridesDir)) merged.set(title, body);
  const rank = (t: string) => (ORDER.includes(t) ? ORDER.indexOf(t) : ORDER.length);
  return [...merged.entries()]
    .filter(([, body]) => body.length > 0)
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([title, body]) => ({ title, body }));
}

export function renderSections(sections: PromptSection[]): string {
  return sections.map((s) => `# ${s.title}\n\n${s.body.trim()}`).join('\n\n');
}
