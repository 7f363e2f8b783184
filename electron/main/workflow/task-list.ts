import { z } from 'zod';
import { describeDocumentIssues, WorkflowError, type DocumentIssue } from './errors';

/**
 * The task list format (ctx/orchestration/task_list.md), written by the orchestration protocol
 * and by people:
 *
 *     # Task list
 *     ## Component: adder — adds numbers
 *     Test: node --test test/
 *     Free text describing the component.
 *     - [ ] T1: Implement add(a, b) in src/adder.mjs
 *     - [x] T2: Export it from index.mjs
 *
 * Components are `## Component: <id>` (id: letters, digits, _ and -) with an optional title after
 * "—", "-" or ":". An optional `Test:` line is the shell command that tells whether the component's
 * tests pass. An optional `Depends:` line names the components it needs (`Depends: core, cli`, or
 * `Depends: none`); without it a component depends on the one before it (schedule order). Tasks
 * are `- [ ] <ID>: <title>` with status ` ` (todo), `~` (in progress) or `x` (done).
 * Anything else is description. A bad list is reported line by line, never guessed at.
 */
export const TaskStatus = z.enum(['todo', 'in_progress', 'done']);
export type TaskStatus = z.infer<typeof TaskStatus>;

/** Ids the workflow's own steps use (final:testing, orchestration:<component>; ctx/components/final.md): no component may take them. */
export const RESERVED_COMPONENT_IDS = ['final', 'orchestration', 'parallel'] as const;
export const ComponentId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'component ids use letters, digits, _ and - (at most 64)')
  .refine((id) => !(RESERVED_COMPONENT_IDS as readonly string[]).includes(id.toLowerCase()), 'is reserved for the workflow\'s own steps (final:…, orchestration:…, parallel:…); choose another id');

export const Task = z.object({ id: z.string().min(1), title: z.string().min(1), status: TaskStatus, line: z.number().int().positive() });
export type Task = z.infer<typeof Task>;

export const Component = z.object({
  id: ComponentId,
  title: z.string(),
  description: z.string(),
  testCommand: z.string().min(1).optional(),
  /** The components it needs, from its `Depends:` line (empty: none); absent: the one before it in the list. */
  depends: z.array(z.string()).optional(),
  line: z.number().int().positive(),
  tasks: z.array(Task).min(1, 'a component needs at least one task'),
});
export type Component = z.infer<typeof Component>;

export const TaskList = z.object({ components: z.array(Component).min(1, 'the task list has no "## Component: <id>" section') });
export type TaskList = z.infer<typeof TaskList>;

