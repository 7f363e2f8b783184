import { execFile, spawn } from 'node:child_process';
import { appendFile, copyFile, mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { guardGitPointers } from '../runners/pty/git-guard';

const exec = promisify(execFile);

export interface GitResult {
  stdout: string;
  code: number;
}

/** The environment of a git child: none of the caller's GIT_* variables (a hook's GIT_DIR or GIT_INDEX_FILE would aim it elsewhere). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return { ...env, GIT_TERMINAL_PROMPT: '0', ...extra };
}

/** Runs git; a non-zero exit is a result (stdout + stderr), a missing git is thrown. */
export async function git(cwd: string, args: string[], extraEnv?: Record<string, string>): Promise<GitResult> {
  // Unsandboxed, in the project too (head.ts): never through a .git pointer a command running now rewrote (git-guard.ts).
  guardGitPointers();
  try {
    const r = await exec('git', args, { cwd, maxBuffer: 64 * 1024 * 1024, env: cleanEnv(extraEnv) });
    return { stdout: r.stdout, code: 0 };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string };
    if (typeof e.code === 'number') return { stdout: (e.stdout ?? '') + (e.stderr ?? ''), code: e.code };
    throw err;
  }
}

async function ok(cwd: string, args: string[], env?: Record<string, string>): Promise<string> {
  const r = await git(cwd, args, env);
  if (r.code !== 0) throw new Error(`git ${args[0] === '--git-dir' ? args.slice(4).join(' ') : args.join(' ')} failed: ${r.stdout.trim()}`);
  return r.stdout;
}

export type Change = { path: string; change: 'added' | 'modified' | 'deleted' };
const CHANGE: Record<string, Change['change']> = { A: 'added', M: 'modified', D: 'deleted', T: 'modified' };

/** `--name-status -z` output as changes. */
function nameStatus(out: string): Change[] {
  const parts = out.split('\0').filter(Boolean);
  const changes: Change[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) changes.push({ path: parts[i + 1]!, change: CHANGE[parts[i]!.charAt(0)] ?? 'modified' });
  return changes;
}

/**
 * A git repository kept outside the project (under ERASMUS_HOME) whose work tree is the project:
 * it stores the project's files as trees, so a checkpoint costs only the files that changed, and the
 * project's own `.git` is never written. Git skips every `.git` folder and what `.gitignore` ignores.
 * Each operation writes through a copy of the shadow index, so two processes never meet on its lock.
 */
export class ShadowRepo {
  private ready?: Promise<void>;

  constructor(
    readonly gitDir: string,
    readonly workTree: string,
    /** Folders inside the project the shadow must leave out (ERASMUS_HOME when it lives there). */
    private readonly exclude: string[] = [],
  ) {}

  private args(rest: string[]): string[] {
    return ['--git-dir', this.gitDir, '--work-tree', this.workTree, ...rest];
  }

