import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REWRITE_RULES, rewriteCommand, type RuleId } from './index';

// 'plain' and 'pyproject' roots hold the lockfiles of pnpm and uv: rewriting goes only toward the tool a lockfile names.
const plain = mkdtempSync(join(tmpdir(), 'erasmus-rewrite-'));
const project = mkdtempSync(join(tmpdir(), 'erasmus-rewrite-py-'));
const npmProject = mkdtempSync(join(tmpdir(), 'erasmus-rewrite-npm-'));
const bare = mkdtempSync(join(tmpdir(), 'erasmus-rewrite-bare-'));
for (const root of [plain, project]) for (const lock of ['pnpm-lock.yaml', 'uv.lock']) writeFileSync(join(root, lock), '');
writeFileSync(join(project, 'pyproject.toml'), '[project]\nname = "x"\nversion = "0.1.0"\n');
writeFileSync(join(npmProject, 'package.json'), '{}');
writeFileSync(join(npmProject, 'package-lock.json'), '{}');
writeFileSync(join(npmProject, 'pyproject.toml'), '[project]\nname = "x"\n');
afterAll(() => {
  for (const root of [plain, project, npmProject, bare]) rmSync(root, { recursive: true, force: true });
});

/** [root, command, expected command, rules applied in order]. */
const TABLE: Array<['plain' | 'pyproject', string, string, RuleId[]]> = [
  ['plain', 'python main.py', 'uv run main.py', ['python']],
  ['plain', 'python3 main.py --flag "a b"', 'uv run main.py --flag "a b"', ['python']],
  ['plain', 'python -m pytest -q', 'uv run -m pytest -q', ['python-module']],
  ['plain', 'python3 -m http.server 8000', 'uv run -m http.server 8000', ['python-module']],
  ['plain', "python -c 'print(1)'", "uv run python -c 'print(1)'", ['python']],
  ['plain', 'python', 'uv run python', ['python']],
  ['plain', 'python -m venv .venv', 'uv venv .venv', ['python-venv']],
  ['plain', 'python3 -m venv .venv && . .venv/bin/activate', 'uv venv .venv && . .venv/bin/activate', ['python-venv']],
  ['plain', 'pip install -r requirements.txt', 'uv pip install -r requirements.txt', ['pip-requirements']],
  ['pyproject', 'pip install -r requirements.txt', 'uv sync', ['pip-requirements']],
  ['pyproject', 'pip install -r dev-requirements.txt', 'uv pip install -r dev-requirements.txt', ['pip-requirements']],
  ['plain', 'python -m pip install -r requirements.txt', 'uv pip install -r requirements.txt', ['pip-requirements']],
  ['pyproject', 'pip install requests', 'uv add requests', ['pip-install']],
  ['pyproject', 'pip3 install "httpx>=0.27" rich', 'uv add "httpx>=0.27" rich', ['pip-install']],
  ['plain', 'pip install requests && python fetch.py', 'uv add --script fetch.py requests && uv run fetch.py', ['pip-install', 'python']],
  ['plain', 'pip install requests', 'uv pip install requests', ['pip-install']],
  ['plain', 'pip install -e .', 'uv pip install -e .', ['pip-other']],
  ['plain', 'pip freeze > requirements.txt', 'uv pip freeze > requirements.txt', ['pip-other']],
  ['plain', 'npm install', 'pnpm install', ['npm']],
  ['plain', 'npm i -D vitest', 'pnpm add -D vitest', ['npm-install']],
  ['plain', 'npm install react react-dom', 'pnpm add react react-dom', ['npm-install']],
  ['plain', 'npm ci', 'pnpm install --frozen-lockfile', ['npm-install']],
  ['plain', 'npm uninstall left-pad', 'pnpm remove left-pad', ['npm-install']],
  ['plain', 'npm run build && npm test', 'pnpm run build && pnpm test', ['npm', 'npm']],
  ['plain', 'npx tsc --noEmit', 'pnpm dlx tsc --noEmit', ['npx']],
  ['plain', 'npx -y create-vite app | tee log', 'pnpm dlx create-vite app | tee log', ['npx']],
  ['plain', 'FOO=1 npm run dev > out.log 2>&1', 'FOO=1 pnpm run dev > out.log 2>&1', ['npm']],
  ['plain', '(cd web; npm install)', '(cd web; pnpm install)', ['npm']],
  ['plain', 'echo $(python -V)', 'echo $(uv run python -V)', ['python']],
  // never inside quoted strings, never other programs
  ['plain', 'echo "npm install && python x.py"', 'echo "npm install && python x.py"', []],
  ['plain', "grep -r 'pip install' docs", "grep -r 'pip install' docs", []],
  ['plain', 'git commit -m "use npx"', 'git commit -m "use npx"', []],
  ['plain', 'pnpm install', 'pnpm install', []],
  ['plain', 'uv run main.py', 'uv run main.py', []],
  ['plain', 'echo "unterminated && npm i', 'echo "unterminated && npm i', []],
];

