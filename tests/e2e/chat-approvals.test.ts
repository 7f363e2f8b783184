// One approval path for every face, as `erasmus chat` meets it on the default path (fresh home, a
// `git init` folder, only the built-in toolsets): `--yes` answers the built-in servers' own
// confirmations (files' overwrite, runners' `rm -r`) at once; `--json` without `--yes` refuses them
// at once, saying nobody could be asked, and nothing is changed.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../electron/contract/index';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/scripted-llm/index';
import { chatHarness, defaultSandbox } from './agent-cli';

const t = chatHarness();

const call = (tool: string, params: Record<string, string>) => `<${tool}>\n${Object.entries(params).map(([k, v]) => `<${k}>${v}</${k}>`).join('\n')}\n</${tool}>\n`;

/** Overwrite notes/a.txt, then `rm -r notes`, then answer; each turn waits for the previous result. */
async function script(): Promise<ScriptedLlm> {
  return startScriptedLlm([
    { text: `Opening the toolsets.\n${call('open_toolset', { name: 'files' })}${call('open_toolset', { name: 'runners' })}` },
    { match: { last: 'Toolset "runners" is open' }, text: `Overwriting the note.\n${call('files__write_file', { path: 'notes/a.txt', content: 'new' })}` },
    { match: { last: { regex: 'files__write_file' } }, text: `Removing the folder.\n${call('runners__bash_run', { command: 'rm -r notes' })}` },
    { match: { last: { regex: 'runners__bash_run' } }, text: 'Done.' },
  ]);
}

function completes(events: AgentEvent[], name: string): Extract<AgentEvent, { type: 'tool_complete' }> {
  const e = events.find((x): x is Extract<AgentEvent, { type: 'tool_complete' }> => x.type === 'tool_complete' && x.name === name);
  expect(e, `a tool_complete for ${name}`).toBeDefined();
  return e!;
}

describe('erasmus chat: approvals of the built-in servers', () => {
  it('--yes overwrites a file and runs rm -r inside the project without waiting', async () => {
    const sb = t.sandbox(defaultSandbox());
    mkdirSync(join(sb.work, 'notes'));
    writeFileSync(join(sb.work, 'notes', 'a.txt'), 'old\n');
    const llm = t.llm(await script());
    const run = t.chat(sb, ['--base-url', llm.baseUrl, '--model', 'scripted', '--tool-mode', 'xml', '--yes', '-p', 'replace the note, then remove the notes folder'], { builtinOnly: true });
    expect(await run.exit, run.stderr()).toBe(0);
    const write = completes(run.events, 'files__write_file');
    expect(write.isError, write.result).toBe(false);
    expect(write.result).toMatch(/replaced notes\/a\.txt/);
    const rm = completes(run.events, 'runners__bash_run');
    expect(rm.isError, rm.result).toBe(false);
    // Neither waited on an approval nobody answers (the hub's call timeout is 60 s).
    expect(write.durationMs).toBeLessThan(20_000);
    expect(rm.durationMs).toBeLessThan(20_000);
    expect(existsSync(join(sb.work, 'notes'))).toBe(false);
    expect(run.events.at(-1)).toMatchObject({ type: 'session_ended', reason: 'complete' });
  });

  it('--json without --yes refuses both at once, says nobody could be asked and how to recover, and changes nothing', async () => {
    const sb = t.sandbox(defaultSandbox());
    mkdirSync(join(sb.work, 'notes'));
    writeFileSync(join(sb.work, 'notes', 'a.txt'), 'old\n');
    const llm = t.llm(await script());
    const run = t.chat(sb, ['--base-url', llm.baseUrl, '--model', 'scripted', '--tool-mode', 'xml', '-p', 'replace the note, then remove the notes folder'], { builtinOnly: true });
    expect(await run.exit, run.stderr()).toBe(0);
    for (const name of ['files__write_file', 'runners__bash_run']) {
      const e = completes(run.events, name);
      expect(e.isError).toBe(true);
      expect(e.result).toContain('needs approval; nobody could be asked');
      expect(e.result).toContain('--yes');
      expect(e.durationMs).toBeLessThan(20_000);
    }
    expect(readFileSync(join(sb.work, 'notes', 'a.txt'), 'utf8')).toBe('old\n');
    // The model read the refusal in its next request.
    const bodies = llm.requests.map((r) => JSON.stringify(r.body));
    expect(bodies.at(-1)).toContain('nobody could be asked');
  });
});
