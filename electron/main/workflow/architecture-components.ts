import type { WorkflowPlan } from '../../contract/methods/workflow';

/**
 * The components an architecture document names, read from its section about them (a heading that says "component"
 * or "module"): each sub-heading's id, and each top-level list item's or table row's leading id (`cli`, **cli**, or a
 * bare lowercase word before a colon or dash). Ids are as the design protocol asks (`parser`, `cli`): a lowercase
 * word, never a path or a command. A document without such a section names none (nothing can be told from prose).
 */
export function architectureComponents(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const found: string[] = [];
  const add = (id: string | undefined) => {
    if (id && ID.test(id) && !found.includes(id)) found.push(id);
  };
  let inSection = 0; // the level of the heading that opened the components section; 0: outside one
  let fence = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      const level = h[1]!.length;
      if (inSection && level <= inSection) inSection = 0;
      if (!inSection && /\b(components?|modules?)\b/i.test(h[2]!)) {
        inSection = level;
        continue;
      }
      if (inSection && level === inSection + 1) add(leadingId(h[2]!));
      continue;
    }
    if (!inSection) continue;
    const item = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) add(leadingId(item[1]!));
    const row = /^\|\s*([^|]+?)\s*\|/.exec(line);
    if (row && !/^[-:\s]+$/.test(row[1]!)) add(leadingId(row[1]!));
  }
  return found;
}

const ID = /^[a-z][a-z0-9_-]{0,63}$/;
/** Words a section's sub-heading or item may begin with that are no component. */
const NOT_IDS = new Set(['component', 'components', 'module', 'modules', 'the', 'a', 'an', 'and', 'none', 'interface', 'interfaces', 'tests', 'testing', 'data', 'notes', 'overview']);

/** The id a heading, list item or table cell begins with: `cli`, **cli**, "Component: cli", "1. cli — …". */
function leadingId(text: string): string | undefined {
  const t = text.trim().replace(/^\d+[.)]\s*/, '').replace(/^(?:component|module)\s*:?\s*/i, '');
  const marked = /^(?:`([^`\s]+)`|\*\*`?([^*`\s]+)`?\*\*|__([^_\s]+)__)/.exec(t);
  const id = marked ? (marked[1] ?? marked[2] ?? marked[3]) : /^([a-z][a-z0-9_-]*)\s*(?:[:—–(]|-\s|$)/.exec(t)?.[1];
  return id && !NOT_IDS.has(id) ? id : undefined;
}

/**
 * The plan with the components the architecture names and the task list leaves out (`unplanned`): plan review warns
 * that this run builds none of them. Compared without case; none when the architecture names no component.
 */
export function withUnplanned(plan: WorkflowPlan, architecture: string | undefined): WorkflowPlan {
  const listed = new Set(plan.components.map((c) => c.id.toLowerCase()));
  const missing = architectureComponents(architecture ?? '').filter((id) => !listed.has(id));
  const { unplanned: _was, ...rest } = plan;
  return missing.length ? { ...rest, unplanned: missing } : rest;
}
