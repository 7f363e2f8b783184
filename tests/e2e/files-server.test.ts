import { createHash } from 'node:crypto';
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Runs the real CLI: `node bin/erasmus.js mcp-server files --root DIR` (needs `npx electron-vite build`).
const repo = join(__dirname, '..', '..');
const base = realpathSync(mkdtempSync(join(tmpdir(), 'erasmus-files-')));
const root = join(base, 'root');
const outside = join(base, 'outside');

type Answer = 'accept' | 'decline' | 'cancel' | 'none';

/**
 * One server per way of answering, started at its first use and kept for the file (a CLI start per test cost
 * about 0.7 CPU-s, 35 times); every test still starts from a fresh tree (beforeEach). `asked` is what this
 * connect's caller was asked from then on.
 */
const servers = new Map<Answer, { client: Client; sink: { asked: string[] } }>();

async function connect(answer: Answer): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const known = servers.get(answer);
  if (known) {
    known.sink.asked = asked;
    return { client: known.client, asked };
  }
  const sink = { asked };
  const client = new Client({ name: 'files-test', version: '1.0.0' }, { capabilities: answer === 'none' ? {} : { elicitation: { form: {} } } });
  if (answer !== 'none') {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      sink.asked.push(req.params.message);
      return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: answer };
    });
  }
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(repo, 'bin', 'erasmus.js'), 'mcp-server', 'files', '--root', root], stderr: 'pipe', cwd: repo });
  await client.connect(transport);
  servers.set(answer, { client, sink });
  return { client, asked };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  return { text, isError: r.isError === true };
}

/** Every path under a folder with its content hash (or link target), to prove nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[p] = `link:${readlinkSync(p)}`;
      else if (st.isDirectory()) {
        out[p] = 'dir';
        visit(p);
      } else out[p] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  visit(dir);
  return out;
}

function resetTree(): void {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(join(outside, 'inner'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), 'outside secret');
  writeFileSync(join(outside, 'inner', 'deep.txt'), 'deep');
  writeFileSync(join(root, 'keep.txt'), 'inside');
  writeFileSync(join(root, 'sub', 'a.txt'), 'a');
  symlinkSync(outside, join(root, 'out-link'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link'));
  symlinkSync(join(outside, 'created-through-link.txt'), join(root, 'dangling'));
  symlinkSync(outside, join(root, 'sub', 'up'));
}

beforeAll(() => {
  if (!existsSync(join(repo, 'out', 'main', 'cli.cjs'))) throw new Error('build first: npx electron-vite build');
});
beforeEach(resetTree);
afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.client.close()));
  servers.clear();
  rmSync(base, { recursive: true, force: true });
});

const ESCAPES: string[] = [
  '../outside/secret.txt',
  '../../../../../../etc/passwd',
  'sub/../../outside/secret.txt',
  './sub/./../../outside/inner/deep.txt',
  `${outside}/secret.txt`,
  '/etc/passwd',
  '/tmp',
  '/',
  'out-link/secret.txt',
  'out-link/inner',
  'out-link/new-file.txt',
  'secret-link',
  'dangling',
  'sub/up/secret.txt',
  'sub/up/inner/new.txt',
  '..',
  'keep.txt\u0000../../outside/secret.txt',
];

/** Escapes that are themselves links in the root: removing one removes the link, and nothing it points to. */
const LINKS_IN_ROOT = ['secret-link', 'dangling'];

