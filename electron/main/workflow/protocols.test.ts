import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProtocol, loadProtocols, parseProtocol, PROTOCOL_NAMES, projectProtocolFile } from './protocols';
import { WorkflowError } from './errors';
import { ProjectTrust } from '../project/trust';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('protocols', () => {
  it('loads all seven built-in protocols with valid front matter', async () => {
    dir = await mkdtemp(join(tmpdir(), 'erasmus-proto-'));
    const all = await loadProtocols(dir);
    expect(Object.keys(all).sort()).toEqual([...PROTOCOL_NAMES].sort());
    expect(all.debugging.maxAttempts).toBe(3);
    // Every protocol names toolsets a new user has: Erasmus's built-in files and runners.
    for (const p of Object.values(all)) for (const t of p.toolsets) expect(['files', 'runners']).toContain(t);
    expect(all.development.toolsets).toEqual(['files', 'runners']);
    expect(all.review.prompt).toMatch(/reviewer/);
  });

  it('read literally, no protocol contradicts itself, its done-criterion or its toolsets', async () => {
    dir = await mkdtemp(join(tmpdir(), 'erasmus-proto-'));
    const all = await loadProtocols(dir);
    for (const p of Object.values(all)) {
      // A toolset the prompt tells the model to use is one the step has; git goes through runners, and no step commits.
      for (const t of ['runners', 'files', 'filesystem', 'git']) if (new RegExp(`\\b${t} toolset`).test(p.prompt)) expect(p.toolsets, `${p.name} mentions the ${t} toolset`).toContain(t);
      expect(p.prompt, p.name).not.toMatch(/\bcommit (the|your) /i);
      // One way to answer: the step's "How to answer" (appended by the executor), never a second, older one.
      expect(p.prompt, p.name).not.toMatch(/say explicitly when you are done|<context_document>/i);
    }
    // Development leaves the tests to the testing step, and its done-criterion does not ask for them.
    expect(all.development.prompt).toMatch(/Tasks about tests belong to the testing step/);
    expect(all.development.done).toMatch(/not about tests/);
    // A report's step says the report is the whole answer, so nothing else lands in the saved file.
    expect(all.review.prompt).toMatch(/Your final answer is the report and nothing\s+else/);
    // The orchestrator cannot reach the task list on disk: its done-criterion is about what it hands back.
    expect(all.orchestration.done).toMatch(/^The document you hand back/);
  });

  it('prefers the project override once trusted', async () => {
    dir = await mkdtemp(join(tmpdir(), 'erasmus-proto-'));
    const file = projectProtocolFile(dir, 'review');
    await mkdir(join(dir, '.erasmus', 'protocols'), { recursive: true });
    await writeFile(file, '---\nname: review\ndescription: strict\ndone: all good\n---\nBe strict.\n');
    const trust = ProjectTrust.forHome(join(dir, 'home'));
    expect((await loadProtocol('review', dir, undefined, trust)).file).not.toBe(file);
    await trust.trust(dir);
    const p = await loadProtocol('review', dir, undefined, trust);
    expect(p.file).toBe(file);
    expect(p.prompt).toBe('Be strict.');
    expect(p.budget.maxTurns).toBe(40);
  });

  it('names the file and the field of bad front matter', () => {
    const bad = '---\nname: review\ndescription: x\ndone: y\nmaxAttempts: lots\n---\nbody\n';
    try {
      parseProtocol(bad, '/p/review.md');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(WorkflowError);
      expect((e as WorkflowError).kind).toBe('PARSE_ERROR');
      expect((e as Error).message).toContain('/p/review.md');
      expect((e as Error).message).toContain('maxAttempts');
      expect((e as WorkflowError).details?.field).toBe('maxAttempts');
    }
    expect(() => parseProtocol('---\nname: [unclosed\n---\nx', '/p/a.md')).toThrow(/not valid YAML/);
    expect(() => parseProtocol('no front matter', '/p/b.md')).toThrow(/\/p\/b\.md: no YAML front matter/);
    expect(() => parseProtocol('---\nname: review\ndescription: x\ndone: y\ncolour: red\n---\nx', '/p/c.md')).toThrow(/colour/);
  });
});
