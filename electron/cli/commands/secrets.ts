import type { Command } from 'commander';
import { SecretName } from '../../contract/index';
import { readStdin, withCore } from '../context';
import { readHidden } from '../prompt';

function checkName(name: string): string {
  const r = SecretName.safeParse(name);
  if (!r.success) throw new Error(`invalid secret name ${JSON.stringify(name)}: ${r.error.issues[0]?.message}`);
  return name;
}

export function registerSecrets(program: Command): void {
  const secrets = program.command('secrets').description('secrets in the OS keychain (service "erasmus"); values never go on the command line');
  secrets
    .command('set <name>')
    .description('store a secret; the value is read from stdin when piped, otherwise from a hidden prompt')
    .action(async (name: string) => {
      checkName(name);
      const value = process.stdin.isTTY ? await readHidden(`Value for ${name}: `) : (await readStdin()).replace(/\r?\n$/, '');
      if (!value) throw new Error('the secret value is empty; nothing was stored');
      await withCore((core) => core.secrets.set(name, value));
      process.stderr.write(`stored ${name}\n`);
    });
  secrets
    .command('list')
    .description('list the names of stored secrets (never their values)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const names = await withCore((core) => core.secrets.list());
      process.stdout.write(opts.json ? JSON.stringify({ names }) + '\n' : names.map((n) => n + '\n').join(''));
    });
  secrets
    .command('delete <name>')
    .description('delete a stored secret')
    .action(async (name: string) => {
      checkName(name);
      const deleted = await withCore((core) => core.secrets.delete(name));
      if (!deleted) {
        process.stderr.write(`no secret named ${name}\n`);
        process.exitCode = 1;
      } else process.stderr.write(`deleted ${name}\n`);
    });
}
