import type { Command } from 'commander';
import type { CheckpointView, RewindPreview } from '../../contract/methods/checkpoints';
import { withCore } from '../context';
import { ask } from '../prompt';

type Helpers = { latestRun(core: Parameters<Parameters<typeof withCore>[0]>[0], dir: string, runId?: string): Promise<string>; friendly(err: unknown): never };

export function checkpointLine(c: CheckpointView): string {
  const what = c.kind === 'rewind' ? `${c.state} (left by a rewind)` : c.state;
  return `${c.id}  ${c.at}  ${what.padEnd(28)} ${c.commit ? c.commit.slice(0, 8) : '(no commit)'}${c.ignored ? `  ${c.ignored} ignored` : ''}`;
}

export function previewText(p: RewindPreview): string {
  const lines = [`Rewind to ${p.checkpoint.id}: before ${p.checkpoint.state} (${p.checkpoint.at})`];
  const sign = { added: '+', deleted: '-', modified: '~' } as const;
  lines.push(p.files.length ? `files that change (${p.files.length}):` : 'no file changes');
  for (const f of p.files.slice(0, 50)) lines.push(`  ${sign[f.change]} ${f.path}`);
  if (p.files.length > 50) lines.push(`  … and ${p.files.length - 50} more`);
  if (p.commitsUndone.length) {
    lines.push(`commits undone (kept under refs/erasmus/rewound/): ${p.commitsUndone.length}`);
    for (const c of p.commitsUndone) lines.push(`  ${c.commit.slice(0, 8)} ${c.subject}`);
  }
  if (p.checkpoint.ignored) lines.push(`${p.checkpoint.ignored} files or folders ignored by .gitignore are left as they are`);
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
    .action(async (dir: string, o: { to: string; run?: string; yes?: boolean; json?: boolean }) => {
      await withCore(async (core) => {
        const runId = await latestRun(core, dir, o.run);
        if (!o.yes) {
          const preview = await core.workflow.rewindPreview(runId, o.to).catch(friendly);
          process.stderr.write(previewText(preview) + '\n');
          if (!process.stdin.isTTY) throw new Error('a rewind changes the project\'s files: pass --yes to confirm it (nobody could be asked here)');
          if (!/^y(es)?$/i.test((await ask('Rewind? [y/N] ')).trim())) {
            process.stderr.write('not rewound\n');
            return;
          }
        }
        const r = await core.workflow.rewind(runId, o.to).catch(friendly);
        if (o.json) process.stdout.write(JSON.stringify(r) + '\n');
        else {
          process.stderr.write(`rewound run ${runId}: ${r.status} at ${r.state ?? ''}; ${r.files.length} file(s) changed, ${r.commitsUndone.length} commit(s) undone\n`);
          process.stderr.write(`undo it with: erasmus workflow rewind ${dir} --to ${r.undo.id}\n`);
          if (r.status === 'PAUSED') process.stderr.write(`go on with: erasmus workflow resume ${dir}\n`);
        }
      });
    });
}
