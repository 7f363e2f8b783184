import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
