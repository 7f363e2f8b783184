// A message that ran no call but holds a tag naming a tool (`<files__read_file>` in a code block, in
// <thinking>, in inline code, or mentioned in a sentence) must not end the session as complete: the
// model hears where the tag was and how a call that runs is written.

export type UnrunPlace = 'code block' | 'inline code' | 'thinking' | 'sentence';

export interface UnrunTag {
  name: string;
  where: UnrunPlace;
}

const FENCE = /^[ \t]*(`{3,}|~{3,})/;
const THINK_OPEN = /<(thinking|think)>/;

/** Tags `<name …` naming one of `names`, with where each was; at most one entry per name. */
export function findUnrunTags(raw: string, names: ReadonlySet<string>): UnrunTag[] {
  const found = new Map<string, UnrunPlace>();
  let fence: string | undefined;
  let thinkClose: string | undefined;
  for (const line of raw.split('\n')) {
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]!.startsWith(fence[0]!) && f[1]!.length >= fence.length) fence = undefined;
      else scan(line, 'code block');
      continue;
    }
    if (f && !thinkClose) {
      fence = f[1]!;
      continue;
    }
    let rest = line;
    if (thinkClose) {
      const end = rest.indexOf(thinkClose);
      scan(end < 0 ? rest : rest.slice(0, end), 'thinking');
      if (end < 0) continue;
      rest = rest.slice(end + thinkClose.length);
      thinkClose = undefined;
    }
    const t = THINK_OPEN.exec(rest);
    if (t) {
      prose(rest.slice(0, t.index));
      const after = rest.slice(t.index + t[0].length);
      const close = `</${t[1]}>`;
      const end = after.indexOf(close);
      scan(end < 0 ? after : after.slice(0, end), 'thinking');
      if (end < 0) thinkClose = close;
      else prose(after.slice(end + close.length));
      continue;
    }
    prose(rest);
  }
  return [...found].map(([name, where]) => ({ name, where }));

  function prose(text: string): void {
    // Inline code spans: odd-numbered segments between single backticks.
    text.split('`').forEach((part, i) => scan(part, i % 2 === 1 ? 'inline code' : 'sentence'));
  }
  function scan(text: string, where: UnrunPlace): void {
    for (const m of text.matchAll(/<([A-Za-z][\w.-]*)(?=[\s>/])/g)) {
      const name = m[1]!;
      if (names.has(name) && !found.has(name)) found.set(name, where);
    }
  }
}

/** The correction for tags that did not run. */
export function unrunText(tags: UnrunTag[], usage: (name: string) => string | undefined): string {
  const where = (p: UnrunPlace) =>
    p === 'code block'
      ? 'inside a code block, where tags are only shown'
      : p === 'inline code'
        ? 'inside inline code (backticks), where tags are only shown'
        : p === 'thinking'
          ? 'inside <thinking>, where tags are not run'
          : 'in a sentence, not as a call (a call is the tag with its parameters as child tags, then its closing tag)';
  const lines = tags.map((t) => `- <${t.name}> was ${where(t.where)}.`);
  return [
    'Your message names a tool in a tag, but no call ran:',
    ...lines,
    'To call it, write the call as plain text outside code blocks and <thinking>, the tag on its own line, each parameter as a child tag:',
    usage(tags[0]!.name) ?? `<${tags[0]!.name}>\n</${tags[0]!.name}>`,
    'If you did not mean to call a tool and the task is done, answer again without tool tags.',
  ].join('\n');
}
