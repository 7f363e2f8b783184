import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plan } from './plan';

/**
 * The project's whole test suite: the one command its toolchain runs every test with, wherever a
 * step put them. package.json's test script (`npm test --silent`), pytest (a pytest config, conftest.py,
 * or Python tests under tests/), `cargo test` (Cargo.toml), `go test ./...` (go.mod). Undefined when
 * the folder shows none of them (yet: a fresh project gets them during development).
 */
export async function projectTestCommand(projectDir: string): Promise<{ command: string; script?: string } | undefined> {
  const text = (f: string) => readFile(join(projectDir, f), 'utf8').catch(() => undefined);
  const exists = (f: string) => stat(join(projectDir, f)).then(() => true, () => false);
  const pkg = await text('package.json');
  if (pkg) {
    try {
      const scripts = (JSON.parse(pkg) as { scripts?: Record<string, unknown> }).scripts;
      if (typeof scripts?.test === 'string' && !/no test specified/.test(scripts.test)) return { command: 'npm test --silent', script: scripts.test };
    } catch {}
  }
  const pyproject = await text('pyproject.toml');
  const pytestConfig = (await exists('pytest.ini')) || (await exists('conftest.py')) || /pytest/.test(pyproject ?? '') || /\[tool:pytest\]/.test((await text('setup.cfg')) ?? '');
  const pyTests = (await readdir(join(projectDir, 'tests')).catch(() => [] as string[])).some((f) => /^test_.*\.py$|_test\.py$/.test(f));
  if (pytestConfig || pyTests) return { command: 'python3 -m pytest' };
  if (await exists('Cargo.toml')) return { command: 'cargo test' };
  if (await exists('go.mod')) return { command: 'go test ./...' };
  return undefined;
}

/** Commands that run the same tests: `npm test`, `npm run test`, `npm test --silent` are one. */
function sameKey(command: string): string {
  return command
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^(npm|pnpm|yarn) (?:run(?:-script)? )?(?:test|t)\b/, '$1 test')
    .replace(/ (?:--silent|-s)\b/g, '');
}

/**
 * The final gate: the project's whole suite first, then each component's command it does not
 * already stand for (the same command, or the test script itself) and the plan's default, each
 * distinct command once, joined with &&.
 */
export function composeFinalCommand(plan: Pick<Plan, 'components' | 'defaultTestCommand'>, whole: { command: string; script?: string } | undefined): string | undefined {
  const all = [whole?.command, plan.defaultTestCommand, ...plan.components.map((c) => c.testCommand)].filter((c): c is string => !!c?.trim());
  const seen = new Set<string>(whole?.script ? [sameKey(whole.script)] : []);
  const commands: string[] = [];
  for (const c of all) {
    const key = sameKey(c);
    if (seen.has(key)) continue;
    seen.add(key);
    commands.push(c.trim());
  }
  if (!commands.length) return undefined;
  return commands.map((c) => (commands.length > 1 && /[|;&]/.test(c) ? `(${c})` : c)).join(' && ');
}

/**
 * The final gate's command when it runs: the one the user set at plan review, else composed again
 * from the project as it is now (a test script or test folder added during development counts).
 */
export async function finalGateCommand(plan: Plan, projectDir: string): Promise<string | undefined> {
  if (plan.finalTestCommandByUser && plan.finalTestCommand?.trim()) return plan.finalTestCommand.trim();
  return composeFinalCommand(plan, await projectTestCommand(projectDir)) ?? plan.finalTestCommand;
}
