import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { makeRepository } from './git';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

const log = (dir: string) => execFileSync('git', ['log', '--format=%s', '--name-only'], { cwd: dir, encoding: 'utf8' }).trim();

it('makes a repository whose first commit holds the files already there, .gitignore respected', async () => {
  root = mkdtempSync(join(tmpdir(), 'erasmus-make-repo-'));
  writeFileSync(join(root, 'app.py'), 'print(1)\n');
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n');
  mkdirSync(join(root, 'node_modules'));
  writeFileSync(join(root, 'node_modules', 'x.js'), '1\n');
  expect(await makeRepository(root)).toEqual({ committed: 2 });
  expect(log(root)).toBe('Initial commit: the files as they were before Erasmus\n\n.gitignore\napp.py');
});

it('commits nothing where, without a .gitignore, it would commit what is made or secret, and names it', async () => {
  root = mkdtempSync(join(tmpdir(), 'erasmus-make-repo-'));
  writeFileSync(join(root, 'app.js'), '1\n');
  mkdirSync(join(root, 'node_modules'));
  writeFileSync(join(root, '.env'), 'KEY=secret\n');
  expect(await makeRepository(root)).toEqual({ held: ['node_modules', '.env'] });
  expect(existsSync(join(root, '.git'))).toBe(true);
  expect(execFileSync('git', ['rev-list', '--all', '--count'], { cwd: root, encoding: 'utf8' }).trim()).toBe('0');
});

it('an empty folder: a repository with no commit', async () => {
  root = mkdtempSync(join(tmpdir(), 'erasmus-make-repo-'));
  expect(await makeRepository(root)).toEqual({ committed: 0 });
  expect(existsSync(join(root, '.git'))).toBe(true);
});
