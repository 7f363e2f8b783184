import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CheckpointView, RewindPreview } from '../../contract/methods/checkpoints';
import { withCore } from '../context';
import { ask } from '../prompt';
import { branchRemovedWords, databaseHint, laneWorkWords, humanState, humanStatus } from '../../contract/words';
import { checkDatabaseUrl } from '../../main/workflow/durable/database-url';

type Helpers = { latestRun(core: Parameters<Parameters<typeof withCore>[0]>[0], dir: string, runId?: string): Promise<string>; friendly(err: unknown): never };

/** One checkpoint: its id (what `rewind --to` takes), when, the step it was taken before (as the timeline names it), HEAD then. */
export function checkpointLine(c: CheckpointView): string {
  const what = `before ${humanState(c.state)}${c.kind === 'rewind' ? ' (left by a rewind)' : ''}`;
  return `${c.id}  ${c.at}  ${what.padEnd(36)} ${c.commit ? `HEAD ${c.commit.slice(0, 8)}` : '(no commit)'}`;
}

export function previewText(p: RewindPreview): string {
  const lines = [`Rewind to ${p.checkpoint.id}: before ${humanState(p.checkpoint.state)} (${p.checkpoint.at})`];
  const sign = { added: '+', deleted: '-', modified: '~' } as const;
  lines.push(p.files.length ? `files that change (${p.files.length}):` : 'no file changes');
  for (const f of p.files.slice(0, 50)) lines.push(`  ${sign[f.change]} ${f.path}`);
  if (p.files.length > 50) lines.push(`  … and ${p.files.length - 50} more`);
  if (p.commitsUndone.length) {
    lines.push(`commits undone (kept under refs/erasmus/rewound/): ${p.commitsUndone.length}`);
    for (const c of p.commitsUndone) lines.push(`  ${c.commit.slice(0, 8)} ${c.subject}`);
  }
  if (p.branchRemoved) lines.push(branchRemovedWords(p.branchRemoved, false));
  for (const l of p.lanes ?? []) {
    lines.push(laneWorkWords(l) + (l.files.length ? ':' : ''));
    for (const f of l.files.slice(0, 50)) lines.push(`  ${sign[f.change]} ${f.path}`);
    if (l.files.length > 50) lines.push(`  … and ${l.files.length - 50} more`);
  }
  const ignored = p.ignored;
  if (ignored) lines.push(`${ignored} ${ignored === 1 ? 'file or folder' : 'files or folders'} ignored by .gitignore ${ignored === 1 ? 'is' : 'are'} left as ${ignored === 1 ? 'it is' : 'they are'}`);
  return lines.join('\n');
}

/** `erasmus workflow checkpoints` and `erasmus workflow rewind`. */
export function registerWorkflowCheckpoints(wf: Command, { latestRun, friendly }: Helpers): void {
  wf.command('checkpoints <dir>')
    .description('list the run\'s checkpoints, oldest first (one before every step, and one for each rewind)')
    .option('--run <id>', 'a run id (default: the project\'s newest run)')
    .option('--json', 'print a JSON array of {id, state, at, commit, …}')
    .action(async (dir: string, o: { run?: string; json?: boolean }) => {
      await withCore(async (core) => {
        const list = await core.workflow.checkpoints(await latestRun(core, dir, o.run)).catch(friendly);
        process.stdout.write(o.json ? JSON.stringify(list) + '\n' : list.length ? list.map((c) => checkpointLine(c) + '\n').join('') : 'no checkpoints\n');
      });
    });

  wf.command('rewind <dir>')
    .description('put the files, HEAD and run back as they were at a checkpoint; the run waits PAUSED there (resume goes on)')
    .requiredOption('--to <id>', 'the checkpoint (erasmus workflow checkpoints DIR)')
    .option('--run <id>', 'a run id (default: the project\'s newest run)')
    .option('-y, --yes', 'rewind without asking')
    .option('--json', 'print the result as JSON')
    // A rewind itself needs no database (resume clears the rewound attempt's workflows); taken as the other commands take it.
    .option('--database-url <url>', "a durable run's Postgres (postgres://…), as the other workflow commands take it; the rewind itself does not use it, the resume after it does")
    .action(async (dir: string, o: { to: string; run?: string; yes?: boolean; json?: boolean; databaseUrl?: string }) => {
      if (o.databaseUrl !== undefined) checkDatabaseUrl(o.databaseUrl);
      await withCore(async (core) => {
        const runId = await latestRun(core, dir, o.run);
        if (!o.yes) {
          // Refused before asking: a run another process drives cannot be rewound whatever the answer.
          const view = await core.workflow.status(runId).catch(friendly);
          if (view.status === 'RUNNING' && !view.interrupted) throw new Error(`run ${runId} is being driven by another process: pause or stop it first (erasmus workflow pause ${dir}, or erasmus workflow stop ${dir}), then rewind`);
          const preview = await core.workflow.rewindPreview(runId, o.to).catch(friendly);
          process.stderr.write(previewText(preview) + '\n');
          if (!process.stdin.isTTY) throw new Error(`a rewind puts the run back${preview.files.length || preview.commitsUndone.length || preview.lanes ? ' and changes the project' : ''}: pass --yes to confirm it (nobody could be asked here)`);
          if (!/^y(es)?$/i.test((await ask('Rewind? [y/N] ')).trim())) {
            process.stderr.write('not rewound\n');
            return;
          }
        }
        const r = await core.workflow.rewind(runId, o.to).catch(friendly);
        if (o.json) process.stdout.write(JSON.stringify(r) + '\n');
        else {
          const n = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`;
          process.stderr.write(`rewound run ${runId}: ${humanStatus(r.status)}${r.state ? `, at ${humanState(r.state)}` : ''}; ${n(r.files.length, 'file')} changed, ${n(r.commitsUndone.length, 'commit')} undone\n`);
          if (r.branchRemoved) process.stderr.write(`${branchRemovedWords(r.branchRemoved, true)}\n`);
          // A run that is not the project's newest is named in each hint: without --run, resume would take up the newest.
          const run = o.run && (await core.workflow.latest(resolve(dir))) !== runId ? ` --run ${runId}` : '';
          process.stderr.write(`undo it with: erasmus workflow rewind ${dir}${run} --to ${r.undo.id}\n`);
          // A durable run's resume needs its database: the hint names it (the password masked).
          const db = databaseHint((await core.workflow.status(runId)).durable);
          if (r.status === 'PAUSED') process.stderr.write(`go on with: erasmus workflow resume ${dir}${run}${db.option}${db.note}\n`);
        }
      });
    });
}
