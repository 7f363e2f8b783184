import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProjectSummary, WorkflowDriftDocument, WorkflowRunView } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { ProjectView } from './ProjectView';

afterEach(cleanup);

const project: ProjectSummary = { path: '/p/adder', key: 'k', name: 'adder', git: true, markers: [], runners: [] };
const components = [{ id: 'adder', title: 'adds', tasks: [{ id: 'A1', title: 'Implement add', status: 'done' as const }] }];
const run = (over: Partial<WorkflowRunView>): WorkflowRunView => ({
  runId: 'r1',
  projectDir: '/p/adder',
  status: 'COMPLETED',
  executor: 'agent',
  approved: true,
  plan: { maxDebugAttempts: 3, components },
  timeline: [],
  totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...over,
});
const DRIFTED: WorkflowDriftDocument[] = [
  { doc: 'architecture', path: '/h/architecture.md', commit: '1111111111aaaa', changed: ['src/adder.mjs'] },
  { doc: 'component', component: 'adder', path: '/h/components/adder.md', commit: '2222222222bbbb', changed: ['src/adder.mjs'] },
];

describe('drifted documents in the Project view', () => {
  it('lists the documents whose subject changed and brings exactly those up to date with a documentation run; a refusal is shown in its words', async () => {
    let view = run({});
    let drifted = DRIFTED;
    let refuse = true;
    const core = new FakeCore({
      'workflow.latest': () => ({ runId: view.runId }),
      'workflow.status': () => view,
      'workflow.drift': () => ({ documents: drifted }),
      'workflow.docs.read': ({ doc }) => ({ path: `/h/${doc}.md`, exists: true, text: `# ${doc}` }),
      'project.trust.list': ({ path }) => ({ project: path, files: [] }),
      'settings.providers.list': () => ({ defaultProvider: 'local', providers: [{ id: 'local', kind: 'ollama', model: 'qwen3' }], kinds: ['ollama'], file: '/h/config.yaml' }),
      'workflow.load': (p) => {
        if (refuse) throw new Error('the provider is not reachable');
        if (!p.dirtyTree) throw Object.assign(new Error('/p/adder has uncommitted changes (notes.md); a run would mix them with its own work. Nothing was started.'), { data: { kind: 'INVALID_STATE', dirty: ['notes.md'] } });
        return { runId: 'r2' };
      },
      'workflow.start': () => {
        view = run({ runId: 'r2', status: 'RUNNING', goal: 'Bring the documentation up to date with the code', plan: { maxDebugAttempts: 3, components, documents: { components: ['adder'], architecture: true } }, state: 'adder:documentation', updatedAt: '2026-01-01T00:01:00Z' });
        return { status: 'RUNNING' };
      },
    });
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} />);
    await screen.findByTestId('drift');
    expect(screen.getByTestId('drift-architecture').textContent).toBe('The architecture describes commit 1111111111; changed since: src/adder.mjs');
    expect(screen.getByTestId('drift-adder').textContent).toBe('Component adder describes commit 2222222222; changed since: src/adder.mjs');

    // Refused: the core's words, and the button works again.
    fireEvent.click(screen.getByTestId('drift-fix'));
    expect((await screen.findByRole('alert')).textContent).toContain('the provider is not reachable');
    refuse = false;
    // Refused for uncommitted changes: the three choices as buttons, as on the first Start; one starts the run.
    fireEvent.click(screen.getByTestId('drift-fix'));
    expect((await screen.findByTestId('dirty-tree')).textContent).toContain('notes.md');
    fireEvent.click(screen.getByTestId('dirty-stash'));
    await waitFor(() => expect(screen.getByTestId('run-panel').dataset.phase).toBe('running'));
    expect(core.callsOf('workflow.load')).toEqual([
      { projectDir: '/p/adder', executor: 'agent', documents: 'drifted' },
      { projectDir: '/p/adder', executor: 'agent', documents: 'drifted' },
      { projectDir: '/p/adder', executor: 'agent', documents: 'drifted', dirtyTree: 'stash' },
    ]);
    expect(screen.queryByTestId('drift')).toBeNull(); // only beside a finished run

    // Completed: the summary says what it brought up to date and that there is nothing to verify; nothing drifted any more.
    drifted = [];
    view = { ...view, status: 'COMPLETED', state: 'completed', updatedAt: '2026-01-01T00:02:00Z' };
    await core.services.run.refresh();
    await waitFor(() => expect(screen.getByTestId('run-panel').dataset.phase).toBe('completed'));
    expect(screen.getByTestId('run-summary').textContent).toContain('Documentation brought up to date (component adder, the architecture)');
    expect(screen.getByTestId('summary-verified').textContent).toBe('Nothing to verify: this run wrote documentation only.');
    expect(screen.queryByTestId('drift')).toBeNull();
  });
});
