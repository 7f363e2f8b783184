import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalGrants } from './approval-grants';

describe('ApprovalGrants', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a run’s "always allow" survives a restart of the core (kept with the run); a new run starts without it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'erasmus-grants-'));
    const runFile = (project: string, runId: string) => join(dir!, 'runs', `${runId}.grants.json`);
    const file = join(dir, 'trust', 'approvals.json');
    const project = join(dir, 'project');
    await new ApprovalGrants(file, runFile).add('files.write', 'run', { project, runId: 'run-1' });
    expect(JSON.parse(await readFile(runFile(project, 'run-1'), 'utf8'))).toEqual({ kinds: ['files.write'] });
    // A new core (a new ApprovalGrants) reads it back for the same run only.
    const restarted = new ApprovalGrants(file, runFile);
    expect(await restarted.held('files.write', { project, runId: 'run-1' })).toBe('run');
    expect(await restarted.held('commands.sandboxed', { project, runId: 'run-1' })).toBeUndefined();
    expect(await restarted.held('files.write', { project, runId: 'run-2' })).toBeUndefined();
    expect(await restarted.held('files.write', { project })).toBeUndefined();
    // A second grant for the run keeps the first.
    await restarted.add('commands.sandboxed', 'run', { project, runId: 'run-1' });
    expect(await new ApprovalGrants(file, runFile).held('files.write', { project, runId: 'run-1' })).toBe('run');
    expect(await new ApprovalGrants(file, runFile).held('commands.sandboxed', { project, runId: 'run-1' })).toBe('run');
  });
});