const COMPONENT = /^##\s+Component:\s*(.*)$/i;
const ID_AND_TITLE = /^(\S+)\s*(?:(?:—|–|-|:)\s*(.*))?$/;
const HEADING2 = /^##\s/;
const TASK = /^\s*[-*]\s+\[(.)\]\s+([A-Za-z][A-Za-z0-9_.-]*):\s+(\S.*)$/;
const TASKISH = /^\s*[-*]\s+\[/;
const TEST = /^Test:\s*(.*)$/i;
const DEPENDS = /^Depends:\s*(.*)$/i;
const MARKS: Record<string, TaskStatus> = { ' ': 'todo', '~': 'in_progress', x: 'done', X: 'done' };
const MARK_OF: Record<TaskStatus, string> = { todo: ' ', in_progress: '~', done: 'x' };

export type ParseResult = { ok: true; list: TaskList } | { ok: false; issues: DocumentIssue[] };

export function parseTaskList(text: string): ParseResult {
  const issues: DocumentIssue[] = [];
  const components: Array<Omit<Component, 'tasks'> & { tasks: Task[]; descLines: string[]; dependsLine?: number }> = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const current = components[components.length - 1];
    const comp = COMPONENT.exec(raw);
    if (comp) {
      const parts = ID_AND_TITLE.exec(comp[1]!.trim());
      const id = parts?.[1] ?? comp[1]!.trim();
      const ok = ComponentId.safeParse(id);
      if (!parts) issues.push({ line, message: `component heading ${JSON.stringify(comp[1]!.trim())}: expected "<id>" or "<id> — <title>"` });
      else if (!ok.success) issues.push({ line, message: `component id ${JSON.stringify(id)}: ${ok.error.issues[0]?.message}` });
      components.push({ id, title: (parts?.[2] ?? '').trim(), description: '', line, tasks: [], descLines: [] });
      return;
    }
    if (HEADING2.test(raw)) {
      issues.push({ line, message: `expected "## Component: <id>", found ${JSON.stringify(raw.trim())}` });
      return;
    }
    const task = TASK.exec(raw);
    if (task) {
      const status = MARKS[task[1]!];
      if (!current) issues.push({ line, message: `task ${task[2]} is outside any "## Component:" section` });
      else if (!status) issues.push({ line, message: `unknown status mark [${task[1]}] (use [ ], [~] or [x])` });
      else current.tasks.push({ id: task[2]!, title: task[3]!.trim(), status, line });
      return;
    }
    if (TASKISH.test(raw)) {
      issues.push({ line, message: `malformed task: expected "- [ ] ID: title", found ${JSON.stringify(raw.trim())}` });
      return;
    }
    const test = TEST.exec(raw);
    if (test && current) {
      if (!test[1]!.trim()) issues.push({ line, message: 'empty Test: command' });
      else if (current.testCommand) issues.push({ line, message: `component ${current.id} has a second Test: line` });
      else current.testCommand = test[1]!.trim();
      return;
    }
    const depends = DEPENDS.exec(raw);
    if (depends && current) {
      const names = depends[1]!.split(/[,\s]+/).map((n) => n.trim()).filter(Boolean);
      if (current.depends) issues.push({ line, message: `component ${current.id} has a second Depends: line` });
      else if (!names.length) issues.push({ line, message: 'empty Depends: line (name the components it needs, or write "Depends: none")' });
      else {
        current.depends = names.length === 1 && names[0]!.toLowerCase() === 'none' ? [] : names;
        current.dependsLine = line;
      }
      return;
    }
    if (current && raw.trim()) current.descLines.push(raw.trim());
  });

  const seenComponents = new Map<string, number>();
  const seenTasks = new Map<string, number>();
  for (const c of components) {
    const prev = seenComponents.get(c.id.toLowerCase());
    if (prev) issues.push({ line: c.line, message: `component ${c.id} is already defined on line ${prev}` });
    else seenComponents.set(c.id.toLowerCase(), c.line);
    if (!c.tasks.length) issues.push({ line: c.line, message: `component ${c.id} has no tasks ("- [ ] ID: title")` });
    for (const t of c.tasks) {
      const p = seenTasks.get(t.id);
      if (p) issues.push({ line: t.line, message: `task id ${t.id} is already used on line ${p}` });
      else seenTasks.set(t.id, t.line);
    }
  }
  issues.push(...dependsIssues(components));
  const shaped = {
    components: components.map(({ descLines, dependsLine: _line, ...c }) => ({ ...c, description: descLines.join('\n') })),
  };
  const checked = TaskList.safeParse(shaped);
  if (!checked.success && !issues.length) {
    for (const issue of checked.error.issues) issues.push({ message: `${issue.path.join('.') || 'task list'}: ${issue.message}` });
  }
  if (issues.length) return { ok: false, issues: issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
  return { ok: true, list: checked.data! };
}

/** What is wrong with the Depends: lines: unknown or repeated names, a component that needs itself, a cycle. */
function dependsIssues(components: ReadonlyArray<{ id: string; line: number; depends?: string[]; dependsLine?: number }>): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  const ids = new Map(components.map((c) => [c.id.toLowerCase(), c.id]));
  for (const c of components) {
    const line = c.dependsLine ?? c.line;
    const seen = new Set<string>();
    for (const d of c.depends ?? []) {
      const key = d.toLowerCase();
      if (key === c.id.toLowerCase()) issues.push({ line, message: `component ${c.id} cannot depend on itself` });
      else if (key === 'none') issues.push({ line, message: '"none" stands alone: write "Depends: none", or name the components' });
      else if (!ids.has(key)) issues.push({ line, message: `component ${c.id} depends on ${JSON.stringify(d)}, which is not a component of this list (components: ${[...ids.values()].join(', ')})` });
      else if (seen.has(key)) issues.push({ line, message: `component ${c.id} names ${d} twice in Depends:` });
      seen.add(key);
    }
  }
  if (issues.length) return issues;
  const cycle = dependencyCycle(components.map((c) => ({ id: c.id, depends: c.depends })));
  if (cycle) issues.push({ line: components.find((c) => c.id === cycle[0])?.dependsLine, message: `the Depends: lines go round in a circle (${cycle.join(' → ')}): a component cannot wait for itself` });
  return issues;
}

/**
 * What each component needs, with schedule order filled in: its `Depends:` names (as the list spells
 * its ids), or the component before it when it has no such line (nothing for the first).
 */
export function resolvedDepends(components: ReadonlyArray<{ id: string; depends?: string[] }>): Map<string, string[]> {
  const byKey = new Map(components.map((c) => [c.id.toLowerCase(), c.id]));
  return new Map(
    components.map((c, i) => [c.id, c.depends ? c.depends.map((d) => byKey.get(d.toLowerCase()) ?? d) : i > 0 ? [components[i - 1]!.id] : []]),
  );
}

/** A cycle of dependencies (its ids, the first repeated at the end), or undefined. */
export function dependencyCycle(components: ReadonlyArray<{ id: string; depends?: string[] }>): string[] | undefined {
  const deps = resolvedDepends(components);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    path.push(id);
    for (const d of deps.get(id) ?? []) {
      const found = visit(d);
      if (found) return found;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const c of components) {
    const found = visit(c.id);
    if (found) return found;
  }
  return undefined;
}

