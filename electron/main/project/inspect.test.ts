import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { inspectProject } from './inspect';

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

it('lists a runner only where the project calls for it and its program is installed: package.json alone is npm, not pnpm', async () => {
  root = await mkdtemp(join(tmpdir(), 'erasmus-inspect-'));
  await mkdir(join(root, '.git'));
  await writeFile(join(root, 'package.json'), '{}');
  await writeFile(join(root, 'pyproject.toml'), '');
  const everything = () => true;
  expect((await inspectProject(root, everything)).runners).toEqual(['uv', 'bash', 'git']);
  await writeFile(join(root, 'pnpm-lock.yaml'), '');
  expect((await inspectProject(root, everything)).runners).toEqual(['uv', 'pnpm', 'bash', 'git']);
  // Nothing installed but bash: only bash is listed, the marker files still are.
  const summary = await inspectProject(root, () => false);
  expect(summary.runners).toEqual(['bash']);
  expect(summary.markers).toEqual(expect.arrayContaining(['package.json', 'pnpm-lock.yaml', 'pyproject.toml']));
});
