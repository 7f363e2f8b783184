import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadRetention } from './retention';
import { DEFAULT_RETENTION } from './store';

const dir = mkdtempSync(join(tmpdir(), 'erasmus-retention-'));
const file = join(dir, 'config.yaml');
afterEach(() => rmSync(file, { force: true }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadRetention', () => {
  it('defaults to 30 days and 2 GB without a file or a section, and reads config.yaml checkpoints:', async () => {
    expect(await loadRetention(file)).toEqual(DEFAULT_RETENTION);
    writeFileSync(file, 'providers: []\n');
    expect(await loadRetention(file)).toEqual({ maxAgeDays: 30, maxBytes: 2 * 1024 ** 3 });
    writeFileSync(file, 'checkpoints:\n  keepDays: 7\n  maxSizeMb: 500\n');
    expect(await loadRetention(file)).toEqual({ maxAgeDays: 7, maxBytes: 500 * 1024 * 1024 });
  });

  it('a bad section is an error naming the key', async () => {
    writeFileSync(file, 'checkpoints:\n  keepDays: -1\n  maxSize: 5\n');
    await expect(loadRetention(file)).rejects.toThrow(/config\.yaml: checkpoints: keepDays: .*; \(section\): Unrecognized key.*maxSize/);
  });
});
