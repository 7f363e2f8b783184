import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { formatTools } from '../../main/agent/xml';
import type { ToolMap } from '../../main/agent/xml/types';
import { WORKTREE_META } from '../../main/runners/runner';
import { createFilesServer } from './server';

async function connect(dir: string): Promise<Client> {
  const server = createFilesServer({ root: dir });
  const client = new Client({ name: 't', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  return client;
}
const textOf = (r: unknown) => ((r as { content: Array<{ text: string }> }).content[0]!.text);

const root = mkdtempSync(join(tmpdir(), 'erasmus-files-tools-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the files toolset as a model reads it', () => {
  it('offers edit_file right after read_file, before write_file, with an example that changes something', async () => {
    const server = createFilesServer({ root });
    const client = new Client({ name: 't', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const { tools } = await client.listTools();
    await client.close();
    expect(tools.map((t) => t.name).slice(0, 3)).toEqual(['read_file', 'edit_file', 'write_file']);
    const map: ToolMap = new Map(tools.map((t) => [`files__${t.name}`, { description: t.description, inputSchema: t.inputSchema as never }]));
    const text = formatTools(map);
    expect(text).toContain("## files__edit_file\nChange part of a file: oldText (exact, whitespace too, found once) becomes newText");
    expect(text).toContain("Example:\n<files__edit_file>\n<path>src/greet.js</path>\n<oldText>return 'Hello, ' + name;</oldText>\n<newText>return `Hello, ${name}!`;</newText>\n</files__edit_file>");
    // write_file says what it is for, so the two are not confused.
    expect(text).toMatch(/## files__write_file\nCreate a text file .*\(to change part of one, use edit_file\)/);
  });
});

describe("a parallel run's component step", () => {
  it('writes in the worktree its call names, and only in one of the root\'s', async () => {
    const dir = mkdtempSync(join(root, 'lanes-'));
    const worktree = join(dir, '.git', 'erasmus', 'worktrees', 'run1', 'core');
    mkdirSync(worktree, { recursive: true });
    const client = await connect(dir);
    const wrote = await client.callTool({ name: 'write_file', arguments: { path: 'src/a.txt', content: 'a\n' }, _meta: { [WORKTREE_META]: worktree } });
    expect(wrote.isError).toBeFalsy();
    expect(existsSync(join(worktree, 'src/a.txt'))).toBe(true);
    expect(existsSync(join(dir, 'src/a.txt'))).toBe(false);
    const refused = await client.callTool({ name: 'read_file', arguments: { path: 'x' }, _meta: { [WORKTREE_META]: join(dir, '..') } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^refused: the worktree ".*" is not one of this project's/);
    await client.close();
  });
});

describe('list and search leave out .git/ and what .gitignore ignores, and say how much', () => {
  it('skips .git, root and nested .gitignore rules; a folder asked for by its path is listed', async () => {
    const dir = mkdtempSync(join(root, 'repo-'));
    const put = (p: string, t = 'needle\n') => {
      mkdirSync(join(dir, p, '..'), { recursive: true });
      writeFileSync(join(dir, p), t);
    };
    put('.gitignore', 'node_modules/\n*.log\n');
    put('.git/objects/ab/cdef', 'needle');
    put('node_modules/dep/index.js');
    put('debug.log');
    put('src/index.js');
    put('src/gen/.gitignore', 'out.js\n');
    put('src/gen/out.js');
    put('src/gen/keep.js');
    const client = await connect(dir);
    const list = textOf(await client.callTool({ name: 'list', arguments: { recursive: true } }));
    expect(list.split('\n')).toEqual([
      '- .gitignore', 'd src/', 'd src/gen/', '- src/gen/.gitignore', '- src/gen/keep.js', '- src/index.js',
      '[4 entries left out: .git/ and what .gitignore ignores; give such a folder as path to look inside it]',
    ]);
    const search = textOf(await client.callTool({ name: 'search', arguments: { contains: 'needle' } }));
    expect(search).toBe('src/gen/keep.js:1: needle\nsrc/index.js:1: needle\n[4 entries left out: .git/ and what .gitignore ignores; give such a folder as path to look inside it]');
    expect(textOf(await client.callTool({ name: 'list', arguments: { path: 'node_modules', recursive: true } }))).toBe('d node_modules/dep/\n- node_modules/dep/index.js');
    await client.close();
  });
});

describe('errorText: a file system error as the model reads it', () => {
  it('names paths relative to the folder the tools work in (a component worktree too), and says the code once', async () => {
    const { errorText } = await import('./server');
    const root = '/p/.git/erasmus/worktrees/run/truncate';
    const missing = Object.assign(new Error(`ENOENT: no such file or directory, stat '${root}/src/t.js'`), { code: 'ENOENT', path: `${root}/src/t.js` });
    expect(errorText(missing, root)).toBe('src/t.js does not exist (list its folder to see what does)');
    const denied = Object.assign(new Error(`EACCES: permission denied, open '${root}/a.txt'`), { code: 'EACCES' });
    expect(errorText(denied, root)).toBe("EACCES: permission denied, open 'a.txt'");
    expect(errorText(Object.assign(new Error(`is a folder: ${root}`), { code: 'EISDIR' }), root)).toBe('EISDIR: is a folder: .');
  });
});
