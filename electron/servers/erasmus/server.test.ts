import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Paths, projectKey } from '../../main/paths/index';
import { createErasmusServer } from './server';

// The erasmus server in-process (its own code, the SDK's client): output schemas and completions.
let dir: string;
let paths: Paths;
let project: string;
let client: Client;
let dispose: () => void;

const TASKS = '# Task list\n\n## Component: adder — adds two numbers\nTest: node --test test/\n- [ ] A1: Implement add\n\n## Component: cli\n- [ ] C1: A command line\n';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'erasmus-server-'));
  paths = new Paths(join(dir, 'home'));
  project = join(dir, 'proj');
  mkdirSync(join(project, 'src'), { recursive: true });
  mkdirSync(join(dir, 'other'), { recursive: true });
  mkdirSync(join(paths.ctxDir(project), 'orchestration'), { recursive: true });
  mkdirSync(join(paths.ctxDir(project), 'components'), { recursive: true });
  writeFileSync(paths.orchestrationDoc(project, 'task_list'), TASKS);
  writeFileSync(paths.componentDoc(project, 'parser'), '# Component: parser\n');
  writeFileSync(paths.recentProjects, JSON.stringify({ projects: [{ path: project, key: projectKey(project), name: 'proj', git: false, markers: [] }] }));
  const made = createErasmusServer({
    paths,
    version: 'test',
    link: () => Promise.reject(new Error('no core in this test')),
    chat: () => {
      throw new Error('no chat in this test');
    },
    provider: () => Promise.reject(new Error('no provider in this test')),
    autoApprove: false,
    log: () => undefined,
  });
  dispose = made.dispose;
  const [a, b] = InMemoryTransport.createLinkedPair();
  await made.server.connect(a);
  client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
});

afterAll(async () => {
  await client.close();
  dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** Every place in a JSON Schema that a strict validator (the Inspector's --strict) rejects. */
function strictProblems(schema: unknown, at = '$'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as Record<string, unknown>;
  const out: string[] = [];
  if ('type' in s && typeof s.type !== 'string') out.push(`${at}.type is ${JSON.stringify(s.type)} (one type per schema; use anyOf or an optional field)`);
  if (s.type === 'null') out.push(`${at} is type null`);
  if ('nullable' in s) out.push(`${at}.nullable is not JSON Schema`);
  if (s.properties && s.type !== 'object') out.push(`${at} has properties but type ${String(s.type)}`);
  if (s.items && s.type !== 'array') out.push(`${at} has items but type ${String(s.type)}`);
  if (Array.isArray(s.required)) for (const r of s.required) if (!(s.properties as Record<string, unknown> | undefined)?.[r as string]) out.push(`${at}.required names ${String(r)}, which is not a property`);
  for (const [k, v] of Object.entries((s.properties as Record<string, unknown>) ?? {})) out.push(...strictProblems(v, `${at}.properties.${k}`));
  if (s.items) out.push(...strictProblems(s.items, `${at}.items`));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((v, i) => out.push(...strictProblems(v, `${at}.${key}[${i}]`)));
  return out;
}

describe('erasmus server output schemas', () => {
  it('the checker finds what --strict flags', () => {
    expect(strictProblems({ type: 'object', properties: { to: { type: ['string', 'null'] } } })).toHaveLength(1);
  });

  it('every tool output schema is strict-clean', async () => {
    const { tools } = await client.listTools();
    const withOutput = tools.filter((t) => t.outputSchema);
    expect(withOutput.map((t) => t.name).sort()).toEqual(['analyze_fsm', 'validate_task_list']);
    for (const t of withOutput) expect(strictProblems(t.outputSchema), t.name).toEqual([]);
  });

  it("analyze_fsm's structured content fits its schema, a transition that stays included", async () => {
    // The SDK client validates structuredContent against the listed outputSchema and throws when it does not fit.
    const r = await client.callTool({ name: 'analyze_fsm', arguments: { task_list: TASKS } });
    expect(r.isError).toBeFalsy();
    const transitions = (r.structuredContent as { transitions: Array<{ from: string; to?: string; when?: string }> }).transitions;
    const stays = transitions.find((t) => t.when === 'tests fail, no attempts left: the run blocks');
    expect(stays).toBeDefined();
    expect(stays).not.toHaveProperty('to');
    expect(JSON.stringify(r.content)).toContain('(stays)');
  });
});

describe('erasmus server completions', () => {
  it('declares the capability', () => {
    expect(client.getServerCapabilities()?.completions).toEqual({});
  });

  it('completes a prompt\'s project from recent projects and from a typed path', async () => {
    const recent = await client.complete({ ref: { type: 'ref/prompt', name: 'development' }, argument: { name: 'project', value: 'pro' } });
    expect(recent.completion.values).toEqual([project]);
    const typed = await client.complete({ ref: { type: 'ref/prompt', name: 'development' }, argument: { name: 'project', value: join(dir, 'ot') } });
    expect(typed.completion.values).toEqual([join(dir, 'other')]);
  });

  it("completes a prompt's component from the project named in the context", async () => {
    const all = await client.complete({ ref: { type: 'ref/prompt', name: 'testing' }, argument: { name: 'component', value: '' }, context: { arguments: { project } } });
    expect(all.completion.values).toEqual(['adder', 'cli', 'parser']);
    const some = await client.complete({ ref: { type: 'ref/prompt', name: 'testing' }, argument: { name: 'component', value: 'c' }, context: { arguments: { project } } });
    expect(some.completion.values).toEqual(['cli']);
    const noProject = await client.complete({ ref: { type: 'ref/prompt', name: 'testing' }, argument: { name: 'component', value: '' } });
    expect(noProject.completion).toEqual({ values: [], total: 0, hasMore: false });
  });

  it('completes the document templates', async () => {
    const key = projectKey(project);
    const keys = await client.complete({ ref: { type: 'ref/resource', uri: 'erasmus://projects/{key}/components/{component}.md' }, argument: { name: 'key', value: '' } });
    expect(keys.completion.values).toEqual([key]);
    const comps = await client.complete({ ref: { type: 'ref/resource', uri: 'erasmus://projects/{key}/components/{component}.md' }, argument: { name: 'component', value: 'p' }, context: { arguments: { key } } });
    expect(comps.completion.values).toEqual(['parser']);
    const docs = await client.complete({ ref: { type: 'ref/resource', uri: 'erasmus://projects/{key}/orchestration/{doc}.md' }, argument: { name: 'doc', value: 'ta' } });
    expect(docs.completion.values).toEqual(['task_list']);
  });

  it('answers an unknown prompt or argument with an empty list', async () => {
    const r = await client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: 'y' } });
    expect(r.completion.values).toEqual([]);
  });
});