describe('files server over stdio: path escapes', () => {
  it('lists its nine tools with honest annotations', async () => {
    const { client } = await connect('accept');
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(Object.keys(byName).sort()).toEqual(['append_file', 'edit_file', 'list', 'move', 'read_file', 'remove', 'rename', 'search', 'write_file']);
    for (const ro of ['read_file', 'list', 'search']) expect(byName[ro]).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    for (const d of ['edit_file', 'write_file', 'append_file', 'move', 'rename', 'remove']) expect(byName[d]).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it.each(ESCAPES)('refuses every tool on %j and touches nothing outside', async (p) => {
    const before = snapshot(outside);
    const { client } = await connect('accept');
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['read_file', { path: p }],
      ['write_file', { path: p, content: 'pwned' }],
      ['append_file', { path: p, content: 'pwned' }],
      ['edit_file', { path: p, oldText: 'outside secret', newText: 'pwned' }],
      // A link the project holds is removed as a link (below); through it, or anything outside, never.
      ...(LINKS_IN_ROOT.includes(p) ? [] : ([['remove', { path: p, recursive: true }]] as Array<[string, Record<string, unknown>]>)),
      ['list', { path: p }],
      ['search', { path: p, contains: 'secret' }],
      ['move', { from: p, to: 'stolen.txt' }],
      ['move', { from: 'keep.txt', to: p }],
      ['rename', { path: p, name: 'x' }],
    ];
    for (const [tool, args] of attempts) {
      const r = await call(client, tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)} → ${r.text}`).toBe(true);
      expect(r.text).not.toContain('outside secret');
    }
    expect(snapshot(outside)).toEqual(before);
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('inside');
    expect(existsSync(join(root, 'stolen.txt'))).toBe(false);
  });

  it('removes a symbolic link the project holds (asking, saying it is only the link), never what it points to outside', async () => {
    const before = snapshot(outside);
    const { client } = await connect('accept');
    for (const link of [...LINKS_IN_ROOT, 'out-link']) {
      const r = await call(client, 'remove', { path: link });
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toBe(`removed ${link}`);
      expect(existsSync(join(root, link)) || lstatSync(join(root, link), { throwIfNoEntry: false }) !== undefined).toBe(false);
    }
    expect(snapshot(outside)).toEqual(before);
  });

  it('refuses rename to a name that is a path', async () => {
    const { client } = await connect('accept');
    for (const name of ['../escaped.txt', '/tmp/escaped.txt', '..', 'a/b']) {
      expect((await call(client, 'rename', { path: 'keep.txt', name })).isError).toBe(true);
    }
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('inside');
    expect(existsSync(join(base, 'escaped.txt'))).toBe(false);
  });

  it('does not follow symlinks out when listing or searching the root', async () => {
    const { client } = await connect('accept');
    const list = await call(client, 'list', { path: '.', recursive: true });
    expect(list.isError).toBe(false);
    expect(list.text).toContain('l out-link');
    expect(list.text).not.toContain('deep.txt');
    const search = await call(client, 'search', { contains: 'secret' });
    expect(search.text).toBe('no match');
  });

  it('keeps odd Unicode names inside the root (NFC/NFD, RTL override, zero-width)', async () => {
    const before = snapshot(outside);
    const { client } = await connect('accept');
    const names = ['caf\u00e9.txt', 'cafe\u0301.txt', '\u202e..txt', '.\u200b./escape.txt', '..\u2215outside\u2215secret.txt', '\u2024\u2024/x.txt', '\uff0e\uff0e/x.txt'];
    for (const n of names) {
      const w = await call(client, 'write_file', { path: n, content: 'u' });
      expect(w.isError, w.text).toBe(false);
      expect((await call(client, 'read_file', { path: n })).text).toBe('u');
    }
    expect(snapshot(outside)).toEqual(before);
    for (const entry of readdirSync(base)) expect(['root', 'outside']).toContain(entry);
  });

  it('works normally inside the root', async () => {
    const { client } = await connect('accept');
    expect((await call(client, 'write_file', { path: 'new/dir/file.txt', content: 'hello' })).isError).toBe(false);
    expect((await call(client, 'append_file', { path: 'new/dir/file.txt', content: ' world' })).isError).toBe(false);
    expect((await call(client, 'read_file', { path: `${root}/new/dir/file.txt` })).text).toBe('hello world');
    expect((await call(client, 'rename', { path: 'new/dir/file.txt', name: 'renamed.txt' })).isError).toBe(false);
    expect((await call(client, 'search', { name: '*.txt' })).text).toContain('new/dir/renamed.txt');
    expect((await call(client, 'search', { contains: 'world' })).text).toBe('new/dir/renamed.txt:1: hello world');
  });

  it('edit_file replaces exact text after the user saw the diff; a decline, a miss or an ambiguous match changes nothing', async () => {
    const file = join(root, 'lib.js');
    const original = 'export function add(a, b) {\n  return a + b;\n}\n\nexport function sub(a, b) {\n  return a - b;\n}\n';
    writeFileSync(file, original);
    const declined = await connect('decline');
    const no = await call(declined.client, 'edit_file', { path: 'lib.js', oldText: '  return a + b;', newText: '  return Number(a) + Number(b);' });
    expect(no).toEqual({ isError: true, text: 'Edit lib.js (one replacement) was not confirmed (declined by the user); nothing was changed.' });
    expect(declined.asked[0]).toBe('Edit lib.js (one replacement):\n@@ -1,4 +1,4 @@\n export function add(a, b) {\n-  return a + b;\n+  return Number(a) + Number(b);\n }\n \nAllow?');
    expect(readFileSync(file, 'utf8')).toBe(original);

    const { client, asked } = await connect('accept');
    const miss = await call(client, 'edit_file', { path: 'lib.js', oldText: 'return a  + b;', newText: 'x' });
    expect(miss.isError).toBe(true);
    expect(miss.text).toContain('The closest text is at line 2:\n  return a + b;\n');
    const twice = await call(client, 'edit_file', { path: 'lib.js', oldText: '(a, b) {', newText: '(x, y) {' });
    expect(twice).toEqual({ isError: true, text: expect.stringContaining('oldText occurs 2 times in lib.js (at lines 1, 5)') });
    const partly = await call(client, 'edit_file', { path: 'lib.js', oldText: '  return a + b;', newText: '  return a + b + 0;', edits: [{ oldText: 'not there at all, no', newText: 'y' }] });
    expect(partly.text).toMatch(/^edit 2 of 2: oldText was not found/);
    expect(asked).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(original);

    const ok = await call(client, 'edit_file', { path: 'lib.js', oldText: '  return a + b;', newText: '  return Number(a) + Number(b);', edits: [{ oldText: '  return a - b;', newText: '  return Number(a) - Number(b);' }] });
    expect(ok.isError, ok.text).toBe(false);
    expect(ok.text).toMatch(/^edited lib\.js \(line 2, line 6\):\n@@/);
    expect(asked).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe(original.replace('a + b', 'Number(a) + Number(b)').replace('a - b', 'Number(a) - Number(b)'));
    expect(await call(client, 'edit_file', { path: 'none.js', oldText: 'a', newText: 'b' })).toEqual({ isError: true, text: 'none.js does not exist; create it with write_file' });
    // A missing file is named as the model named it (no placeholder for the root, the code said once) with what to do.
    expect(await call(client, 'read_file', { path: 'src/none.js' })).toEqual({ isError: true, text: 'read_file failed: src/none.js does not exist (list its folder to see what does)' });
  });

  it('read_file reads some lines with offset/limit and says where to read on; an offset past the end is an error', async () => {
    const { client } = await connect('accept');
    writeFileSync(join(root, 'long.txt'), 'one\ntwo\nthree\nfour\n');
    expect((await call(client, 'read_file', { path: 'long.txt', offset: 2, limit: 2 })).text).toBe('two\nthree\n[lines 2–3 of 4 of long.txt; read on with offset 4]');
    expect((await call(client, 'read_file', { path: 'long.txt', offset: 4 })).text).toBe('four\n[lines 4–4 of 4 of long.txt; end of file]');
    expect(await call(client, 'read_file', { path: 'long.txt', offset: 9 })).toEqual({ text: 'long.txt has 4 lines; offset 9 is past its end', isError: true });
    expect((await call(client, 'read_file', { path: 'long.txt' })).text).toBe('one\ntwo\nthree\nfour\n');
  });
});

describe('files server over stdio: code-execution paths and hard links', () => {
  it('asks before writing hooks and configuration (.git, .erasmus, .vscode, .github, .envrc) and before appending to a file; declined, nothing changes', async () => {
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.git', 'config'), '[core]\n');
    const { client, asked } = await connect('decline');
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['append_file', { path: '.git/config', content: '\tfsmonitor = touch /tmp/pwned\n' }],
      ['write_file', { path: '.git/hooks/pre-commit', content: '#!/bin/sh\ntouch pwned\n' }],
      ['write_file', { path: '.erasmus/mcp.json', content: '{}' }],
      ['write_file', { path: '.erasmus/settings.json', content: '{}' }],
      ['write_file', { path: '.vscode/tasks.json', content: '{}' }],
      ['write_file', { path: '.github/workflows/x.yml', content: 'x' }],
      ['write_file', { path: '.envrc', content: 'touch pwned' }],
      ['move', { from: '.git', to: 'elsewhere' }],
      ['move', { from: 'keep.txt', to: '.git/hooks/post-checkout' }],
      ['append_file', { path: 'keep.txt', content: 'more' }],
      ['edit_file', { path: '.git/config', oldText: '[core]', newText: '[core]\n\thooksPath = /tmp' }],
    ];
    const before = readFileSync(join(root, 'keep.txt'), 'utf8');
    for (const [name, args] of attempts) {
      const r = await call(client, name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}: ${r.text}`).toBe(true);
    }
    expect(asked.length).toBe(attempts.length);
    expect(readFileSync(join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
    for (const p of ['.git/hooks/pre-commit', '.erasmus', '.vscode', '.github', '.envrc', 'elsewhere']) expect(existsSync(join(root, p)), p).toBe(false);
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe(before);
  });

  it('never writes through a hard link to a file outside the root', async () => {
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'bashrc'), 'original\n');
    linkSync(join(outside, 'bashrc'), join(root, 'hl.txt'));
    const { client } = await connect('accept');
    for (const [name, args] of [
      ['write_file', { path: 'hl.txt', content: 'pwned' }],
      ['append_file', { path: 'hl.txt', content: 'pwned' }],
      ['edit_file', { path: 'hl.txt', oldText: 'original', newText: 'pwned' }],
    ] as Array<[string, Record<string, unknown>]>) {
      const r = await call(client, name, args);
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/hard links/);
    }
    expect(readFileSync(join(outside, 'bashrc'), 'utf8')).toBe('original\n');
  });

  it('never reads (nor searches) through a hard link to a file outside the root; links all inside the root read', async () => {
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'id_ed25519'), 'SECRET-KEY-hl\n');
    linkSync(join(outside, 'id_ed25519'), join(root, 'innocent.txt'));
    writeFileSync(join(root, 'a.txt'), 'shared SECRET-free text\n');
    linkSync(join(root, 'a.txt'), join(root, 'b.txt'));
    const { client } = await connect('accept');
    const r = await call(client, 'read_file', { path: 'innocent.txt' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^refused: innocent\.txt has 2 hard links and not all of them are inside the root folder .* does not read through such a hard link/);
    expect(r.text).not.toContain('SECRET-KEY');
    const found = await call(client, 'search', { contains: 'SECRET' });
    expect(found.text).not.toContain('SECRET-KEY');
    expect(found.text).toContain('a.txt:1: shared SECRET-free text');
    expect(found.text).toContain('(not searched: innocent.txt: hard links whose other names are not all inside the root)');
    // Both names inside the root: the file reads.
    expect(await call(client, 'read_file', { path: 'b.txt' })).toEqual({ text: 'shared SECRET-free text\n', isError: false });
  });
});

