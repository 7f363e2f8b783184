import { humanState } from '../../contract/words';
import { withoutStamp } from './drift';
import type { Protocol } from './protocols';
import type { RetryChanges } from './retry-note';
import { onceEachFailure } from './test-output';

/** The context documents a step is shown as references (the ones stamped with the commit they describe). */
const STAMPED_REFERENCES: ReadonlySet<string> = new Set(['Architecture', 'Progress schedule', 'Task list']);

export interface PromptParts {
  protocol: Protocol;
  /** What the step must produce, in one or two sentences. */
  instruction: string;
  goal?: string;
  /** The goal is new to a project built for earlier goals (its documents are being updated for it). */
  newGoal?: boolean;
  contextDocPath: string;
  contextDoc?: string;
  /** Other documents shown read-only (architecture, schedule, review report…). */
  /** Read-only texts the step is shown; `lang` is the fence's language (markdown unless said). */
  references?: Array<{ title: string; text: string; lang?: string }>;
  testOutput?: { command: string; exitCode: number | null; output: string };
  /** The project existed before the run: the goal is a change to it, made in its conventions. */
  existing?: boolean;
  /** Files holding the user's own uncommitted changes, which the run leaves alone and never commits (run-git.ts userChangedFiles). */
  userFiles?: readonly string[];
  /** The command the workflow runs when the step ends (testing and debugging steps): its exit status is the step's gate. */
  testCommand?: string;
  /** This step ran before and the run stopped there: what happened (its prompt says it is a retry). */
  retryOf?: string;
  /** What that attempt wrote last, when kept (the user read it before running the step again). */
  retrySaid?: string;
  /** The user's answer, given with the retry (`workflow retry --answer`, the app's answer box). */
  retryAnswer?: string;
  /** What that attempt changed (retry-note.ts unfinishedChanges), when known. */
  retryChanges?: RetryChanges;
  /** What the user changed while the run was stopped at a step of this part (user-changes.ts), oldest first. */
  userChanges?: Array<{ state: string } & RetryChanges>;
  /** The step's own "Done when", where it differs from its protocol's (the review fixes). */
  done?: string;
  /** The name the prompt gives the protocol when the step borrows another's tools and budget (the merge step: development's). */
  role?: string;
}

/**
 * A document shown inside the prompt, fenced so its own headings cannot be read as the prompt's: the
 * fence is longer than any backtick run in the text, so code blocks inside it stay inside.
 */
