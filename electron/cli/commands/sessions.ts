import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { Paths } from '../../main/paths/index';
import { exportSession, readSessionLog } from '../../main/sessions/index';
import { writeFileAtomic } from '../../main/common/fs';

export function registerSessions(program: Command): void {
  const sessions = program.command('sessions').description('agent session logs (ERASMUS_HOME/sessions/*.jsonl)');
  sessions
    .command('list')
    .description('list session logs, newest first')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) => {
      const dir = new Paths().sessionsDir;
      let names: string[] = [];
      try {
        names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
      } catch {}
      const rows = names
        .map((n) => {
          const path = join(dir, n);
          return { sessionId: n.slice(0, -6), path, modified: statSync(path).mtimeMs };
        })
        .sort((a, b) => b.modified - a.modified);
      process.stdout.write(o.json ? JSON.stringify({ sessions: rows }) + '\n' : rows.map((r) => `${r.sessionId}  ${new Date(r.modified).toISOString()}  ${r.path}\n`).join(''));
    });
  sessions
    .command('export <log>')
    .description('export a session log as one JSON document (stdout, or --output FILE)')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(async (log: string, o: { output?: string }) => {
      const doc = exportSession(resolve(log));
      for (const w of doc.warnings) process.stderr.write(`warning: ${w}\n`);
      const text = JSON.stringify(doc, null, 2) + '\n';
      if (o.output) await writeFileAtomic(resolve(o.output), text);
      else process.stdout.write(text);
    });
  sessions
    .command('check <log>')
    .description('read a session log and report its entries and any torn last line')
    .action((log: string) => {
      const { entries, warnings } = readSessionLog(resolve(log));
      for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
      process.stdout.write(`${entries.length} entries\n`);
    });
}
