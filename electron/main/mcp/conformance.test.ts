import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../tests/fixtures/mcp/servers';
import { CLIENT_DONE } from '../../../tests/fixtures/mcp/conformance-done';
import { bundledFixture } from '../../../tests/support/fixture-bundle';

const fixtures = join(repoRoot, 'tests', 'fixtures', 'mcp');
const suite = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const client = `${JSON.stringify(process.execPath)} ${JSON.stringify(bundledFixture(join(fixtures, 'conformance-client.ts')))}`;

/** Runs one scenario (`--scenario NAME`) or one of the suite's groups (`--suite NAME`: its scenarios side by side, in one suite process). */
function run(what: { scenario: string } | { suite: string }, outDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    // The suite imports Node 22's fs.globSync (the shim provides it on Node 20); its test servers bind 127.0.0.1.
    const shims = ['node22-fs-shim.mjs', 'bind-loopback.mjs'].flatMap((f) => ['--import', pathToFileURL(join(fixtures, f)).href]);
    const which = 'scenario' in what ? ['--scenario', what.scenario] : ['--suite', what.suite, '--timeout', '90000'];
    const child = spawn(process.execPath, [...shims, suite, 'client', '--command', client, ...which, '-o', outDir], {
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

/** Every client scenario the suite ships (0.1.16); the first test checks that this list is still the suite's. */
const CLIENT_SCENARIOS = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/cross-app-access-complete-flow',
];

/** Scenarios that cannot apply to Erasmus, each with the reason (none: cross-app access is `oauth.grant: cross_app_access`). */
const NOT_APPLICABLE: Record<string, string> = {};

function list(): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(join(fixtures, 'node22-fs-shim.mjs')).href, suite, 'list'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.on('exit', () => resolve(out));
  });
}

/**
 * The suite's groups that hold every `auth/` scenario, each run in one suite process (its scenarios side by side)
 * instead of a suite process per scenario (about 1 CPU-second each). The other four scenarios run one by one:
 * `sse-retry` times the client's reconnection, kept apart from a burst of clients starting.
 */
const GROUPS = ['auth', 'extensions', 'backcompat', 'draft'];
/** Scenarios whose client is meant to end with an error (the suite's `allowClientError`): a scenario run alone passes them on their checks only. */
const CLIENT_ERROR_ALLOWED = new Set(['auth/scope-retry-limit', 'auth/resource-mismatch']);

/** The suite's summary line for a scenario in a group's output (`✓ NAME: 13 passed, 0 failed[, N warnings]`). */
const summaryLine = (output: string, scenario: string): string | undefined => output.split('\n').find((l) => /^[✓✗] /.test(l) && l.slice(2).startsWith(`${scenario}: `));

/** The folder the suite saved one scenario's results in (`<out>/<scenario>-<time>`). */
function resultDir(outDir: string, scenario: string): string | undefined {
  const parent = join(outDir, dirname(scenario));
  const prefix = `${basename(scenario)}-`;
  const found = existsSync(parent) ? readdirSync(parent).filter((d) => d.startsWith(prefix) && /^\d{4}-/.test(d.slice(prefix.length))) : [];
  return found.length === 1 ? join(parent, found[0]!) : undefined;
}

/** A results folder, removed with the others after the file (its tests run at once: tempHome would tie it to whichever test ran last). */
const outFolder = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

describe.concurrent('official MCP conformance suite, client scenarios, against the hub', () => {
  const dirs: string[] = [];
  const groups = new Map<string, { outDir: string; output: string }>();
  beforeAll(async () => {
    await Promise.all(
      GROUPS.map(async (group) => {
        const outDir = outFolder(`erasmus-conformance-${group}-`);
        dirs.push(outDir);
        groups.set(group, { outDir, output: (await run({ suite: group }, outDir)).output });
      }),
    );
  }, 150_000);
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('covers every client scenario the suite ships', async () => {
    const out = await list();
    const shipped = [...out.slice(out.indexOf('Client scenarios')).matchAll(/^\s+- (\S+) \[/gm)].map((m) => m[1]);
    expect(shipped.sort()).toEqual([...CLIENT_SCENARIOS].sort());
  }, 30_000);

  it('the groups run every auth scenario, each once', () => {
    const ran = [...groups.values()].flatMap((g) => [...g.output.matchAll(/^[✓✗] (\S+): /gm)].map((m) => m[1]!));
    expect(ran.sort()).toEqual(CLIENT_SCENARIOS.filter((s) => s.startsWith('auth/')).sort());
  });

  for (const scenario of CLIENT_SCENARIOS) {
    const reason = NOT_APPLICABLE[scenario];
    if (reason) {
      it.skip(`${scenario} (not applicable: ${reason})`, () => {});
      continue;
    }
    it(scenario, async () => {
      let outDir: string;
      let output: string;
      if (scenario.startsWith('auth/')) {
        // Its group's suite process ran it: the suite's summary line for it, its checks and its client's output.
        const group = [...groups.values()].find((g) => summaryLine(g.output, scenario));
        expect(group, `no group ran ${scenario}`).toBeDefined();
        output = group!.output;
        expect(summaryLine(output, scenario), output).toMatch(/^✓ \S+: [1-9]\d* passed, 0 failed$/);
        const dir = resultDir(group!.outDir, scenario);
        expect(dir, `one result folder for ${scenario}:\n${output}`).toBeDefined();
        outDir = dir!;
        const clientOut = readFileSync(join(outDir, 'stdout.txt'), 'utf8');
        if (!CLIENT_ERROR_ALLOWED.has(scenario)) expect(clientOut.trimEnd().split('\n').at(-1), `the client did not end cleanly:\n${clientOut}\n${readFileSync(join(outDir, 'stderr.txt'), 'utf8')}`).toBe(CLIENT_DONE);
      } else {
        outDir = outFolder('erasmus-conformance-out-');
        dirs.push(outDir);
        ({ output } = await run({ scenario }, outDir));
        expect(output).toContain('OVERALL: PASSED');
      }
      const results = checks(outDir);
      const bad = results.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      expect(bad, output).toEqual([]);
      expect(results.filter((c) => c.status === 'SUCCESS').length, output).toBeGreaterThan(0);
    }, 100_000);
  }
});