export function fenced(text: string, lang = 'markdown'): string {
  const longest = Math.max(2, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

const FENCE_LANGUAGES: Record<string, string> = { json: 'json', js: 'js', mjs: 'js', cjs: 'js', jsx: 'jsx', ts: 'ts', tsx: 'tsx', py: 'python', rs: 'rust', go: 'go', md: 'markdown', yml: 'yaml', yaml: 'yaml', toml: 'toml', sh: 'sh', css: 'css', html: 'html' };

/** The fence language a conflicted file is shown in (its own, not markdown: package.json read as a markdown block). */
export function fenceLanguage(file: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file)?.[1]?.toLowerCase();
  return (ext && FENCE_LANGUAGES[ext]) ?? '';
}

/** A document a step is shown read-only, as its prompt holds it (one function, so an executor can find it there). */
export function referenceBlock(title: string, text: string, lang?: string): string {
  return `## ${title}\n\n${text.trim() ? fenced(text.trim(), lang) : '(empty)'}`;
}

/**
 * What every step in an existing project is told: the goal is a change its maintainers would merge.
 * How to change a file is said only to a step that may (a read-only step's edit calls are refused).
 */
export function existingProject(access: Protocol['access'] = 'write'): string {
  const how = access === 'write' ? ' (change files with `files__edit_file`)' : access === 'markdown' ? ' (change Markdown files with `files__edit_file`)' : '';
  return `This project existed before this run: the goal is a change to it that its maintainers would merge. ${access === 'read' ? 'This step only reads it' : `Change only what the goal needs and leave the rest as they wrote it${how}`}. Follow its conventions: its test framework and where its tests live, its file layout, its code, comment and documentation style, its commit style. Documentation and tests are for what this change touches, where the project already has them; a part the project would not test (type declarations, prose) needs no new tests.`;
}

/**
 * What every step is told of the files that held the user's uncommitted changes when the run started (the user chose to
 * include them): Erasmus never commits them, so a step's change there would be left out of the component's commit, or
 * stop a side-by-side component's merge. Said to read-only steps too: the design and the plan place the work elsewhere.
 */
export function userChanges(files: readonly string[]): string {
  const list = files.map((f) => `\`${f}\``).join(', ');
  const one = files.length === 1;
  return `When this run started, ${one ? 'this file held' : 'these files held'} changes of the user's that are not committed: ${list}. The user chose to keep working on them, so Erasmus leaves ${one ? 'it' : 'them'} as ${one ? 'it is' : 'they are'} and never commits ${one ? 'it' : 'them'}: a change made there would stay out of the run's commits. Do not change ${one ? 'this file' : 'these files'}; put the work in other files. If the goal cannot be done without changing ${one ? 'it' : 'one of them'}, say so in your answer and name the file: the user then commits or stashes their changes and runs the step again.`;
}

/**
 * Where a retry starts from, and what the unfinished attempt changed (when known), as the retry section says it. A step
 * that only reads the project changed nothing there: it is not told of changes "kept" it could not have made.
 */
function retryStart(changes: RetryChanges | undefined, access: Protocol['access']): string {
  if (access === 'read') return 'This step only reads the project, so that attempt changed nothing in it: do the whole step again, from the project as it is now.';
  const start = 'start from the project as it is now, and do what is still missing.';
  if (!changes) return `Whatever it changed in the project then is kept: ${start}`;
  if (!changes.text.trim()) return `It changed no file of the project: ${start}`;
  return `What it changed in the project then is kept: ${start}${retryChanges(changes)}`;
}

/** What the unfinished attempt changed, as the retry section says it. */
function retryChanges(changes: RetryChanges): string {
  const what = changes.kind === 'diff' ? 'Here is what it changed, from the files as it found them to the files now' : 'These are the files it changed (the whole diff is too long to show here: read them)';
  return ` ${what}. Those changes are made: do not make them again (an edit whose old text still matches would be applied a second time).\n\n${fenced(changes.text, changes.kind === 'diff' ? 'diff' : '')}`;
}

/** What the user changed while the run was stopped: whose changes they are, each stop's diff (or list of files), and what to do with them. */
function userChangesSection(changes: NonNullable<PromptParts['userChanges']>, review: boolean): string {
  const each = changes.map((c) => {
    const what = c.kind === 'diff' ? 'the user changed the project; here is what they changed, from the files as the run left them to the files as it went on' : 'the user changed these files (the whole diff is too long to show here: read them)';
    return `While the run was stopped at ${humanState(c.state)}, ${what}:\n\n${fenced(c.text, c.kind === 'diff' ? 'diff' : '')}`;
  });
  const todo = review
    ? 'These changes are part of the work you review: review them with the rest, and say in the report what they changed.'
    : 'These changes are the user\'s, not an earlier step\'s: they are made and part of the work now. Keep them and build on them: do not undo them or make them again.';
  return `## What the user changed\n\n${each.join('\n\n')}\n\n${todo}`;
}

/** Assembles one step's prompt: the protocol, the task, the context document, the evidence. */
export function buildStepPrompt(p: PromptParts): string {
  const parts = [`# Protocol: ${p.role ?? p.protocol.name}\n\n${p.protocol.prompt}`, `## Your task\n\n${p.instruction}`];
  if (p.retryOf) {
    const what = /[.!?]$/.test(p.retryOf.trim()) ? p.retryOf.trim() : `${p.retryOf.trim()}.`;
    const said = p.retrySaid?.trim() ? `\n\nWhat it wrote last, before the run stopped (the user read it, then ran this step again):\n\n${fenced(p.retrySaid.trim(), '')}` : '';
    // Only this step's prompt carries the answer; the steps after it read the documents (played as the model: the user said
    // errors stay non-JSON, and nothing told the development step that its testing and review would not hear it).
    const answer = p.retryAnswer?.trim() ? `\n\nThe user's answer, given with a retry of this step (it settles what the step stopped for; where it differs from the documents, the answer holds):\n\n${fenced(p.retryAnswer.trim(), '')}\n\nOnly this step hears the answer: what the steps after it must follow too, write into the context document you hand back.` : '';
    parts.push(`## This is a retry\n\nThis step ran before, and the run stopped there: ${what}${said}${answer}\n\n${retryStart(p.retryChanges, p.protocol.access)}`);
  }
  if (p.userChanges?.length) parts.push(userChangesSection(p.userChanges, p.protocol.name === 'review'));
  if (p.existing) parts.push(`## An existing project\n\n${existingProject(p.protocol.access)}`);
  if (p.userFiles?.length) parts.push(`## The user's uncommitted changes\n\n${userChanges(p.userFiles)}`);
  if (p.goal) {
    parts.push(
      p.newGoal && p.existing
        ? `## The change asked for\n\nA new change, after earlier ones made by Erasmus (the architecture and the task list describe them):\n\n${p.goal}`
        : p.newGoal
          ? `## Goal of this run\n\nA new goal for a project built for earlier goals:\n\n${p.goal}`
          : p.existing
            ? `## The change asked for\n\n${p.goal}`
            : `## Goal of the project\n\n${p.goal}`,
    );
  }
  // The document lives in ERASMUS_HOME, outside the project the tools reach: the step hands its new text back (see the executor's "How to answer").
  // Each document is fenced: its own headings stay inside it, and the model sees where it ends.
  // Documents are shown without the stamp that records the commit they describe (drift.ts): the step hands back the text, and the stamp stays.
  const contextDoc = withoutStamp(p.contextDoc ?? '');
  parts.push(`## Context document\n\nKept by Erasmus outside the project (file tools cannot reach it); its current text${contextDoc.trim() ? `, between the fences:\n\n${fenced(contextDoc.trim())}` : ': (empty)'}`);
  for (const r of p.references ?? []) parts.push(referenceBlock(r.title, STAMPED_REFERENCES.has(r.title) ? withoutStamp(r.text) : r.text, r.lang));
  if (p.testOutput) {
    parts.push(`## Last test run\n\n\`${p.testOutput.command}\` exited with status ${p.testOutput.exitCode}\n\n${fenced(onceEachFailure(p.testOutput.output).trim(), '')}`);
  }
  if (p.testCommand) {
    parts.push(`## Test command\n\nWhen this step ends, Erasmus runs \`${p.testCommand}\` in your working directory (where your tools work), and the step passes only if it exits with status 0: the tests this step is about must be ones this command runs.`);
  }
  parts.push(`## Done when\n\n${p.done ?? p.protocol.done}`);
  return parts.join('\n\n');
}
