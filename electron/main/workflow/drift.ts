import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { promisify } from 'node:util';
import type { WorkflowDriftDocument } from '../../contract/methods/workflow';
import { guardGitPointers } from '../runners/pty/git-guard';
import type { ContextDocs, DocRef } from './documents';
import { PROSE_FILE } from './pass-over';

const run = promisify(execFile);

/**
 * Documents record the commit they describe: when the workflow commits a component, its context
 * document gets a last line naming that commit (the final commit stamps the architecture). A document
 * drifted when files of its subject changed since: the files its component's commit touched (a
 * component; its code, when it has any: not the README its documentation step wrote), or any file of the project (the architecture), in
 * commits since: HEAD is compared, not the working tree (the user's uncommitted edit is theirs until committed; a
 * documentation run would otherwise describe a half-written change).
 * A documentation run (docs-update.ts) stamps the documents it brought up to date with its own commit;
 * a component's document then keeps its subject: `…describes commit <docs commit>, files of commit <component commit>`.
 */
/** The stamp line, wherever it is: a step may write after it (the task lines a component's document is kept in step with). */
const STAMP = /^<!-- erasmus: describes commit ([0-9a-f]{7,64})(?:, files of commit ([0-9a-f]{7,64}))? -->[ \t]*$/gm;

/** A stamp line with the blank lines around it (removed as one paragraph break). */
const STAMP_WITH_GAP = /\n*^<!-- erasmus: describes commit [0-9a-f]{7,64}(?:, files of commit [0-9a-f]{7,64})? -->[ \t]*$\n*/gm;

/** The document's last stamp: the commit it describes, and the commit whose files are its subject when another. */
function lastStamp(text: string): { line: string; sha: string; subject?: string } | undefined {
  const m = [...text.matchAll(STAMP)].at(-1);
  return m ? { line: m[0].trim(), sha: m[1]!, ...(m[2] ? { subject: m[2] } : {}) } : undefined;
}

export function stampOf(text: string): string | undefined {
  return lastStamp(text)?.sha;
}

/** The commit whose files are the document's subject: the one it names as such, else the one it describes. */
export function subjectOf(text: string): string | undefined {
  const s = lastStamp(text);
  return s && (s.subject ?? s.sha);
}

/** The document with its stamp set to `sha` as its last line (any older stamp removed); `subject`: the commit whose files it describes, when another. */
export function stamped(text: string, sha: string, subject?: string): string {
  const files = subject && subject !== sha ? `, files of commit ${subject}` : '';
  const body = text.replace(STAMP_WITH_GAP, '\n\n').trimEnd();
  return `${body}\n\n<!-- erasmus: describes commit ${sha}${files} -->\n`;
}

/** The document as a step reads it: without its stamp (Erasmus's bookkeeping, kept by `keepStamp` when the step hands the text back). */
export function withoutStamp(text: string): string {
  return text.replace(STAMP_WITH_GAP, '\n\n').trimEnd();
}

/** A document handed back by a step without the stamp its earlier text had keeps that stamp (the step rewrote the text, not what it describes). */
export function keepStamp(before: string | undefined, after: string): string {
  const old = before === undefined ? undefined : lastStamp(before);
  return old && !lastStamp(after) ? `${after.trimEnd()}\n\n${old.line}\n` : after;
}

/** Stamps the document with `sha`; `keepSubject`: a component's document brought up to date keeps the commit whose files it describes. */
export async function stampDocument(docs: ContextDocs, ref: DocRef, sha: string, keepSubject = false): Promise<void> {
  const text = await docs.text(ref);
  if (text !== undefined) await docs.write(ref, stamped(text, sha, keepSubject && ref.doc === 'component' ? subjectOf(text) : undefined));
}

