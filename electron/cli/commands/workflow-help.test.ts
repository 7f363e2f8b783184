import { describe, expect, it } from 'vitest';
import { buildProgram } from '../index';

// A step's call refused without --yes tells the user to "run it again with --yes"; whichever command
// drives the run next (approve, resume, retry, skip) must say that its --yes approves tool calls too.
describe('erasmus workflow --yes', () => {
  const workflow = buildProgram().commands.find((c) => c.name() === 'workflow')!;
  for (const name of ['start', 'approve', 'resume', 'retry', 'skip']) {
    it(`${name}: --yes says it approves tool calls, as it does`, () => {
      const yes = workflow.commands.find((c) => c.name() === name)!.options.find((o) => o.long === '--yes')!;
      expect(yes.description).toMatch(/^approve the plan without asking, and tool calls as .*--auto-approve does$/);
    });
    it(`${name}: takes --auto-approve, as start does`, () => {
      expect(workflow.commands.find((c) => c.name() === name)!.options.find((o) => o.long === '--auto-approve')?.description).toMatch(/^approve tool calls the policy does not refuse/);
    });
  }
});

describe('erasmus workflow --tool-mode and --new', () => {
  const workflow = buildProgram().commands.find((c) => c.name() === 'workflow')!;
  for (const name of ['start', 'approve', 'resume', 'retry']) {
    it(`${name} takes --tool-mode auto|native|xml`, () => {
      const mode = workflow.commands.find((c) => c.name() === name)!.options.find((o) => o.long === '--tool-mode');
      expect(mode?.description).toMatch(/auto, native.* or xml/);
    });
  }
  it('start takes --new, which marks the unfinished run abandoned', () => {
    const start = workflow.commands.find((c) => c.name() === 'start')!;
    expect(start.options.find((o) => o.long === '--new')?.description).toMatch(/unfinished.*abandoned/);
  });
});

describe('erasmus workflow --database-url', () => {
  const workflow = buildProgram().commands.find((c) => c.name() === 'workflow')!;
  // Every command that drives a durable run, or that a durable run's hint names, takes its database.
  for (const name of ['start', 'approve', 'resume', 'retry', 'skip', 'rewind']) {
    it(`${name} takes --database-url postgres://…`, () => {
      expect(workflow.commands.find((c) => c.name() === name)!.options.find((o) => o.long === '--database-url')?.description).toMatch(/postgres:\/\//);
    });
  }
});

describe('erasmus workflow stop --help', () => {
  // In a durable run the step under way is a worker's: stop does not abort it, and help must not say it does.
  it("says a durable run's components go on in their workers, and what cancels them", () => {
    const stop = buildProgram().commands.find((c) => c.name() === 'workflow')!.commands.find((c) => c.name() === 'stop')!;
    expect(stop.description()).toMatch(/durable run's components go on in their `erasmus worker` processes; resume takes up what they did, and abandoning the run \(start --new\) cancels them/);
  });
});

describe('a bad option', () => {
  it('is said on its own line, then where the options are, not followed by the whole help', async () => {
    const program = buildProgram();
    let err = '';
    const quiet = (c: typeof program) => {
      c.exitOverride().configureOutput({ writeErr: (s) => (err += s), writeOut: () => undefined });
      c.commands.forEach(quiet);
    };
    quiet(program);
    await expect(program.parseAsync(['node', 'erasmus', 'workflow', 'start', '/p', '--parallel', '0'])).rejects.toThrow();
    expect(err).toBe("error: option '--parallel <n>' argument '0' is invalid. --parallel takes a whole number from 1 to 16 (how many components run at once), got \"0\"\n(add --help to see the options)\n");
  });
});

describe('erasmus workflow retry/skip --component', () => {
  // A component side by side that stopped (to ask, or blocked) names itself in its command lines: the command must take it.
  for (const name of ['retry', 'skip']) {
    it(`${name} takes --component <id>, shown in its help`, () => {
      const opt = buildProgram().commands.find((c) => c.name() === 'workflow')!.commands.find((c) => c.name() === name)!.options.find((o) => o.long === '--component');
      expect(opt?.description).toMatch(new RegExp(`^components side by side: the blocked component whose step to ${name}`));
      expect(opt?.hidden).toBe(false);
    });
  }
  it('resume refuses --component, saying where it applies, before it opens anything', async () => {
    const program = buildProgram().exitOverride();
    program.commands.find((c) => c.name() === 'workflow')!.exitOverride();
    await expect(program.parseAsync(['node', 'erasmus', 'workflow', 'resume', '/nonexistent-project', '--component', 'b'])).rejects.toThrow('--component applies to workflow retry and skip, not resume');
  });
});
