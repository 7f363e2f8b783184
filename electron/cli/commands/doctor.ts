import type { Command } from 'commander';
import { runDoctor } from '../../main/doctor/index';
import { withCore } from '../context';

const MARK = { ok: '✓', warn: '!', fail: '✗' } as const;

/**
 * `erasmus doctor`: whether runner commands get an OS sandbox (bubblewrap on Linux; without one every
 * command that is not read-only asks), the keychain, node-pty and the configured providers, each with
 * how to fix it. Exits 1 when something fails (not for warnings).
 */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check the runner sandbox, the OS keychain, node-pty and the LLM providers, and say how to fix what fails')
    .option('--json', 'print the checks as JSON')
    .action(async (opts: { json?: boolean }) => {
      const checks = await withCore((core) => runDoctor({ secrets: core.secrets, configYaml: core.paths.configYaml }));
      if (opts.json) process.stdout.write(JSON.stringify({ checks }) + '\n');
      else {
        for (const c of checks) {
          process.stdout.write(`${MARK[c.status]} ${c.id}: ${c.summary}\n`);
          if (c.detail && c.status !== 'ok') process.stdout.write(`    ${c.detail}\n`);
          if (c.fix) process.stdout.write(`    fix: ${c.fix}\n`);
        }
      }
      if (checks.some((c) => c.status === 'fail')) process.exitCode = 1;
    });
}
