import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { processesMatching, repoRoot, serverEntry, tempHome } from '../../../tests/fixtures/mcp/servers';

const run = promisify(execFile);
const home = tempHome('erasmus-cli-mcp-');
afterAll(() => rmSync(home, { recursive: true, force: true }));
const json = join(home, 'servers.json');
const yaml = join(home, 'servers.yaml');
writeFileSync(json, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [serverEntry.everything, 'stdio'] } } }));
writeFileSync(yaml, `extensions:\n  memory:\n    cmd: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(serverEntry.memory)}]\n    envs: { MEMORY_FILE_PATH: ${JSON.stringify(join(home, 'm.jsonl'))} }\n`);

async function erasmus(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const r = await run(process.execPath, [join(repoRoot, 'bin', 'erasmus.js'), ...args], { env: { ...process.env, ERASMUS_HOME: home }, cwd: home, timeout: 60_000 });
    return { ...r, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

describe('erasmus servers / tools / call / resources / read / prompts / prompt', () => {
  it('shows server status from a JSON or YAML --config', async () => {
    const a = await erasmus('servers', '--config', json, '--json');
    expect(JSON.parse(a.stdout).servers[0]).toMatchObject({ name: 'everything', state: 'ready', transport: 'stdio' });
    const b = await erasmus('servers', '--config', yaml);
    expect(b.stdout).toMatch(/^memory\s+ready\s+stdio\s+\d+ tools/m);
  });

  it('lists tools, calls one, and reports bad arguments clearly', async () => {
    const tools = await erasmus('tools', 'everything', '--config', json, '--json');
    expect(JSON.parse(tools.stdout).tools.map((t: { qualifiedName: string }) => t.qualifiedName)).toContain('everything__echo');
    const call = await erasmus('call', 'everything', 'echo', '--args', '{"message":"from the cli"}', '--config', json);
    expect(call.stdout.trim()).toBe('Echo: from the cli');
    const bad = await erasmus('call', 'everything', 'echo', '--args', '[1]', '--config', json);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--args for everything echo must be a JSON object/);
    const ghost = await erasmus('call', 'ghost', 'echo', '--config', json);
    expect(ghost.stderr).toMatch(/MCP server "ghost" is not configured/);
  });

  it('lists and reads resources, lists and gets prompts', async () => {
    const res = await erasmus('resources', '--config', json);
    const uri = /(demo:\/\/\S+)/.exec(res.stdout)![1]!;
    const read = await erasmus('read', uri, '--config', json, '--json');
    expect(JSON.parse(read.stdout).contents[0].uri).toBe(uri);
    const prompts = await erasmus('prompts', '--config', json);
    expect(prompts.stdout).toContain('args-prompt');
    const prompt = await erasmus('prompt', 'args-prompt', '--args', '{"city":"Leiden"}', '--config', json);
    expect(prompt.stdout).toContain('Leiden');
  });

  it('leaves no server process behind', () => {
    expect(processesMatching(home)).toEqual([]);
  });
});
