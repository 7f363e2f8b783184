import type { Command } from 'commander';
import { resolve } from 'node:path';
import { Paths } from '../../main/paths/index';
import { ProjectTrust, type ProjectFile } from '../../main/project/trust';
import { ask } from '../prompt';

function show(files: ProjectFile[]): string {
  return files
    .map((f) => `── ${f.path} (${f.trusted ? 'trusted' : 'NOT trusted'}, sha256 ${f.sha256.slice(0, 12)})\n${f.trusted ? '' : f.text.endsWith('\n') ? f.text : f.text + '\n'}`)
    .join('');
}

/**
 * `erasmus trust [dir]`: shows what a project folder brings (.erasmus/mcp.json, settings.json,
 * protocols) and trusts its current content, so it takes effect in every face. Until then Erasmus
 * ignores those files: a cloned repository starts nothing and lowers no guardrail.
 */
export function registerTrust(program: Command): void {
  program
    .command('trust [dir]')
    .description("show and trust what a project folder brings (.erasmus/mcp.json, settings.json, protocols); untrusted, they are ignored")
    .option('--yes', 'trust every file shown without asking')
    .option('--revoke', 'forget the trust given to this folder')
    .option('--json', 'print JSON')
    .action(async (dir: string | undefined, opts: { yes?: boolean; revoke?: boolean; json?: boolean }) => {
      const project = resolve(dir ?? process.cwd());
      const trust = new ProjectTrust(new Paths().projectTrustFile);
      if (opts.revoke) {
        const had = await trust.revoke(project);
        process.stderr.write(had ? `revoked trust for ${project}\n` : `${project} was not trusted\n`);
        return;
      }
      const files = await trust.files(project);
      const pending = files.filter((f) => !f.trusted);
      if (opts.json && !opts.yes) {
        process.stdout.write(JSON.stringify({ project, files: files.map(({ text: _t, ...f }) => f) }) + '\n');
        return;
      }
      if (!files.length) {
        process.stderr.write(`${project} brings no .erasmus files; nothing to trust\n`);
        return;
      }
      process.stdout.write(show(files));
      if (!pending.length) {
        process.stderr.write('every file is trusted\n');
        return;
      }
      let yes = opts.yes === true;
      if (!yes) {
        if (!process.stdin.isTTY) {
          process.stderr.write(`not trusted: ${pending.map((f) => f.path).join(', ')}. Review them above, then run \`erasmus trust ${JSON.stringify(project)} --yes\`\n`);
          process.exitCode = 1;
          return;
        }
        yes = /^y(es)?$/i.test((await ask(`Trust ${pending.length === 1 ? 'this file' : `these ${pending.length} files`} as shown? [y/N] `)).trim());
      }
      if (!yes) {
        process.stderr.write('nothing was trusted\n');
        process.exitCode = 1;
        return;
      }
      const done = await trust.trust(project, { files: pending.map((f) => f.path), expect: Object.fromEntries(pending.map((f) => [f.path, f.sha256])) });
      if (opts.json) process.stdout.write(JSON.stringify({ project, trusted: done.map((f) => f.path) }) + '\n');
      process.stderr.write(`trusted ${done.map((f) => f.path).join(', ')}\n`);
    });
}