/** Parses or throws a PARSE_ERROR naming the file and every bad line. */
export function parseTaskListOrThrow(text: string, file: string): TaskList {
  const r = parseTaskList(text);
  if (r.ok) return r.list;
  throw new WorkflowError('PARSE_ERROR', `invalid task list ${describeDocumentIssues(file, r.issues)}`, { file, issues: r.issues });
}

/** Rewrites the status marks of the given tasks in place, keeping every other character. */
export function setTaskStatus(text: string, taskIds: Iterable<string>, status: TaskStatus): string {
  const ids = new Set(taskIds);
  return text
    .split('\n')
    .map((raw) => {
      const m = TASK.exec(raw.replace(/\r$/, ''));
      if (!m || !ids.has(m[2]!)) return raw;
      return raw.replace(/\[(.)\]/, `[${MARK_OF[status]}]`);
    })
    .join('\n');
}

/** The component's section as markdown, the seed of its context document. */
export function componentSeed(c: Component): string {
  const tasks = c.tasks.map((t) => `- [${MARK_OF[t.status]}] ${t.id}: ${t.title}`).join('\n');
  return `# Component: ${c.id}${c.title ? ` — ${c.title}` : ''}\n\n${c.description ? c.description + '\n\n' : ''}## Tasks\n${tasks}\n\n## Notes\n`;
}

/**
 * A component's context document with its `# Component: <id> — <title>` heading as the task list titles it now: a later goal
 * that retitled the component (played as the model: "cli — the --top N option" while its new tasks were about --json) is
 * not shown the earlier title. A heading the model wrote in another form is left as it is.
 */
export function syncComponentHeading(doc: string, c: { id: string; title: string }): string {
  const heading = `# Component: ${c.id}${c.title ? ` — ${c.title}` : ''}`;
  const at = /^(\s*)(# Component: ([^\s—]+)(?: — [^\n]*)?)[ \t]*(\r?\n|$)/.exec(doc);
  if (!at || at[3] !== c.id || at[2] === heading) return doc;
  return `${at[1]}${heading}${doc.slice(at[1]!.length + at[2]!.length).replace(/^[ \t]+/, '')}`;
}

/** A component the run develops: one of its tasks is not done yet. */
export function hasOpenTask(c: { tasks: ReadonlyArray<{ status: TaskStatus }> }): boolean {
  return c.tasks.some((t) => t.status !== 'done');
}

/**
 * What is wrong with a task list handed back for a new goal: every task done before stays, marked done,
 * and the goal adds at least one open task (a new component, or new tasks on an existing one).
 */
export function goalUpdateIssues(doneBefore: Iterable<string>, after: TaskList): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  const now = new Map(after.components.flatMap((c) => c.tasks.map((t) => [t.id, t] as const)));
  for (const id of doneBefore) {
    const kept = now.get(id);
    if (!kept) issues.push({ message: `task ${id} was finished and is missing: keep every finished task, marked [x]` });
    else if (kept.status !== 'done') issues.push({ line: kept.line, message: `task ${id} is finished: keep it marked [x] (give new work a new task id)` });
  }
  if (!after.components.some(hasOpenTask)) issues.push({ message: 'the list has no open task ("- [ ] ID: title"): add the components or tasks the new goal needs' });
  return issues;
}

/**
 * A component's context document with its task lines matching the task list: each task's mark as the
 * list has it, and tasks the document lacks (added for a later goal) appended under its "## Tasks".
 */
export function syncTaskLines(doc: string, tasks: ReadonlyArray<{ id: string; title: string; status: TaskStatus }>): string {
  const lines = doc.split('\n');
  const present = new Set<string>();
  let lastTask = -1;
  lines.forEach((raw, i) => {
    const m = TASK.exec(raw.replace(/\r$/, ''));
    if (!m) return;
    lastTask = i;
    const t = tasks.find((x) => x.id === m[2]);
    if (!t) return;
    present.add(t.id);
    lines[i] = raw.replace(/\[(.)\]/, `[${MARK_OF[t.status]}]`);
  });
  const missing = tasks.filter((t) => !present.has(t.id)).map((t) => `- [${MARK_OF[t.status]}] ${t.id}: ${t.title}`);
  if (!missing.length) return lines.join('\n');
  const heading = lines.findIndex((l) => /^##\s+Tasks\s*$/i.test(l.trim()));
  if (lastTask >= 0) lines.splice(lastTask + 1, 0, ...missing);
  else if (heading >= 0) lines.splice(heading + 1, 0, ...missing);
  else return `${doc.replace(/\n*$/, '')}\n\n## Tasks\n${missing.join('\n')}\n`;
  return lines.join('\n');
}
