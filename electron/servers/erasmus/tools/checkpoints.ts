import { z } from 'zod';
import type { CheckpointView, RewindPreview } from '../../../contract/methods/checkpoints';
import { branchRemovedWords, laneWorkWords } from '../../../contract/words';
import type { CoreLink } from '../link';
import { defineTool, textResult, type ToolSpec } from '../registry';
import { workflowFailure } from './workflow';

const runId = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/, 'a run id from workflow_load or workflow_list');
const checkpointId = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/, 'a checkpoint id from workflow_checkpoints');

function line(c: CheckpointView): string {
  return `- ${c.id}: ${c.kind === 'rewind' ? `${c.state} (left by a rewind)` : `before ${c.state}`} at ${c.at}, HEAD ${c.commit ? c.commit.slice(0, 12) : 'none'}`;
}

function changes(p: Pick<RewindPreview, 'files' | 'commitsUndone' | 'branchRemoved' | 'lanes'>, done = false): string {
  const files = p.files.map((f) => `  ${f.change}: ${f.path}`);
  const commits = p.commitsUndone.map((c) => `  ${c.commit.slice(0, 12)} ${c.subject}`);
  const branch = p.branchRemoved ? [branchRemovedWords(p.branchRemoved, done)] : [];
  const lanes = (p.lanes ?? []).flatMap((l) => [laneWorkWords(l), ...l.files.map((f) => `  ${f.change}: ${f.path}`)]);
  return [`files that change: ${p.files.length}`, ...files, `commits undone: ${p.commitsUndone.length}${p.commitsUndone.length ? ' (kept under refs/erasmus/rewound/)' : ''}`, ...commits, ...branch, ...lanes].join('\n');
}

/** Checkpoints of a run and the rewind to one (issue 22). */
export function checkpointTools(link: () => Promise<CoreLink>): ToolSpec[] {
  return [
    defineTool({
      name: 'workflow_checkpoints',
      description:
        "A run's checkpoints, oldest first: one before every step (the project's files, HEAD, the run's state), and one for each rewind (what it left). Each has {id, state, at, commit}; `state` is the step it precedes. Go back to one with workflow_rewind.",
      input: z.object({ runId }).strict(),
      annotations: { readOnlyHint: true },
      run: async (a) => {
        try {
          const r = await (await link()).request('workflow.checkpoints', { runId: a.runId });
          return textResult(r.checkpoints.length ? r.checkpoints.map(line).join('\n') : `run ${a.runId} has no checkpoints yet`, r);
        } catch (err) {
          return workflowFailure(err);
        }
      },
    }),
    defineTool({
      name: 'workflow_rewind',
      description:
        "Put a paused, stopped, blocked or completed run back to a checkpoint of workflow_checkpoints: the project's files (what shell commands did included; files .gitignore ignores are left alone) and HEAD as they were, the run PAUSED at that step (later steps marked rewound). What it leaves is kept as a checkpoint, so the rewind can be undone; undone commits stay reachable. preview: true only says what would change. Then workflow_resume and workflow_get_task go on.",
      input: z.object({ runId, checkpointId, preview: z.boolean().optional().describe('true: list the files that would change and the commits undone, change nothing') }).strict(),
      annotations: { destructiveHint: true },
      run: async (a) => {
        try {
          const l = await link();
          if (a.preview) {
            const p = await l.request('workflow.rewindPreview', { runId: a.runId, checkpointId: a.checkpointId });
            const ignored = p.ignored ? `\n${p.ignored} ${p.ignored === 1 ? 'file or folder' : 'files or folders'} .gitignore ignores would be left as they are` : '';
            return textResult(`rewinding run ${a.runId} to ${p.checkpoint.id} (before ${p.checkpoint.state}) would change:\n${changes(p)}${ignored}`, p);
          }
          const r = await l.request('workflow.rewind', { runId: a.runId, checkpointId: a.checkpointId });
          const next = r.status === 'PAUSED' ? 'Continue with workflow_resume, then workflow_get_task.' : '';
          return textResult(`run ${a.runId} is ${r.status}${r.state ? ` at ${r.state}` : ''}.\n${changes(r, true)}\nUndo this rewind with workflow_rewind {checkpointId: "${r.undo.id}"}. ${next}`.trim(), r);
        } catch (err) {
          return workflowFailure(err);
        }
      },
    }),
  ];
}
