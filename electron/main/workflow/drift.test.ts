import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { Paths } from '../paths/index';
import { ContextDocs } from './documents';
import { driftedDocuments, stamped } from './drift';
import { git, repositoryIn } from './testing-repo';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

async function twoComponents() {
  root = mkdtempSync(join(tmpdir(), 'erasmus-drift-'));
  const dir = repositoryIn(root);
  const docs = new ContextDocs(new Paths(join(root, 'home')), dir);
  mkdirSync(join(dir, 'src'));
  const component = async (name: string) => {
    writeFileSync(join(dir, 'src', `${name}.js`), `exports.${name} = () => 1;\n`);
    appendFileSync(join(dir, 'index.js'), `exports.${name} = require('./src/${name}.js').${name};\n`);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', `feat: ${name}`);
    const sha = git(dir, 'rev-parse', 'HEAD');
    await docs.write({ doc: 'component', component: name }, stamped(`# ${name}\n`, sha));
    return sha;
  };
  const drifted = async () => (await driftedDocuments(docs)).map((d) => [d.doc, d.component, d.commit, d.changed]);
  return { dir, docs, component, drifted };
}

it("a file two components' commits both changed (each adds its export to index.js) is no drift of the first; a person's commit changing it is, their uncommitted edit is not", async () => {
  const { dir, component, drifted } = await twoComponents();
  const a = await component('a');
  const b = await component('b');
  expect(await drifted()).toEqual([]);
  // Uncommitted: the user's, not yet what the documents describe (HEAD is compared, not the working tree).
  appendFileSync(join(dir, 'index.js'), '// mine\n');
  writeFileSync(join(dir, 'src', 'a.js'), 'exports.a = () => 2; // TODO\n');
  expect(await drifted()).toEqual([]);
  git(dir, 'commit', '-qam', 'chore: a comment');
  expect(await drifted()).toEqual([
    ['component', 'a', a, ['index.js', 'src/a.js']],
    ['component', 'b', b, ['index.js']],
  ]);
});

it("after the run is squashed into main (its commits left on the run's branch), only a commit of the user's since is drift, not the run's later components nor an uncommitted edit", async () => {
  const { dir, docs, component, drifted } = await twoComponents();
  git(dir, 'checkout', '-q', '-b', 'erasmus/run');
  await component('a');
  const b = await component('b');
  writeFileSync(join(dir, 'README.md'), '# lib\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'docs: the final documentation');
  const final = git(dir, 'rev-parse', 'HEAD');
  await docs.write({ doc: 'architecture' }, stamped('# Architecture\n', final));
  git(dir, 'checkout', '-q', 'main');
  git(dir, 'merge', '-q', '--squash', 'erasmus/run');
  git(dir, 'commit', '-q', '-m', 'feat: a and b');
  expect(() => git(dir, 'merge-base', '--is-ancestor', final, 'HEAD')).toThrow(); // the run's commits are not on main
  expect(await drifted()).toEqual([]);
  appendFileSync(join(dir, 'src', 'b.js'), '// TODO: half-written\n');
  expect(await drifted()).toEqual([]);
  git(dir, 'commit', '-qam', 'fix: b');
  expect(await drifted()).toEqual([
    ['architecture', undefined, final, ['src/b.js']],
    ['component', 'b', b, ['src/b.js']],
  ]);
});
