import { execFile } from 'node:child_process';
import { rmdirSync } from 'node:fs';
import { copyFile, lstat, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { WorkflowTimelineEntry } from '../../contract/methods/workflow';
import { ownedTmpDir } from '../common/owned-tmp';
import { guardGitPointers } from '../runners/pty/git-guard';
import { isName } from './commit-phrase';

const run = promisify(execFile);

/** Runs git in `cwd`: its output (stdout, then stderr when it failed) and exit code; throws only when git cannot start. */
export async function git(cwd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<{ stdout: string; code: number }> {
  // Unsandboxed: never through a .git pointer a command running now rewrote (git-guard.ts).
  guardGitPointers();
  try {
    const r = await run('git', args, { cwd, maxBuffer: 16 * 1024 * 1024, ...(env ? { env: { ...process.env, ...env } } : {}) });
    return { stdout: r.stdout, code: 0 };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string; message: string };
    if (typeof e.code === 'number') return { stdout: (e.stdout ?? '') + (e.stderr ?? ''), code: e.code };
    throw err;
  }
}

/** Whether the folder is inside a git work tree. */
export async function isRepository(dir: string): Promise<boolean> {
  const r = await git(dir, ['rev-parse', '--is-inside-work-tree']).catch(() => undefined);
  return r?.code === 0 && r.stdout.trim() === 'true';
}

/** Paths (relative to the repository's top) with uncommitted changes, untracked ones included (a rename: its new path); undefined outside a repository. */
export async function uncommittedFiles(dir: string): Promise<string[] | undefined> {
  return (await statusEntries(dir))?.filter((e) => !e.renamedAway).map((e) => e.path);
}

/** The uncommitted changes (untracked files `added`; a rename is its path `added` and its source `deleted`); undefined outside a repository. */
export async function uncommittedChanges(dir: string): Promise<Array<{ path: string; change: 'added' | 'modified' | 'deleted' }> | undefined> {
  return (await statusEntries(dir))?.map(({ path, change }) => ({ path, change }));
}

type StatusEntry = { path: string; change: 'added' | 'modified' | 'deleted'; renamedAway?: true };

async function statusEntries(dir: string): Promise<StatusEntry[] | undefined> {
  if (!(await isRepository(dir))) return undefined;
  const r = await git(dir, ['status', '--porcelain', '-z', '--untracked-files=all']);
  if (r.code !== 0) return undefined;
  const parts = r.stdout.split('\0').filter(Boolean);
  const out: StatusEntry[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const xy = p.slice(0, 2);
    const copied = p[0] === 'R' || p[0] === 'C';
    out.push({ path: p.slice(3), change: copied || xy === '??' || xy.includes('A') ? 'added' : xy.includes('D') ? 'deleted' : 'modified' });
    if (!copied) continue;
    i++; // a rename's (or copy's) source follows it
    if (p[0] === 'R' && parts[i]) out.push({ path: parts[i]!, change: 'deleted', renamedAway: true });
  }
  return out;
}

/** The branch checked out (also on a branch with no commit yet); undefined when HEAD is detached. */
export async function currentBranch(dir: string): Promise<string | undefined> {
  const r = await git(dir, ['symbolic-ref', '-q', '--short', 'HEAD']);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

const CODE = /\.(m?[jt]sx?|cjs|cts|mts|py|rs|go|java|kt|rb|php|cs|c|cc|cpp|h|hpp|swift|scala|ex|exs|clj|hs|lua|dart|vue|svelte)$/i;

/**
 * Whether the folder is an existing code base: a repository with commits whose tracked files include
 * source code (a README and a manifest alone are a project still to be written).
 */
export async function hasCommittedCode(dir: string): Promise<boolean> {
  if (!(await headCommit(dir))) return false;
  const r = await git(dir, ['ls-files', '-z']);
  return r.code === 0 && r.stdout.split('\0').some((f) => CODE.test(f) && !f.startsWith('node_modules/'));
}

/** A branch name from a goal: `erasmus/` and its first words, lower case, dashes between. */
export function branchName(goal: string | undefined): string {
  const slug = (goal ?? '')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .split('-')
    .filter(Boolean)
    .slice(0, 6)
    .join('-')
    .slice(0, 48)
    .replace(/-$/, '');
  return `erasmus/${slug || 'run'}`;
}

/** Creates and checks out the run's branch (`erasmus/<goal>`, `-2`… when taken); uncommitted changes come along. */
export async function startRunBranch(dir: string, goal: string | undefined): Promise<{ branch: string; base?: string }> {
  const base = await currentBranch(dir);
  const want = branchName(goal);
  let name = want;
  for (let n = 2; (await git(dir, ['show-ref', '--verify', '-q', `refs/heads/${name}`])).code === 0; n++) name = `${want}-${n}`;
  const r = await git(dir, ['checkout', '-q', '-b', name]);
  if (r.code !== 0) throw new Error(`git checkout -b ${name} failed: ${r.stdout.trim()}`);
  return { branch: name, ...(base ? { base } : {}) };
}

/** Stashes every uncommitted change (untracked files too) under `message`; `git stash pop` brings it back. */
export async function stashAll(dir: string, message: string): Promise<void> {
  const r = await git(dir, ['stash', 'push', '-q', '--include-untracked', '-m', message]);
  if (r.code !== 0) throw new Error(`git stash failed: ${r.stdout.trim()}`);
}

/** `-c user.email/name` for a repository with no identity configured (the commit is then by "Erasmus"). */
export async function identityArgs(dir: string): Promise<string[]> {
  // Both keys in one process ("user.email VALUE" / "user.name VALUE" lines; none is exit code 1).
  const r = await git(dir, ['config', '--get-regexp', '^user\\.(email|name)$']);
  const set = new Set(r.code === 0 ? r.stdout.split('\n').map((l) => l.split(' ')[0]) : []);
  const out: string[] = [];
  if (!set.has('user.email')) out.push('-c', 'user.email=erasmus@localhost');
  if (!set.has('user.name')) out.push('-c', 'user.name=Erasmus');
  return out;
}

/** Folders and files that are made, not written, or secret: never in a first commit made without a .gitignore. */
const NOT_FIRST_COMMIT = ['node_modules', '.venv', 'venv', 'target', 'dist', 'build', '__pycache__', '.env'];

/**
 * Makes `dir` a git repository (for a user who chose so: Erasmus's own command, not the model's) and commits the files
 * already there as its first commit, so a run's commits hold only its own work. Left uncommitted where, without a
 * .gitignore, it would commit what is made or secret (`held`: those names); the user commits them as they see fit.
 */
export async function makeRepository(dir: string): Promise<{ committed: number } | { held: string[] }> {
  const init = await git(dir, ['init', '-q']);
  if (init.code !== 0) throw new Error(`git init failed in ${dir}: ${init.stdout.trim() || 'it said nothing'}`);
  const names = new Set(await readdir(dir).catch(() => [] as string[]));
  const held = names.has('.gitignore') ? [] : NOT_FIRST_COMMIT.filter((n) => names.has(n));
  if (held.length) return { held };
  if ((await git(dir, ['add', '-A'])).code !== 0) return { committed: 0 };
  const staged = await git(dir, ['diff', '--cached', '--name-only', '-z']);
  const count = staged.stdout.split('\0').filter(Boolean).length;
  if (!count) return { committed: 0 };
  const commit = await git(dir, [...(await identityArgs(dir)), 'commit', '-q', '--no-verify', '-m', 'Initial commit: the files as they were before Erasmus']);
  if (commit.code !== 0) throw new Error(`the first commit failed in ${dir}: ${commit.stdout.trim() || 'git said nothing'}`);
  return { committed: count };
}

/**
 * Stages exactly these paths (relative to the repository's top; deletions too) and nothing else; the
 * user's index otherwise stays as it was. Returns whether these paths have anything staged to commit.
 */
export async function stagePaths(dir: string, paths: string[]): Promise<boolean> {
  if (paths.length) {
    const add = await git(dir, ['add', '-A', '--', ...paths.map((p) => `:(top,literal)${p}`)]);
    if (add.code !== 0) throw new Error(`git add failed: ${add.stdout.trim()}`);
  }
  return paths.length > 0 && (await git(dir, ['diff', '--cached', '--quiet', '--', ...paths.map((p) => `:(top,literal)${p}`)])).code === 1;
}

/**
 * The paths (relative to the repository's top) that a commit can hold: those on disk and those git tracks
 * (a tracked file deleted is a change); a file a step made and a later step removed, never tracked, is neither.
 */
export async function committablePaths(dir: string, paths: string[]): Promise<string[]> {
  if (!paths.length) return paths;
  const top = (await git(dir, ['rev-parse', '--show-toplevel'])).stdout.trim() || dir;
  const tracked = new Set((await git(dir, ['ls-files', '--cached', '-z', '--', ...paths.map((p) => `:(top,literal)${p}`)])).stdout.split('\0').filter(Boolean));
  const keep = await Promise.all(paths.map(async (p) => tracked.has(p) || (await lstat(join(top, p)).then(() => true, () => false))));
  return paths.filter((_, i) => keep[i]);
}

/** A path relative to the project as the repository names it (relative to its top). */
export async function repoPath(dir: string, path: string): Promise<string> {
  const r = await git(dir, ['rev-parse', '--show-prefix']);
  return `${r.code === 0 ? r.stdout.trim() : ''}${path}`;
}

/** Where git keeps a file of its own (e.g. a commit message), as an absolute path. */
export async function gitPath(dir: string, name: string): Promise<string> {
  return (await gitPaths(dir, [name]))[0]!;
}

/** Where the repository keeps each of these files (`gitPath` for several names, in one git process). */
export async function gitPaths(dir: string, names: string[]): Promise<string[]> {
  const r = await git(dir, ['rev-parse', ...names.flatMap((n) => ['--git-path', n])]);
  const lines = r.stdout.trim().split('\n');
  return names.map((_, i) => resolve(dir, (lines[i] ?? '').trim()));
}

/** The subject of HEAD's commit. */
export async function headSubject(dir: string): Promise<string | undefined> {
  const r = await git(dir, ['log', '-1', '--format=%s']);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** How the repository writes commit subjects, learned from its last ones (none yet: plain). */
export interface CommitStyle {
  /** Conventional Commits (`feat: …`, `fix(scope): …`) in most recent subjects. */
  conventional: boolean;
  /** Subjects start with a lower-case letter (after any type or scope prefix). */
  lowerCase: boolean;
  /**
   * The scope this commit's subject names, where most recent subjects name one (`textkit: add …`, or `feat(cli): …`
   * in Conventional Commits): the scope whose recent commits touched the folders of this commit's files, else the one
   * used most.
   */
  scope?: string;
}

const CONVENTIONAL = /^(feat|fix|docs|test|tests|chore|refactor|perf|build|ci|style|revert)(\([^)]*\))?!?: \S/;
/** A subject that begins with a scope of its own: `textkit: add …`, `docs/api: …` (a word, no spaces, then `: `). */
const SCOPED = /^([A-Za-z0-9][\w./-]*): \S/;

/** The scope a subject names: `cli` of `feat(cli): …` (Conventional Commits), `textkit` of `textkit: add …` (else). */
function scopeOf(subject: string, conventional: boolean): string | undefined {
  if (conventional) return /^\w+\(([^)]+)\)!?: /.exec(subject)?.[1];
  return CONVENTIONAL.test(subject) ? undefined : SCOPED.exec(subject)?.[1];
}

/** How the repository writes subjects; `files`: the paths the commit holds, to choose the scope that fits them. */
export async function commitStyle(dir: string, files: readonly string[] = []): Promise<CommitStyle> {
  const r = await git(dir, ['log', '-n', '30', '--no-merges', '--format=%x00%s', '--name-only']);
  const commits = (r.code === 0 ? r.stdout.split('\0') : [])
    .map((chunk) => chunk.split('\n'))
    .filter((l) => l[0])
    .map(([subject, ...paths]) => ({ subject: subject!, paths: paths.filter(Boolean) }));
  const subjects = commits.map((c) => c.subject);
  if (!subjects.length) return { conventional: false, lowerCase: false };
  const conventional = subjects.filter((s) => CONVENTIONAL.test(s)).length * 2 >= subjects.length;
  // The first letter after any type or scope: `add` of `textkit: add …`.
  const bare = (s: string) => (CONVENTIONAL.test(s) || conventional ? s : s.replace(SCOPED, (m) => m.slice(-1))).replace(CONVENTIONAL, (m) => m.slice(-1));
  const firsts = subjects.map((s) => bare(s).replace(/^[^A-Za-z]+/, '')[0]).filter(Boolean);
  const lowerCase = firsts.filter((c) => c === c!.toLowerCase()).length * 2 > firsts.length;
  const scoped = commits.flatMap((c) => {
    const scope = scopeOf(c.subject, conventional);
    return scope ? [{ scope, paths: c.paths }] : [];
  });
  // Scopes are the repository's habit when most subjects (of its Conventional Commits, in that style) name one.
  const among = conventional ? subjects.filter((s) => CONVENTIONAL.test(s)).length : subjects.length;
  if (!scoped.length || scoped.length * 2 <= among) return { conventional, lowerCase };
  return { conventional, lowerCase, scope: scopeFor(scoped, files) };
}

/**
 * The scope for a commit of `files`: each file votes for the scope whose commits touched the path nearest to it (the
 * most leading folders in common); without a vote, the scope used most (ties: the most recent).
 */
function scopeFor(scoped: ReadonlyArray<{ scope: string; paths: string[] }>, files: readonly string[]): string {
  const used = new Map<string, number>();
  for (const s of scoped) used.set(s.scope, (used.get(s.scope) ?? 0) + 1);
  const common = (a: string, b: string) => {
    const x = a.split('/').slice(0, -1);
    const y = b.split('/').slice(0, -1);
    let n = 0;
    while (n < x.length && n < y.length && x[n] === y[n]) n++;
    return n;
  };
  const byFiles = new Map<string, number>();
  for (const file of files) {
    let best = 0;
    let winner: string | undefined;
    for (const s of scoped) {
      const near = Math.max(0, ...s.paths.map((p) => common(file, p)));
      if (near > best) [best, winner] = [near, s.scope];
    }
    if (winner) byFiles.set(winner, (byFiles.get(winner) ?? 0) + 1);
  }
  const most = (votes: Map<string, number>) => [...votes].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  return byFiles.size ? most(byFiles) : most(used);
}

/** A subject in the repository's style: `feat: add …` where Conventional Commits are used, else `Add …`. */
export function commitSubject(style: CommitStyle, what: string, type: CommitType = 'feat', names: readonly string[] = []): string {
  return subjectOf(style, what, type, names).subject;
}

type CommitType = 'feat' | 'fix' | 'test' | 'docs' | 'chore';

function subjectOf(style: CommitStyle, what: string, type: CommitType, names: readonly string[] = []): { subject: string; cut: boolean } {
  const text = what.trim().replace(/\.$/, '');
  // A first word cased on purpose keeps its case: an acronym (`JSON output`, not `jSON output`) or a name like `iOS`.
  const word = /^\S+/.exec(text)?.[0] ?? '';
  // So does a name from the code: `count_words`, `slugify()`, `src/cli.js`, `os.path`.
  // And a name the caller knows is one (a component's id: "upper uppercases the input", not "Upper uppercases …").
  const fixed = isName(word, names);
  const cased = fixed ? text : style.lowerCase || style.conventional ? text.charAt(0).toLowerCase() + text.slice(1) : text.charAt(0).toUpperCase() + text.slice(1);
  const prefix = style.conventional ? `${type}${style.scope ? `(${style.scope})` : ''}: ` : style.scope ? `${style.scope}: ` : '';
  const subject = prefix + cased;
  if (subject.length <= SUBJECT_MAX) return { subject, cut: false };
  // Too long, and the text names several things ("add truncate(s, n) that …, and wordCount(s) that counts words"):
  // each named without what follows it ("add truncate(s, n) and wordCount(s)"), so the subject drops none of them.
  const named = namedParts(cased);
  if (named && prefix.length + named.length <= SUBJECT_MAX) return { subject: prefix + named, cut: true };
  // Too long: the text up to the end of its first clause that fits ("add a helper" of "add a helper that reverses…"),
  // a phrase that reads whole; only without one, cut at a word's end and marked cut.
  let clause = '';
  for (const m of cased.matchAll(CLAUSE_END)) {
    const head = cased.slice(0, m.index).replace(/[\s,;:(—–-]+$/, '');
    if (prefix.length + head.length > SUBJECT_MAX) break;
    if (head.length >= 12) clause = head;
  }
  if (clause) return { subject: prefix + clause, cut: true };
  const head = subject.slice(0, SUBJECT_MAX - 1);
  const space = head.lastIndexOf(' ');
  return { subject: `${(space > 40 ? head.slice(0, space) : head).trimEnd()}…`, cut: true };
}

const SUBJECT_MAX = 72;
/** Where a part of a title says more about what it names: a relative or adverbial clause ("… that counts words"). */
const MORE_ABOUT = /\s(?:that|which|who|with|without|by|so that|instead of|because|when|where|while|if|unless|so)\s/;

/**
 * The things a title names, each without what it says about them, joined as a list ("add truncate(s, n) and
 * wordCount(s)"), when the title has two parts or more at its top level (commas or semicolons outside brackets and
 * code); undefined otherwise.
 */
function namedParts(text: string): string | undefined {
  const parts: string[] = [];
  let depth = 0;
  let code = false;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '`') code = !code;
    else if (!code && '([{'.includes(ch)) depth++;
    else if (!code && ')]}'.includes(ch)) depth = Math.max(0, depth - 1);
    else if (!code && depth === 0 && (ch === ',' || ch === ';') && /\s/.test(text[i + 1] ?? '')) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  const trimmed = parts.map((p) => p.trim().replace(/^(?:and|or|plus)\s+/, ''));
  // A part that is itself a clause about something ("with separator, words are joined by it; …") names no thing: the
  // heads would be fragments ("with separator, words are joined and a separator"), so the title is cut at a clause instead.
  if (trimmed.some((p) => MORE_ABOUT.exec(` ${p}`)?.index === 0)) return undefined;
  const heads = trimmed
    .map((p) => {
      const m = MORE_ABOUT.exec(p);
      return (m && m.index >= 3 ? p.slice(0, m.index) : p).replace(/[\s,;:(—–-]+$/, '');
    })
    .filter(Boolean);
  if (heads.length < 2) return undefined;
  return `${heads.slice(0, -1).join(', ')} and ${heads[heads.length - 1]}`;
}
/** Where a clause of a title ends: punctuation, or before a word that starts a new clause. */
const CLAUSE_END = /[,;:]\s|\s[—–]\s|\s(?=(?:that|which|who|and|but|so|while|whereas|because|when|where|if|unless|with|without|by|so that|instead of)\s)/g;

/**
 * A commit's message: the subject (commitSubject), and when that had to shorten the text, the whole text as the
 * body, so nothing said is lost to the cut.
 */
export function commitMessage(style: CommitStyle, what: string, type: CommitType = 'feat', names: readonly string[] = []): string {
  const { subject, cut } = subjectOf(style, what, type, names);
  return cut ? `${subject}\n\n${what.trim()}` : subject;
}

/** The commit the project's HEAD points at (absent outside a repository or before its first commit). */
export async function headCommit(projectDir: string): Promise<string | undefined> {
  const r = await git(projectDir, ['rev-parse', '--verify', '-q', 'HEAD']).catch(() => undefined);
  return r?.code === 0 ? r.stdout.trim() || undefined : undefined;
}

/** Where each repository keeps its index (asked once per folder: a folder that is a repository stays one). */
const indexes = new Map<string, string>();
async function indexOf(projectDir: string): Promise<string | undefined> {
  const known = indexes.get(projectDir);
  if (known) return known;
  const where = await git(projectDir, ['rev-parse', '--is-inside-work-tree', '--git-path', 'index']).catch(() => undefined);
  const [inside, index] = where?.code === 0 ? where.stdout.trim().split('\n') : [];
  if (inside !== 'true' || !index) return undefined;
  const path = resolve(projectDir, index);
  indexes.set(projectDir, path);
  return path;
}

let indexes_: string | undefined;
/**
 * This process's folder for temporary indexes, named by it: one a killed process left (with an index git was writing)
 * is removed by a later process's first (ownedTmpDir); this process removes its own, empty by then, as it exits.
 */
function indexDir(): string {
  if (!indexes_) {
    const dir = ownedTmpDir(tmpdir(), 'git');
    indexes_ = dir;
    process.once('exit', () => {
      try {
        rmdirSync(dir);
      } catch {
        // Not empty (an index being written as the process ended): the next process's sweep removes it.
      }
    });
  }
  return indexes_;
}

/**
 * Runs `fn` with a temporary index holding the working tree (tracked and untracked files, minus ignored ones), so the
 * user's index and history stay as they are; undefined outside a repository or when git cannot add the files.
 */
async function withWorkingTreeIndex<T>(projectDir: string, fn: (env: { GIT_INDEX_FILE: string }) => Promise<T | undefined>): Promise<T | undefined> {
  const realIndex = await indexOf(projectDir);
  if (!realIndex) return undefined;
  const index = join(indexDir(), `index-${Math.random().toString(36).slice(2)}`);
  try {
    // Seeded from the real index, so unchanged files are not hashed again.
    await copyFile(realIndex, index).catch(() => undefined);
    const env = { GIT_INDEX_FILE: index };
    if ((await git(projectDir, ['add', '-A', '--', '.'], env)).code !== 0) return undefined;
    return await fn(env);
  } finally {
    await rm(index, { force: true });
  }
}

/**
 * The working tree as a git tree object (tracked and untracked files, minus ignored ones), written
 * through a temporary index so the user's index and history stay as they are. Undefined outside a
 * repository. A snapshot before a step and `filesChangedSince` after it say which files it touched.
 */
export async function snapshotTree(projectDir: string): Promise<string | undefined> {
  return withWorkingTreeIndex(projectDir, async (env) => {
    const tree = await git(projectDir, ['write-tree'], env);
    return tree.code === 0 ? tree.stdout.trim() : undefined;
  });
}

export type FileChange = NonNullable<WorkflowTimelineEntry['files']>[number];
const CHANGE: Record<string, FileChange['change']> = { A: 'added', M: 'modified', D: 'deleted', T: 'modified' };

/** `--name-status -z` output as changes. */
export function nameStatus(out: string): FileChange[] {
  const parts = out.split('\0').filter(Boolean);
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) changes.push({ path: parts[i + 1]!, change: CHANGE[parts[i]!.charAt(0)] ?? 'modified' });
  return changes;
}

/** The files a commit changed (against its first parent; each file of a commit without one), paths relative to the repository's top. */
export async function commitFiles(projectDir: string, sha: string): Promise<FileChange[]> {
  const r = await git(projectDir, ['diff-tree', '-r', '--root', '--no-commit-id', '--name-status', '--no-renames', '-z', sha]);
  return r.code === 0 ? nameStatus(r.stdout) : [];
}

/** Files that differ between two snapshots, paths relative to the repository's top. */
export async function changedFiles(projectDir: string, before: string, after: string): Promise<FileChange[]> {
  if (before === after) return [];
  const r = await git(projectDir, ['diff', '--name-status', '--no-renames', '-z', before, after]);
  return r.code === 0 ? nameStatus(r.stdout) : [];
}

/**
 * Files that differ between snapshot `before` and the working tree now, paths relative to the repository's top:
 * `changedFiles(before, snapshotTree())` in two git processes instead of three (the fresh index is compared with
 * `before` as it is, not written as a tree first; each step of a run asks this once). Undefined outside a repository.
 */
export async function filesChangedSince(projectDir: string, before: string): Promise<FileChange[] | undefined> {
  return withWorkingTreeIndex(projectDir, async (env) => {
    const r = await git(projectDir, ['diff-index', '--cached', '--name-status', '--no-renames', '-z', before, '--'], env);
    return r.code === 0 ? nameStatus(r.stdout) : [];
  });
}
