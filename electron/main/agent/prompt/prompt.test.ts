import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resourcesDir } from '../../paths/index';
import { assembleSystemPrompt } from './assemble';
import { dynamicSections, listProject } from './dynamic';
import { loadStaticSections } from './sections';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'erasmus-prompt-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('prompt assembly', () => {
  it('loads the shipped sections in order, with user overrides, additions and removals', async () => {
    const shipped = await loadStaticSections(join(resourcesDir(), 'prompts'), join(dir, 'none'));
    expect(shipped.map((s) => s.title).slice(0, 2)).toEqual(['Identity', 'RULES']);
    expect(shipped.find((s) => s.title === 'RULES')!.body).toMatch(/secrets/);
    const over = join(dir, 'prompts');
    mkdirSync(over);
    writeFileSync(join(over, 'Identity.md'), 'You are a test.');
    writeFileSync(join(over, 'Answer format.md'), '');
    writeFileSync(join(over, 'House style.md'), 'Tabs, never spaces.');
    const merged = await loadStaticSections(join(resourcesDir(), 'prompts'), over);
    expect(merged.find((s) => s.title === 'Identity')!.body).toBe('You are a test.');
    expect(merged.some((s) => s.title === 'Answer format')).toBe(false);
    expect(merged.find((s) => s.title === 'House style')!.body).toBe('Tabs, never spaces.');
  });

  it('lists the working directory within bounds and respects .gitignore', () => {
    mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
    mkdirSync(join(dir, 'node_modules', 'x'), { recursive: true });
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, '.gitignore'), 'dist/\n*.log\n');
    writeFileSync(join(dir, 'src', '.gitignore'), 'secret.txt\n');
    for (const f of ['a.ts', 'b.log', 'src/main.ts', 'src/secret.txt', 'src/deep/x.ts', 'dist/out.js']) writeFileSync(join(dir, f), '');
    const listing = listProject(dir);
    expect(listing.split('\n')).toEqual(['.gitignore', 'a.ts', 'src/', '  .gitignore', '  deep/', '    x.ts', '  main.ts']);
    for (let i = 0; i < 30; i++) writeFileSync(join(dir, `f${i}.txt`), '');
    expect(listProject(dir, { maxEntries: 10 })).toMatch(/… and \d+ more entries not shown$/);
  });

  it("lists a repository as git sees it: every ignore rule of git's respected, not only the folder's .gitignore files", () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    // The user's own excludes file (core.excludesFile, set here for the repository), and .git/info/exclude.
    writeFileSync(join(dir, 'global-ignore'), '__pycache__/\n');
    git('config', 'core.excludesFile', join(dir, 'global-ignore'));
    writeFileSync(join(dir, '.git', 'info', 'exclude'), 'global-ignore\n*.egg-info/\n');
    writeFileSync(join(dir, '.gitignore'), 'build/\n');
    for (const d of ['textkit/__pycache__', '.venv/lib/python3.12', '.pytest_cache/v', 'textkit.egg-info', 'build', 'tests', 'empty']) mkdirSync(join(dir, d), { recursive: true });
    // A virtual environment and pytest's cache ignore themselves (their own .gitignore holds "*").
    writeFileSync(join(dir, '.venv', '.gitignore'), '*\n');
    writeFileSync(join(dir, '.pytest_cache', '.gitignore'), '# created by pytest automatically\n*\n');
    for (const f of ['textkit/__init__.py', 'textkit/slug.py', 'textkit/__pycache__/slug.cpython-312.pyc', '.venv/lib/python3.12/site.py', '.venv/pyvenv.cfg', '.pytest_cache/v/cache', 'textkit.egg-info/PKG-INFO', 'build/lib.py', 'tests/test_slug.py', 'pyproject.toml', 'gone.py']) writeFileSync(join(dir, f), '');
    git('add', 'textkit/slug.py', 'gone.py', '.gitignore');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'textkit: add slugify');
    rmSync(join(dir, 'gone.py')); // tracked, removed from disk: not there to read
    expect(listProject(dir).split('\n')).toEqual(['.gitignore', 'pyproject.toml', 'tests/', '  test_slug.py', 'textkit/', '  __init__.py', '  slug.py']);
    // A folder of a repository whose ignore rules sit above it.
    writeFileSync(join(dir, '.gitignore'), 'build/\n*.pyc\n');
    mkdirSync(join(dir, 'textkit', 'sub'));
    writeFileSync(join(dir, 'textkit', 'sub', 'old.pyc'), '');
    expect(listProject(join(dir, 'textkit')).split('\n')).toEqual(['__init__.py', 'slug.py']);
  });

  it('puts what every step of a run shares first (rules, toolsets, tool use), then protocol, caller sections and environment', () => {
    const text = assembleSystemPrompt({
      staticSections: [{ title: 'RULES', body: 'never' }],
      dynamicSections: dynamicSections({ cwd: dir, now: Date.UTC(2026, 0, 2, 3, 4, 5) }),
      protocolPrompt: 'Develop the component.',
      extraSections: [{ title: 'Component', body: 'parser' }],
      toolsets: [{ name: 'fs', description: 'files' }, { name: 'memory', description: 'a graph' }],
      openedToolsets: ['fs'],
      toolMode: 'xml',
      xmlToolUse: 'TOOL USE HERE',
    });
    // The start is the same whatever the protocol, the step's sections, the time or the project's files: a provider's cache serves it.
    expect(text).toMatch(/^# RULES\n\nnever\n\n# Toolsets\n\n- fs \(open\): files\n- memory: a graph\n\n[^#]*\n\nTOOL USE HERE\n\n# Protocol\n\nDevelop the component\.\n\n# Component\n\nparser\n\n# Environment\n/);
    expect(text).toContain('Current time: 2026-01-02T03:04:05.000Z');
    expect(text).toMatch(new RegExp(`# Working directory\\n\\n${dir}\\n\\n\`\`\`\\n\\(empty\\)\\n\`\`\`$`));
  });
  it('offers `!` lines only in xml mode: the native loop never runs them, so a native prompt must not promise them', () => {
    const base = { staticSections: [], dynamicSections: [], toolsets: [{ name: 'runners', description: 'commands' }], shell: true };
    const native = assembleSystemPrompt({ ...base, toolMode: 'native' });
    expect(native).toContain('The `open_toolset` tool');
    expect(native).not.toMatch(/starts with `!`|!git status/);
    expect(assembleSystemPrompt({ ...base, toolsets: [], toolMode: 'native' })).not.toContain('`!`');
    expect(assembleSystemPrompt({ ...base, toolsets: [], toolMode: 'xml' })).toContain('A line that starts with `!` runs the rest of the line as a shell command');
  });
  it('the shipped working method defers to a task\'s "How to answer" (a workflow document step asks for the document and nothing else)', async () => {
    const shipped = await loadStaticSections(join(resourcesDir(), 'prompts'), join(dir, 'none'));
    const method = shipped.find((s) => s.title === 'Working method')!.body;
    expect(method).toMatch(/what changed, how it was checked, what is left/);
    // Edits, not rewrites: a model that resends whole files drifts from the maintainer's text.
    // It names no tool: a read-only step (design, review) reads it too and has no write tools; the files tools' own
    // descriptions say which one edits.
    expect(method).toContain('change them by edits, not by rewriting whole files');
    expect(method).not.toMatch(/files__/);
    // The heading the workflow's executors append (agent-executor.ts, executor.ts).
    expect(method).toContain('When the task has a "How to answer" section, answer exactly as it says instead.');
  });
});
