// The secret-leak test over the real CLI and the real keychain: `erasmus call`, `erasmus chat` and
// `erasmus workflow start` each use a `${secret:}` (a server's env, the provider's API key), a server
// prints it to its stderr and returns it in a tool result, the model repeats it. Afterwards the value
// is nowhere under ERASMUS_HOME, in the project, or in anything the commands printed.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/scripted-llm/index';
import { serverEntry } from '../fixtures/mcp/servers';
import { defaultPathScript, defaultWorld, type DefaultWorld } from './workflow-default';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'bin/erasmus.js');
const NAME = `LEAK_PROBE_${randomBytes(4).toString('hex').toUpperCase()}`;
const SECRET = `sk-leak-${randomBytes(12).toString('hex')}`;
const MASK = `[secret:${NAME}]`;

let world: DefaultWorld;
let llm: ScriptedLlm;
const printed: string[] = [];

function cli(args: string[], opts: { input?: string; cwd?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const c = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ERASMUS_HOME: world.home }, cwd: opts.cwd ?? world.project, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
    c.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    c.stdin!.end(opts.input ?? '');
    const timer = setTimeout(() => {
      try {
        process.kill(-c.pid!, 'SIGKILL');
      } catch {}
    }, 150_000);
    c.on('close', (code) => {
      clearTimeout(timer);
      printed.push(stdout, stderr);
      res({ code, stdout, stderr });
    });
  });
}

/** Every file under dir whose bytes hold the needle. */
function filesHolding(dir: string, needle: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && readFileSync(p).includes(needle)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'out/main/cli.cjs'))) spawnSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'ignore' });
  // xml tool mode (the provider has no native tools): calls are text, results come back as user messages.
  const chatScript = [
    { label: 'open', match: { lastUser: 'look up the token' }, text: '<open_toolset>\n<name>leaky</name>\n</open_toolset>\n' },
    { label: 'get-env', match: { last: { regex: 'get-env' } }, text: '<leaky__get-env>\n</leaky__get-env>\n' },
    { label: 'repeat', match: { last: { regex: 'TOKEN' } }, text: `The token is ${SECRET}, and I wrote it down.` },
  ];
  // The chat's turns first, then the workflow's default path.
  llm = await startScriptedLlm([...chatScript, ...defaultPathScript('xml')]);
  world = await defaultWorld(llm.baseUrl, { nativeTools: false });
  // The provider's key is a keychain secret, and so is a server's env value.
  const config = readFileSync(join(world.home, 'config.yaml'), 'utf8').replace('    model: scripted\n', `    model: scripted\n    apiKey: \${secret:${NAME}}\n`);
  writeFileSync(join(world.home, 'config.yaml'), config);
  mkdirSync(join(world.home, 'mcp'), { recursive: true });
  writeFileSync(
    join(world.home, 'mcp', 'config.json'),
    JSON.stringify({ mcpServers: { leaky: { command: 'sh', args: ['-c', 'echo "token=$TOKEN" >&2; exec "$0" "$@"', process.execPath, serverEntry.everything, 'stdio'], env: { TOKEN: `\${secret:${NAME}}` } } } }),
  );
  const set = await cli(['secrets', 'set', NAME], { input: SECRET });
  expect(set.code, set.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  if (world) await cli(['secrets', 'delete', NAME]).catch(() => undefined);
  await llm?.close();
  if (world) rmSync(world.root, { recursive: true, force: true });
});

describe('a keychain secret used by the CLI leaks nowhere', () => {
  it('`erasmus call`: the server gets the value, the printed result shows it masked', async () => {
    const r = await cli(['call', 'leaky', 'get-env']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(MASK); // the server did receive the secret and returned it
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  }, 120_000);

  it('`erasmus chat --json`: the provider key and a tool result carry it, the model repeats it', async () => {
    const r = await cli(['chat', '--json', '--yes', '--tool-mode', 'xml', '-p', 'look up the token', '--project', world.project]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`The token is ${MASK}`);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    // The key was used: the model's endpoint got it as the bearer token.
    expect(llm.requests.some((q) => q.headers.authorization === `Bearer ${SECRET}`)).toBe(true);
  }, 150_000);

  it('`erasmus workflow start`: every step calls the model with the secret key; the run completes', async () => {
    const before = llm.requests.length;
    const r = await cli(['workflow', 'start', world.project, '--goal', 'a function that adds two numbers, with tests', '--yes']);
    expect(r.stderr).toContain('■ Completed');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    const steps = llm.requests.slice(before);
    expect(steps.length).toBeGreaterThan(3);
    expect(steps.every((q) => q.headers.authorization === `Bearer ${SECRET}`)).toBe(true);
  }, 180_000);

  it('afterwards: not in ERASMUS_HOME, the project (git objects included) or any output — and the sinks did hold the masked text', () => {
    expect(filesHolding(world.home, SECRET)).toEqual([]);
    expect(filesHolding(world.project, SECRET)).toEqual([]);
    expect(printed.filter((p) => p.includes(SECRET))).toEqual([]);
    const masked = filesHolding(world.home, MASK);
    expect(masked.some((f) => f.includes(join('logs', 'mcp')))).toBe(true); // the server's stderr
    expect(masked.some((f) => f.includes('sessions'))).toBe(true); // the chat's tool result and answer
  });
});