async function git(cwd: string, args: string[]): Promise<string | undefined> {
  guardGitPointers(); // never through a .git pointer a command running now rewrote (git-guard.ts)
  try {
    return (await run('git', args, { cwd, maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch {
    return undefined;
  }
}

const lines = (s: string | undefined) => (s ?? '').split('\n').map((l) => l.trim()).filter(Boolean);

/** The documents whose subject changed since the commit they describe. */
export async function driftedDocuments(docs: ContextDocs): Promise<WorkflowDriftDocument[]> {
  const dir = docs.projectDir;
  const refs: Array<{ ref: DocRef; doc: WorkflowDriftDocument['doc']; component?: string }> = [{ ref: { doc: 'architecture' }, doc: 'architecture' }];
  const componentsDir = docs.path({ doc: 'component', component: 'x' }).replace(/[\\/][^\\/]+$/, '');
  for (const f of await readdir(componentsDir).catch(() => [] as string[])) {
    const component = basename(f, '.md');
    if (f.endsWith('.md') && component !== 'final') refs.push({ ref: { doc: 'component', component }, doc: 'component', component });
  }
  const texts = new Map<DocRef, string>();
  for (const r of refs) texts.set(r.ref, (await docs.text(r.ref)) ?? '');
  // The components' own commits, each described by its document: a later one that changed a file another component's
  // commit also touched (two components adding their export to src/index.js) is described there, not a drift of the first.
  const described = await fullShas(dir, refs.flatMap((r) => (r.doc === 'component' ? [stampOf(texts.get(r.ref)!), subjectOf(texts.get(r.ref)!)] : [])));
  const architecture = [...(await fullShas(dir, [stampOf(texts.get(refs[0]!.ref)!)]))][0];
  const out: WorkflowDriftDocument[] = [];
  for (const r of refs) {
    const text = texts.get(r.ref)!;
    const commit = stampOf(text);
    if (!commit) continue;
    if ((await git(dir, ['cat-file', '-e', `${commit}^{commit}`])) === undefined) continue; // not in this repository (any more)
    let changed: string[];
    if (r.doc === 'architecture') {
      changed = lines(await git(dir, ['diff', '--name-only', commit, 'HEAD', '--']));
    } else {
      // Its code: the documentation the component's commit wrote (a README section) is what describes it, and later
      // documentation steps (the final one) rewrite it without changing the subject.
      const files = lines(await git(dir, ['show', '--name-only', '--format=', subjectOf(text)!]));
      const code = files.filter((f) => !PROSE_FILE.test(f));
      const subject = code.length ? code : files;
      changed = subject.length ? lines(await git(dir, ['diff', '--name-only', commit, 'HEAD', '--', ...subject])) : [];
      if (changed.length) changed = await notDescribed(dir, commit, changed, described, [...described, ...(architecture ? [architecture] : [])]);
    }
    changed = [...new Set(changed)].sort();
    if (changed.length) out.push({ doc: r.doc, ...(r.component ? { component: r.component } : {}), path: docs.path(r.ref), commit, changed });
  }
  return out;
}

/** The full ids of the commits named (unknown ones left out). */
async function fullShas(dir: string, names: Array<string | undefined>): Promise<Set<string>> {
  const out = new Set<string>();
  for (const n of new Set(names.filter((x): x is string => !!x))) {
    const sha = (await git(dir, ['rev-parse', '-q', '--verify', `${n}^{commit}`]))?.trim();
    if (sha) out.add(sha);
  }
  return out;
}

/**
 * Of the files changed since `commit` (in HEAD), those a person changed: in a commit since that no component's document
 * describes. A file changed only by other components' commits (described by their documents) is left out.
 * When `commit` is not on the branch checked out (the run was squashed into it: its commits stay on the run's branch),
 * what changed since is read up to the run's commit whose files are as in HEAD (`tips`: the described commits and
 * the architecture's, descending from `commit`); a file HEAD holds otherwise than that commit is a change.
 */
async function notDescribed(dir: string, commit: string, changed: string[], described: Set<string>, tips: string[]): Promise<string[]> {
  let tip = 'HEAD';
  let unlike: string[] = [];
  if ((await git(dir, ['merge-base', '--is-ancestor', commit, 'HEAD'])) === undefined) {
    let best: { sha: string; unlike: string[] } | undefined;
    for (const t of new Set(tips)) {
      if ((await git(dir, ['merge-base', '--is-ancestor', commit, t])) === undefined) continue;
      const diff = await git(dir, ['diff', '--name-only', t, 'HEAD', '--', ...changed]);
      if (diff === undefined) continue;
      if (!best || lines(diff).length < best.unlike.length) best = { sha: t, unlike: lines(diff) };
    }
    if (!best) return changed; // another branch, a rewritten history: what changed since is not told apart
    ({ sha: tip, unlike } = best);
  }
  const byOthers = new Set<string>(unlike);
  let sha = '';
  for (const l of lines(await git(dir, ['log', '--format=commit %H', '--name-only', `${commit}..${tip}`, '--', ...changed]))) {
    if (l.startsWith('commit ')) sha = l.slice(7);
    else if (!described.has(sha)) byOthers.add(l);
  }
  return changed.filter((f) => byOthers.has(f));
}