describe('command rewriting table', () => {
  it.each(TABLE)('[%s] %s → %s', async (root, command, expected, rules) => {
    const r = await rewriteCommand(command, { root: root === 'plain' ? plain : project });
    expect(r.command).toBe(expected);
    expect(r.applied.map((a) => a.rule)).toEqual(rules);
    for (const a of r.applied) expect(r.command).toContain(a.to);
  });
});

describe('rewriting follows the lockfile', () => {
  it('an npm project (package-lock.json) or one with no lockfile is never rewritten to pnpm, nor python to uv', async () => {
    for (const root of [npmProject, bare]) {
      for (const command of ['npm install', 'npm i react', 'npx tsc', 'npm ci', 'python main.py', 'pip install requests', 'python -m pytest']) {
        const r = await rewriteCommand(command, { root, available: () => true });
        expect(r.command, `${root}: ${command}`).toBe(command);
        expect(r.applied).toEqual([]);
      }
    }
  });
  it('a yarn or bun project is not rewritten to pnpm', async () => {
    const yarn = mkdtempSync(join(tmpdir(), 'erasmus-rewrite-yarn-'));
    try {
      writeFileSync(join(yarn, 'yarn.lock'), '');
      expect((await rewriteCommand('npm install', { root: yarn })).command).toBe('npm install');
      rmSync(join(yarn, 'yarn.lock'));
      writeFileSync(join(yarn, 'bun.lock'), '');
      expect((await rewriteCommand('npx tsc', { root: yarn })).command).toBe('npx tsc');
    } finally {
      rmSync(yarn, { recursive: true, force: true });
    }
  });
  it('pnpm-lock.yaml and uv.lock each bring only their own tool', async () => {
    const only = mkdtempSync(join(tmpdir(), 'erasmus-rewrite-pnpm-'));
    try {
      writeFileSync(join(only, 'pnpm-lock.yaml'), '');
      expect((await rewriteCommand('npm install && python x.py', { root: only })).command).toBe('pnpm install && python x.py');
    } finally {
      rmSync(only, { recursive: true, force: true });
    }
  });
});

describe('rule table', () => {
  it('has unique ids and covers every documented rewrite', () => {
    const ids = REWRITE_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['python', 'python-module', 'python-venv', 'pip-requirements', 'pip-install', 'npm', 'npx']));
  });
  it('skips disabled rules, and the next rule in the table may apply instead', async () => {
    const off = await rewriteCommand('npm i react && npx tsc', { root: plain, disabled: new Set<RuleId>(['npm-install', 'npx']) });
    expect(off.command).toBe('pnpm i react && npx tsc');
    const none = await rewriteCommand('python x.py', { root: plain, disabled: new Set<RuleId>(['python']) });
    expect(none).toEqual({ command: 'python x.py', applied: [] });
  });
  it('says what changed, with the original text', async () => {
    const r = await rewriteCommand('python3 "my script.py"', { root: plain });
    expect(r.applied).toEqual([{ rule: 'python', from: 'python3 "my script.py"', to: 'uv run "my script.py"' }]);
  });
});
