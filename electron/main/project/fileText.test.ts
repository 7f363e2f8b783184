import { mkdtemp, mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../api/core';
import { FILE_TEXT_LIMIT, readFileText } from './fileText';

describe('readFileText', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'erasmus-filetext-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('returns the text of an existing file and says when a file is new', async () => {
    await writeFile(join(dir, 'a.txt'), 'one\ntwo\n');
    expect(await readFileText(join(dir, 'a.txt'))).toEqual({ exists: true, text: 'one\ntwo\n' });
    expect(await readFileText(join(dir, 'missing.txt'))).toEqual({ exists: false, text: null });
  });

  it('gives a reason instead of the text for binary, large and non-file paths', async () => {
    await writeFile(join(dir, 'bin'), Buffer.from([1, 0, 2]));
    await writeFile(join(dir, 'big'), 'x'.repeat(FILE_TEXT_LIMIT + 1));
    await mkdir(join(dir, 'sub'));
    expect(await readFileText(join(dir, 'bin'))).toMatchObject({ exists: true, text: null, reason: 'a binary file' });
    expect((await readFileText(join(dir, 'big'))).reason).toContain('too large');
    expect((await readFileText(join(dir, 'sub'))).reason).toBe('not a regular file');
  });

  it('refuses a relative path with a message that says what to give', async () => {
    await expect(readFileText('a.txt')).rejects.toThrow(/not an absolute path/);
  });
});

describe('project.fileText reads only the open project and files named by waiting approvals', () => {
  let dir: string;
  let core: Core;
  const call = (path: string) => core.dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'project.fileText', params: { path } }, { face: 'browser' });
  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'erasmus-filescope-')));
    await mkdir(join(dir, 'project'));
    await mkdir(join(dir, 'home'));
    await writeFile(join(dir, 'project', 'a.txt'), 'inside');
    await writeFile(join(dir, 'home', 'secret.txt'), 'outside');
    await symlink(join(dir, 'home', 'secret.txt'), join(dir, 'project', 'link.txt'));
    core = new Core({ face: 'browser', home: join(dir, 'erasmus') });
  });
  afterEach(async () => {
    await core.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses everything before a project is open, then reads inside it (new files too) but not through a symlink out of it', async () => {
    expect(await call(join(dir, 'project', 'a.txt'))).toMatchObject({ error: { message: expect.stringMatching(/outside the open project \(none is open\)/) } });
    await core.dispatcher.handle({ jsonrpc: '2.0', id: 2, method: 'project.open', params: { path: join(dir, 'project') } }, { face: 'browser' });
    expect(await call(join(dir, 'project', 'a.txt'))).toMatchObject({ result: { exists: true, text: 'inside' } });
    expect(await call(join(dir, 'project', 'new', 'b.txt'))).toMatchObject({ result: { exists: false } });
    expect(await call(join(dir, 'home', 'secret.txt'))).toMatchObject({ error: { message: expect.stringMatching(/outside the open project/) } });
    expect(await call(join(dir, 'project', 'link.txt'))).toMatchObject({ error: { message: expect.stringMatching(/outside the open project/) } });
    expect(await call(join(dir, 'project', '..', 'home', 'secret.txt'))).toMatchObject({ error: {} });
    expect(await call('/etc/passwd')).toMatchObject({ error: {} });
  });

  it('reads a file outside the project while an approval that names it waits, and not after it is answered', async () => {
    const secret = join(dir, 'home', 'secret.txt');
    const approval = { sessionId: 's1', at: 1, type: 'approval_required' as const, requestId: 'r1', kind: 'tool' as const, name: 'fs__write_file', args: { path: secret, content: 'x' }, reasons: ['writes'] };
    core.bus.emit('agent.event', approval);
    expect(await call(secret)).toMatchObject({ result: { exists: true, text: 'outside' } });
    // another session's request with the same id does not end it; its own answer does
    core.bus.emit('agent.event', { sessionId: 's2', at: 2, type: 'approval_resolved', requestId: 'r1', decision: 'deny' } as never);
    expect(await call(secret)).toMatchObject({ result: { text: 'outside' } });
    core.bus.emit('agent.event', { sessionId: 's1', at: 3, type: 'approval_resolved', requestId: 'r1', decision: 'deny' } as never);
    expect(await call(secret)).toMatchObject({ error: { message: expect.stringMatching(/no waiting approval names it/) } });
  });
});
