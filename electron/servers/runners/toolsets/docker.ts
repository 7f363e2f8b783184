import { readFile, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { z } from 'zod';
import { argv } from '../quote';
import { ADDITIVE, defineTool, DESTRUCTIVE, operand, READ_ONLY } from '../tool';

/** A path inside the project root (symlinks resolved), or an error naming it. */
async function inside(root: string, path: string): Promise<string> {
  const real = await realpath(resolve(root, path)).catch(() => {
    throw new Error(`${path} does not exist in the project`);
  });
  const rel = relative(root, real);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new Error(`${path} is outside the project folder`);
  return real;
}

export const dockerTools = [
  defineTool({
    name: 'docker_ps',
    toolset: 'docker',
    title: 'docker ps',
    description: 'List containers (all of them with `all`).',
    input: { all: z.boolean().optional() },
    annotations: READ_ONLY,
    plan: ({ all }) => ({ command: `docker ps${all ? ' -a' : ''}` }),
  }),
  defineTool({
    name: 'docker_images',
    toolset: 'docker',
    title: 'docker images',
    description: 'List local images.',
    input: {},
    annotations: READ_ONLY,
    plan: () => ({ command: 'docker images' }),
  }),
  defineTool({
    name: 'docker_logs',
    toolset: 'docker',
    title: 'docker logs',
    description: "Show a container's recent logs.",
    input: { container: operand(300).meta({ examples: ['web'] }), tail: z.number().int().min(1).max(100_000).optional() },
    annotations: READ_ONLY,
    plan: ({ container, tail }) => ({ command: `docker logs --tail ${tail ?? 200} -- ${argv([container])}` }),
  }),
  defineTool({
    name: 'docker_build',
    toolset: 'docker',
    title: 'docker build',
    description: 'Build an image from a Dockerfile in the project (reviewed before it runs).',
    input: {
      context: z.string().max(4_096).optional().describe('Build context folder, relative to the project (default ".").'),
      file: z.string().max(4_096).optional().describe('Dockerfile path, relative to the project (default <context>/Dockerfile).'),
      tag: z.string().min(1).max(300).optional(),
    },
    annotations: { ...ADDITIVE, openWorldHint: true },
    plan: async ({ context, file, tag }, { root }) => {
      const ctx = await inside(root, context ?? '.');
      const dockerfile = await inside(root, file ?? relative(root, resolve(ctx, 'Dockerfile')));
      const script = await readFile(dockerfile, 'utf8');
      const args = ['build', '-f', relative(root, dockerfile), ...(tag ? ['-t', tag] : []), relative(root, ctx) || '.'];
      return { command: `docker ${argv(args)}`, review: { kind: 'dockerfile', script } };
    },
  }),
  defineTool({
    name: 'docker_run',
    toolset: 'docker',
    title: 'docker run',
    description: 'Run a container from `image` (removed when it exits), with extra `args` before the image and a `command` after it.',
    input: {
      image: operand(300).meta({ examples: ['python:3.12-slim'] }),
      args: z.array(z.string().max(10_000)).max(200).optional(),
      command: z.array(z.string().max(10_000)).max(200).optional(),
    },
    annotations: DESTRUCTIVE,
    plan: ({ image, args, command }) => ({ command: `docker ${argv(['run', '--rm', ...(args ?? []), image, ...(command ?? [])])}` }),
  }),
];
