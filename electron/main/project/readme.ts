import { open } from 'node:fs/promises';
import { join } from 'node:path';

/** Names tried in order; the first that is a readable file wins. */
const NAMES = ['README.md', 'readme.md', 'Readme.md', 'README.markdown', 'README.txt', 'README'];
/** Enough for any real introduction; a huge README is not read whole. */
const READ_BYTES = 64 * 1024;
/** The suggestion is a goal to edit, not the README. */
const MAX_CHARS = 600;

/** A line that is not prose: badges, images, HTML, tables, rules, link definitions. */
function noise(line: string): boolean {
  return /^(\[!\[|!\[|<|\||-{3,}|\*{3,}|_{3,}|\[[^\]]+\]:\s)/.test(line);
}

/** Markdown emphasis, inline code and links reduced to their text. */
function plain(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * What a README says the project is, as a starting point for the workflow's goal: its title and
 * first paragraph of prose (badges, HTML, code and later headings skipped), at most 600 characters.
 * Undefined when there is no README or it says nothing in prose.
 */
export function goalFromReadme(markdown: string): string | undefined {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let title: string | undefined;
  const paragraph: string[] = [];
  let fence = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) {
      fence = !fence;
      if (paragraph.length) break;
      continue;
    }
    if (fence) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*$/.exec(line);
    if (heading) {
      if (paragraph.length) break;
      if (title === undefined) title = plain(heading[1]!);
      // Under a later heading only an introduction (Overview, About…) still describes the project.
      else if (!/^(about|overview|introduction|description|what)/i.test(heading[1]!)) break;
      continue;
    }
    // A setext title (text underlined by === or ---) when no title was seen yet.
    if (/^(=+|-+)$/.test(line) && paragraph.length && title === undefined) {
      title = plain(paragraph.splice(0).join(' '));
      continue;
    }
    if (!line) {
      if (paragraph.length) break;
      continue;
    }
    if (noise(line)) {
      if (paragraph.length) break;
      continue;
    }
    paragraph.push(line.replace(/^>\s?/, ''));
  }
  const body = plain(paragraph.join(' '));
  const text = title && body ? (body.toLowerCase().startsWith(title.toLowerCase()) ? body : `${title}: ${body}`) : body || title || '';
  if (!text) return undefined;
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1).trimEnd()}…` : text;
}

/** The goal a project's README suggests, and the file it came from; undefined without one. */
export async function readmeGoal(projectDir: string): Promise<{ file: string; goal: string } | undefined> {
  for (const name of NAMES) {
    let handle;
    try {
      handle = await open(join(projectDir, name), 'r');
    } catch {
      continue;
    }
    try {
      if (!(await handle.stat()).isFile()) continue;
      const buffer = Buffer.alloc(READ_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, READ_BYTES, 0);
      const goal = goalFromReadme(buffer.subarray(0, bytesRead).toString('utf8'));
      return goal ? { file: name, goal } : undefined;
    } catch {
      return undefined;
    } finally {
      await handle.close();
    }
  }
  return undefined;
}
