import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, tempHome } from '../../../tests/fixtures/mcp/servers';

const fixtures = join(repoRoot, 'tests', 'fixtures', 'mcp');
const suite = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const tsx = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs')).href;
const client = `${JSON.stringify(process.execPath)} --import ${tsx} ${JSON.stringify(join(fixtures, 'conformance-client.ts'))}`;

function run(scenario: string, outDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    // The suite imports Node 22's fs.globSync (the shim provides it on Node 20); its test servers bind 127.0.0.1.
    const shims = ['node22-fs-shim.mjs', 'bind-loopback.mjs'].flatMap((f) => ['--import', pathToFileURL(join(fixtures, f)).href]);
    const child = spawn(process.execPath, [...shims, suite, 'client', '--command', client, '--scenario', scenario, '-o', outDir], {
      cwd: outDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
      resolve({ code, output });
    });
  });
}

function checks(dir: string): { id: string; status: string; errorMessage?: string }[] {
  const out: { id: string; status: string }[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    if (entry.endsWith('checks.json')) out.push(...(JSON.parse(readFileSync(join(dir, entry), 'utf8')) as { id: string; status: string }[]));
  return out;
}

describe('official MCP conformance suite, client scenarios, against the hub', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  for (const scenario of ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry']) {
    it(scenario, async () => {
      const dir = tempHome('erasmus-conformance-out-');
      dirs.push(dir);
      const { output } = await run(scenario, dir);
      const results = checks(dir);
      const bad = results.filter((c) => c.status === 'FAILURE');
      expect(bad, output).toEqual([]);
      expect(results.filter((c) => c.status === 'SUCCESS').length, output).toBeGreaterThan(0);
      expect(output).toContain('OVERALL: PASSED');
    }, 100_000);
  }
});