describe('files server over stdio: confirmation by elicitation', () => {
  it('accept performs an overwrite, decline and cancel do not, no elicitation support is refused', async () => {
    const accept = await connect('accept');
    const r1 = await call(accept.client, 'write_file', { path: 'keep.txt', content: 'accepted' });
    expect(r1.isError, r1.text).toBe(false);
    expect(accept.asked[0]).toMatch(/Overwrite the existing file keep\.txt/);
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('accepted');

    for (const answer of ['decline', 'cancel'] as const) {
      const c = await connect(answer);
      const r = await call(c.client, 'write_file', { path: 'keep.txt', content: answer });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/not confirmed/);
      expect(c.asked).toHaveLength(1);
      expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('accepted');
    }

    const none = await connect('none');
    const r = await call(none.client, 'write_file', { path: 'keep.txt', content: 'silent' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/needs approval; nobody could be asked \(this MCP client does not support elicitation\)/);
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('accepted');
    // Creating a new file is not destructive: no question, even without elicitation.
    expect((await call(none.client, 'write_file', { path: 'fresh.txt', content: 'ok' })).isError).toBe(false);
  });

  it('remove and move-over ask too; only accept performs them', async () => {
    const decline = await connect('decline');
    expect((await call(decline.client, 'remove', { path: 'sub', recursive: true })).isError).toBe(true);
    expect((await call(decline.client, 'move', { from: 'sub/a.txt', to: 'keep.txt' })).isError).toBe(true);
    expect(existsSync(join(root, 'sub', 'a.txt'))).toBe(true);
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('inside');

    const none = await connect('none');
    expect((await call(none.client, 'remove', { path: 'keep.txt' })).text).toMatch(/needs approval; nobody could be asked \(this MCP client does not support elicitation\)/);
    expect(existsSync(join(root, 'keep.txt'))).toBe(true);

    const accept = await connect('accept');
    expect((await call(accept.client, 'move', { from: 'sub/a.txt', to: 'keep.txt' })).isError).toBe(false);
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('a');
    const rm = await call(accept.client, 'remove', { path: 'sub', recursive: true });
    expect(rm.isError, rm.text).toBe(false);
    expect(existsSync(join(root, 'sub'))).toBe(false);
    expect(existsSync(outside)).toBe(true);
    expect((await call(accept.client, 'remove', { path: '.' , recursive: true })).isError).toBe(true);
    expect(existsSync(root)).toBe(true);
  });
});
