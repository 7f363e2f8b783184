// A documentation run: the documents `workflow drift` lists are brought up to date with the code, one documentation step
// each, then what they wrote is committed and each document is stamped with that commit (drift.ts). No component is
// developed, so no task list check applies and no plan waits for review: the user asked for exactly these documents.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { WorkflowDriftDocument, WorkflowPlan } from '../../contract/methods/workflow';
import { guardGitPointers } from '../runners/pty/git-guard';
import type { ContextDocs, DocRef } from './documents';
import { driftedDocuments, stampDocument } from './drift';
import { WorkflowError } from './errors';
import { headCommit } from './git';
import type { RunRecord } from './run-record';
import { parseTaskList } from './task-list';

const run = promisify(execFile);

/** How much of the diff since a document's commit its step is shown (the files are there to read for the rest). */
const DIFF_MAX = 6000;

/** The goal a documentation run records: what it brings up to date. */
export function documentsGoal(drifted: WorkflowDriftDocument[]): string {
  const names = drifted.map((d) => (d.doc === 'architecture' ? 'the architecture' : `the document of component ${d.component}`));
  return `Bring the documentation up to date with the code: ${names.join(', ')} (their subject changed since the commit they describe).`;
}

/** The plan of a documentation run: the task list's components as they are (nothing to develop), and the drifted documents. */
export async function documentsPlan(docs: ContextDocs, drifted: WorkflowDriftDocument[], maxDebugAttempts: number): Promise<WorkflowPlan> {
  const file = docs.path({ doc: 'task_list' });
  const parsed = parseTaskList((await docs.text({ doc: 'task_list' })) ?? '');
  if (!parsed.ok) throw new WorkflowError('PARSE_ERROR', `the task list ${file} cannot be read, so the drifted documents cannot be matched to their components: fix that file (its issues are listed) and try again`, { file, issues: parsed.issues });
  const known = new Set(parsed.list.components.map((c) => c.id));
  const components = drifted.filter((d) => d.doc === 'component' && known.has(d.component!)).map((d) => d.component!);
  const architecture = drifted.some((d) => d.doc === 'architecture');
  if (!components.length && !architecture) {
    throw new WorkflowError('INVALID_STATE', `the drifted documents belong to components the task list ${file} no longer has (${drifted.map((d) => d.component).join(', ')}): edit or remove them yourself (${drifted.map((d) => d.path).join(', ')})`, { file });
  }
  return {
    components: parsed.list.components.map((c) => ({ id: c.id, title: c.title, testCommand: c.testCommand, tasks: c.tasks.map((t) => ({ id: t.id, title: t.title, status: t.status })), ...(c.depends ? { depends: c.depends } : {}) })),
    maxDebugAttempts,
    documents: { components, architecture },
  };
}

/** Refuses a documentation run when no document drifted, saying so. */
export async function driftedOrRefuse(docs: ContextDocs): Promise<WorkflowDriftDocument[]> {
  const drifted = await driftedDocuments(docs);
  if (!drifted.length) throw new WorkflowError('INVALID_STATE', `no document of ${docs.projectDir} drifted: each describes its subject as committed (erasmus workflow drift lists them), so there is nothing to bring up to date`);
  return drifted;
}

/** A documentation step's instruction: what changed since its document was written, and what to bring up to date. */
export function documentsInstruction(ref: DocRef, commit: string | undefined): string {
  const since = commit ? ` at commit ${commit.slice(0, 12)}` : '';
  return ref.doc === 'architecture'
    ? `The project changed since its architecture (your context document) was written${since}: the files are listed below under "Changed since the document was written", with the diff. Read them, then bring the documentation up to date with the project as it is now: the README (or docs/) where it describes what changed, and the architecture, handed back whole (keep what still holds; no notes about your work in it). Change nothing else.`
    : `The code of this component changed since its document (your context document) was written${since}: the files are listed below under "Changed since the document was written", with the diff. Read them, then bring the documentation up to date with the code as it is now: your context document, and the README (or docs/) where it describes what changed. Change nothing else.`;
}

/** The reference a documentation step reads: the drifted files and the diff since the document's commit. */
export async function changesSince(docs: ContextDocs, ref: DocRef): Promise<{ commit?: string; text: string }> {
  const drifted = (await driftedDocuments(docs)).find((d) => d.doc === ref.doc && (ref.doc !== 'component' || d.component === ref.component));
  if (!drifted) return { text: '(nothing changed since the document was written: check that it describes the code as it is)' };
  guardGitPointers(); // never through a .git pointer a command running now rewrote (git-guard.ts)
  const diff = await run('git', ['diff', drifted.commit, 'HEAD', '--', ...drifted.changed], { cwd: docs.projectDir, maxBuffer: 16 * 1024 * 1024 }).then(
    (r) => r.stdout,
    () => '',
  );
  const shown = diff.length > DIFF_MAX ? `${diff.slice(0, DIFF_MAX)}\n… (the diff is cut here: read the files for the rest)` : diff;
  const list = drifted.changed.map((f) => `- ${f}`).join('\n');
  return { commit: drifted.commit, text: `Since commit ${drifted.commit}:\n${list}${shown.trim() ? `\n\n\`\`\`diff\n${shown.trimEnd()}\n\`\`\`` : '\n\n(no diff to show: read the files)'}` };
}

/** After the documentation run's commit: each document it brought up to date describes that commit (HEAD when nothing was committed). */
export async function stampUpdatedDocuments(docs: ContextDocs, record: RunRecord, sha: string | undefined): Promise<void> {
  const plan = record.plan?.documents;
  const commit = sha ?? (await headCommit(record.projectDir));
  if (!plan || !commit) return;
  for (const component of plan.components) await stampDocument(docs, { doc: 'component', component }, commit, true);
  if (plan.architecture) await stampDocument(docs, { doc: 'architecture' }, commit);
}
