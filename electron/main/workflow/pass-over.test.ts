import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { entryLine } from '../../cli/commands/workflow-print';
import { Paths } from '../paths/index';
import { WorkflowEngine } from './engine';
import { passOverReason } from './pass-over';
import type { StateSpec } from './plan';
import type { RunRecord } from './run-record';
import { driveToCompletion, git, repositoryIn } from './testing-repo';

let root: string | undefined;
let engine: WorkflowEngine | undefined;
afterEach(async () => {
  await engine?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
  root = engine = undefined;
});

const at = '2026-01-01T00:00:00Z';
const spec = (phase: StateSpec['phase']): StateSpec => ({ state: `types:${phase}`, phase, component: 'types', next: 'x' });
const changed = (...paths: string[]) => ({ timeline: [{ state: 'types:development', component: 'types', enteredAt: at, leftAt: at, outcome: 'done', files: paths.map((path) => ({ path, change: 'modified' })) }] }) as unknown as RunRecord;

describe('steps a component does not need', () => {
  it('are decided from the files its steps changed: declarations and docs need no tests, docs need no documentation step, code needs both', () => {
    expect(passOverReason(changed('index.d.ts', 'readme.md'), spec('testing'))).toBe(
      "only declaration and documentation files changed (index.d.ts, readme.md): nothing for tests to check, nor to debug; the project's tests run at the final gate",
    );
    expect(passOverReason(changed('index.d.ts'), spec('documentation'))).toBeUndefined();
    expect(passOverReason(changed('readme.md'), spec('documentation'))).toBe('its changes are documentation already (readme.md): nothing more to document');
    expect(passOverReason(changed('src/index.js', 'readme.md'), spec('testing'))).toBeUndefined();
    expect(passOverReason(changed('src/index.js'), spec('retesting'))).toBeUndefined();
    expect(passOverReason(changed(), spec('testing'))).toBeUndefined(); // nothing changed: nothing to judge by
    expect(passOverReason(changed('readme.md'), spec('review'))).toBeUndefined();
    // A review report the workflow wrote for the component is not the component's work.
    const reviewed = changed('src/index.js');
    reviewed.timeline[0]!.files = [];
    reviewed.timeline.push({ state: 'types:review', component: 'types', enteredAt: at, leftAt: at, outcome: 'done', files: [{ path: 'docs/reviews/types.md', change: 'added' }] });
    expect(passOverReason(reviewed, spec('documentation'))).toBeUndefined();
  });

  it('a documentation component is not tested or documented again: each step passed over says why, in the timeline and the CLI', async () => {
    root = mkdtempSync(join(tmpdir(), 'erasmus-pass-over-'));
    const dir = repositoryIn(root);
    engine = new WorkflowEngine({ paths: new Paths(join(root, 'home')), emit: () => undefined });
    const { runId } = await engine.load({ projectDir: dir, goal: 'Document the greeting' });
    const steps = await driveToCompletion(engine, runId, 'GREETING.md');
    expect(steps.filter((s) => s.startsWith('core:'))).toEqual(['core:development', 'core:review']);
    const passed = (await engine.status(runId)).timeline.filter((e) => e.component === 'core' && e.outcome === 'skipped').map(entryLine);
    expect(passed).toEqual([
      "  core · testing: skipped — only documentation changed (GREETING.md): nothing for tests to check, nor to debug; the project's tests run at the final gate",
      '  core · review fixes: skipped — the review asked for no changes (' + new Paths(join(root, 'home')).reviewReport(dir, runId, 'core') + ')',
      '  core · documentation: skipped — its changes are documentation already (GREETING.md): nothing more to document',
      "  core · retesting: skipped — only documentation changed (GREETING.md): nothing for tests to check, nor to debug; the project's tests run at the final gate",
    ]);
    // Its commit says what it is.
    expect(git(dir, 'log', '--format=%s', 'main..HEAD')).toBe('docs: add the greeting');
  });
});
