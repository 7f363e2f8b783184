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

it("a file two components' commits both changed (each adds its export to index.js) is no drift of the first; a person's change to it is, in the working tree or in a commit", async () => {
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
  const a = await component('a');
  const b = await component('b');
  expect(await driftedDocuments(docs)).toEqual([]);
  appendFileSync(join(dir, 'index.js'), '// mine\n');
  const drifted = async () => (await driftedDocuments(docs)).map((d) => [d.component, d.commit, d.changed]);
  expect(await drifted()).toEqual([['a', a, ['index.js']], ['b', b, ['index.js']]]);
  git(dir, 'commit', '-qam', 'chore: a comment');
  expect(await drifted()).toEqual([['a', a, ['index.js']], ['b', b, ['index.js']]]);
});