  private run(rest: string[], env?: Record<string, string>): Promise<string> {
    return ok(this.workTree, this.args(rest), env);
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      if (await stat(join(this.gitDir, 'HEAD')).catch(() => undefined)) return;
      await mkdir(this.gitDir, { recursive: true });
      await ok(this.workTree, ['--git-dir', this.gitDir, 'init', '-q']);
      // Written as git writes its config, in one go (a process per key is slow on a loaded machine).
      const settings = [
        '[core]',
        '\tbare = false',
        '\tautocrlf = false',
        '\tfsmonitor = false',
        '\tuntrackedCache = true',
        '[index]',
        '\tversion = 4',
        '[gc]',
        '\tauto = 0',
        '[user]',
        '\tname = Erasmus checkpoints',
        '\temail = erasmus@localhost',
        '[commit]',
        '\tgpgsign = false',
      ];
      await appendFile(join(this.gitDir, 'config'), `${settings.join('\n')}\n`);
    })();
    return this.ready.catch((err) => {
      this.ready = undefined;
      throw err;
    });
  }

  private ownExclude?: Promise<string | undefined>;

  /** The project's own ignore rules that live outside its files (.git/info/exclude), and our exclusions. */
  private async syncExcludes(): Promise<void> {
    const lines: string[] = [];
    this.ownExclude ??= git(this.workTree, ['rev-parse', '--git-path', 'info/exclude']).then((r) => (r.code === 0 ? resolve(this.workTree, r.stdout.trim()) : undefined));
    const own = await this.ownExclude;
    if (own) lines.push(await readFile(own, 'utf8').catch(() => ''));
    for (const dir of this.exclude) {
      const rel = relative(this.workTree, dir);
      if (rel && !rel.startsWith('..') && !rel.startsWith(sep)) lines.push(`/${rel.split(sep).join('/')}/`);
    }
    const file = join(this.gitDir, 'info', 'exclude');
    const text = lines.join('\n') + '\n';
    if ((await readFile(file, 'utf8').catch(() => '')) === text) return;
    await mkdir(join(this.gitDir, 'info'), { recursive: true });
    await writeFile(file, text);
  }

  /** Runs `fn` with a private copy of the shadow index (seeded from the last one, so unchanged files are not hashed again), then keeps it. */
  private async withIndex<T>(fn: (env: Record<string, string>) => Promise<T>): Promise<T> {
    const main = join(this.gitDir, 'index');
    const tmp = `${main}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    // The copy keeps the index's own times: git trusts an entry's cached stat only for files older than the
    // index (racy-git), so a copy stamped "now" would let a same-size edit made just before go unseen.
    const seeded = await copyFile(main, tmp).then(() => stat(main), () => undefined);
    if (seeded) await utimes(tmp, seeded.atime, seeded.mtime);
    try {
      const out = await fn({ GIT_INDEX_FILE: tmp });
      await rename(tmp, main);
      return out;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /** The project's files now (tracked and untracked, not ignored) as a tree in the shadow repository, and how many ignored entries were left out. */
  async snapshot(): Promise<{ tree: string; ignored: number }> {
    await this.init();
    await this.syncExcludes();
    // The count of ignored entries reads the last kept index (only to tell tracked from untracked), beside the snapshot.
    const ignored = this.run(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']).then((out) => out.split('\0').filter(Boolean).length);
    const tree = await this.withIndex(async (env) => {
      await this.run(['add', '-A', '--', '.'], env);
      return (await this.run(['write-tree'], env)).trim();
    });
    return { tree, ignored: await ignored };
  }

  /** Keeps a tree alive (its objects survive pruning) under a name: a loose ref, written as git writes one. */
  async keep(name: string, tree: string): Promise<void> {
    if (!/^[0-9a-f]{40,64}$/.test(tree) || !/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`bad checkpoint ref ${name} → ${tree}`);
    const file = join(this.gitDir, 'refs', 'checkpoints', name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(`${file}.lock`, `${tree}\n`);
    await rename(`${file}.lock`, file);
  }

  async drop(names: string[]): Promise<void> {
    if (!names.length) return;
    const input = names.map((n) => `delete refs/checkpoints/${n}\n`).join('');
    await this.init();
    await new Promise<void>((res, rej) => {
      const c = spawn('git', this.args(['update-ref', '--stdin']), { cwd: this.workTree, env: cleanEnv(), stdio: ['pipe', 'ignore', 'pipe'] });
      let err = '';
      c.stderr.on('data', (b: Buffer) => (err += b.toString()));
      c.on('error', rej);
      c.on('close', (code) => (code === 0 ? res() : rej(new Error(`git update-ref failed: ${err.trim()}`))));
      c.stdin.end(input);
    });
  }

  /** The project's files now as a tree, without counting the ignored entries (`snapshot` does both): what a checkpoint takes. */
  async tree(): Promise<string> {
    await this.init();
    await this.syncExcludes();
    return this.withIndex(async (env) => {
      await this.run(['add', '-A', '--', '.'], env);
      return (await this.run(['write-tree'], env)).trim();
    });
  }

  /** Files that differ from tree `from` to the project's files now, in two git processes (the fresh index is compared with `from`; no tree is written). */
  async changedSince(from: string): Promise<Change[]> {
    await this.init();
    await this.syncExcludes();
    return this.withIndex(async (env) => {
      await this.run(['add', '-A', '--', '.'], env);
      return nameStatus(await this.run(['diff-index', '--cached', '--name-status', '--no-renames', '-z', from, '--'], env));
    });
  }

  /** `git diff` from tree `from` to tree `to` (`--stat=200` when `stat`), as text. */
  async diffText(from: string, to: string, stat = false): Promise<string> {
    return this.run(['diff', '--no-color', '--no-ext-diff', ...(stat ? ['--stat=200'] : []), from, to]);
  }

  /** Files that differ from tree `from` to tree `to`. */
  async diff(from: string, to: string): Promise<Change[]> {
    if (from === to) return [];
    return nameStatus(await this.run(['diff', '--name-status', '--no-renames', '-z', from, to]));
  }

  /**
   * Makes the project's files those of `tree`: files the current snapshot has and `tree` lacks are
   * removed, the others written. Ignored files are left alone.
   */
  async restore(tree: string): Promise<void> {
    await this.init();
    await this.syncExcludes();
    await this.withIndex(async (env) => {
      await this.run(['add', '-A', '--', '.'], env);
      await this.run(['read-tree', '-u', '--reset', tree], env);
    });
  }

  /** Drops unreachable objects and packs the rest (after refs were dropped). */
  async gc(): Promise<void> {
    await this.init();
    await this.run(['-c', 'gc.reflogExpire=now', '-c', 'gc.reflogExpireUnreachable=now', 'gc', '--quiet', '--prune=now']);
  }
}
