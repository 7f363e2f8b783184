import { z } from 'zod';
import { argv } from '../quote';
import { ADDITIVE, defineTool, DESTRUCTIVE, operand, READ_ONLY, type Plan } from '../tool';

const READ_ONLY_SUBCOMMANDS = new Set(['status', 'diff', 'log', 'show', 'blame', 'shortlog', 'describe', 'rev-parse', 'ls-files', 'grep', 'reflog']);
const path = z.string().min(1).max(4_096);

/** A git command that changes something goes to the script reviewer. */
function changing(args: string[]): Plan {
  const command = `git ${argv(args)}`;
  return { command, review: { kind: 'git', script: command } };
}

export const gitTools = [
  defineTool({
    name: 'git_status',
    toolset: 'git',
    title: 'git status',
    description: 'Show the working tree status (short format with branch).',
    input: {},
    annotations: READ_ONLY,
    plan: () => ({ command: 'git status --short --branch' }),
  }),
  defineTool({
    name: 'git_diff',
    toolset: 'git',
    title: 'git diff',
    description: 'Show changes: unstaged by default, staged with `staged`, limited to `paths` if given.',
    input: { staged: z.boolean().optional(), paths: z.array(path).max(200).optional() },
    annotations: READ_ONLY,
    plan: ({ staged, paths }) => ({ command: `git diff${staged ? ' --staged' : ''}${paths?.length ? ` -- ${argv(paths)}` : ''}` }),
  }),
  defineTool({
    name: 'git_log',
    toolset: 'git',
    title: 'git log',
    description: 'Show recent commits, one line each.',
    input: { max_count: z.number().int().min(1).max(500).optional() },
    annotations: READ_ONLY,
    plan: ({ max_count }) => ({ command: `git log --oneline --decorate -n ${max_count ?? 20}` }),
  }),
  defineTool({
    name: 'git_add',
    toolset: 'git',
    title: 'git add',
    description: 'Stage files for the next commit.',
    input: { paths: z.array(path).min(1).max(1_000) },
    annotations: ADDITIVE,
    plan: ({ paths }) => changing(['add', '--', ...paths]),
  }),
  defineTool({
    name: 'git_commit',
    toolset: 'git',
    title: 'git commit',
    description: 'Commit what is staged (or every tracked change with `all`).',
    input: { message: z.string().min(1).max(20_000), all: z.boolean().optional() },
    annotations: ADDITIVE,
    plan: ({ message, all }) => changing(['commit', ...(all ? ['-a'] : []), '-m', message]),
  }),
  defineTool({
    name: 'git_push',
    toolset: 'git',
    title: 'git push',
    description: 'Push the current branch (or `branch`) to `remote` (default origin). Never forces.',
    input: { remote: operand(200).optional(), branch: operand(200).optional() },
    annotations: { ...DESTRUCTIVE, destructiveHint: false },
    plan: ({ remote, branch }) => changing(['push', '--', remote ?? 'origin', ...(branch ? [branch] : [])]),
  }),
  defineTool({
    name: 'git_run',
    toolset: 'git',
    title: 'Run git',
    description: 'Run any git subcommand with arguments. Read-only subcommands run directly; others are reviewed, and destructive ones (reset --hard, clean, push --force…) ask the user.',
    input: { args: z.array(z.string().max(20_000)).min(1).max(500).describe('Arguments after `git`.').meta({ examples: [['show', '--stat', 'HEAD']] }) },
    annotations: DESTRUCTIVE,
    plan: ({ args }) => (READ_ONLY_SUBCOMMANDS.has(args[0]!) ? { command: `git ${argv(args)}` } : changing(args)),
  }),
];

