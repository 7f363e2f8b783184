import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventName } from '../../../contract/index';
import { Redactor } from '../../secrets/redactor';
import { PtyManager, type EventSink } from './manager';
import { endsMidCharacter } from './terminal';

/** Processes of a session, from the process table (ps), not from our own /proc reader. */
function sessionProcesses(sid: number): string[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,sid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => Number(f[1]) === sid && !f[2]?.startsWith('Z'))
    .map((f) => f.join(' '));
}

class Recorder implements EventSink {
  readonly events: { event: EventName; payload: unknown }[] = [];
  emit(event: EventName, payload: unknown): void {
    this.events.push({ event, payload });
  }
  data(id: string): string {
    return this.events
      .filter((e) => e.event === 'terminal.data' && (e.payload as { id: string }).id === id)
      .map((e) => (e.payload as { data: string }).data)
      .join('');
  }
  waitForData(id: string, needle: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    return new Promise((resolve, reject) => {
      const poll = () => {
        if (this.data(id).includes(needle)) return resolve();
        if (Date.now() > deadline) return reject(new Error(`no ${JSON.stringify(needle)} in ${JSON.stringify(this.data(id))}`));
        setTimeout(poll, 20);
      };
      poll();
    });
  }
}

let dir: string;
let project: string;
let sink: Recorder;
let ptys: PtyManager;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'erasmus-pty-')));
  project = join(dir, 'project');
  execFileSync('mkdir', ['-p', project]);
  sink = new Recorder();
  ptys = new PtyManager({ outputsDir: join(dir, 'outputs'), sink, killGraceMs: 500, login: false });
});

afterEach(async () => {
  await ptys.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('PtyManager.run on a real PTY', () => {
  it('runs in the project folder in a terminal, with output, exit code and live events', async () => {
    const r = await ptys.run({ command: 'printf "\\033[32mgreen\\033[0m\\n"; pwd; tty; exit 3', cwd: project });
    expect(r.exitCode).toBe(3);
    expect(r.timedOut).toBe(false);
    const lines = r.output.split('\n');
    expect(lines[0]).toBe('green');
    expect(lines[1]).toBe(project);
    expect(lines[2]).toMatch(/^\/dev\/pts\//);
    expect(sink.data(r.terminalId)).toContain('\x1b[32mgreen');
    const names = sink.events.filter((e) => (e.payload as { id: string }).id === r.terminalId).map((e) => e.event);
    expect(names[0]).toBe('terminal.opened');
    expect(names).toContain('terminal.data');
    expect(names.at(-1)).toBe('terminal.exited');
    expect(readFileSync(r.outputFile, 'utf8')).toBe(r.output);
  });

  it('tells a command it runs unattended and without colour (CI, NO_COLOR), so tools draw no spinners for the model', async () => {
    const r = await ptys.run({ command: 'echo "CI=$CI NO_COLOR=$NO_COLOR FORCE_COLOR=$FORCE_COLOR"', cwd: project });
    expect(r.output.trim()).toBe('CI=1 NO_COLOR=1 FORCE_COLOR=0');
  });

  it('stops a command past its timeout with its whole process tree, even one ignoring SIGTERM', async () => {
    let sid = 0;
    const r = await ptys.run({
      command: "trap '' TERM HUP; (trap '' TERM HUP; sleep 60) & sleep 60 & echo started; wait",
      cwd: project,
      timeoutMs: 700,
      onStart: (info) => {
        sid = ptys.get(info.id)!.pid;
      },
    });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(r.output).toContain('started');
    expect(sid).toBeGreaterThan(0);
    expect(sessionProcesses(sid)).toEqual([]);
  });

  it('can leave a command running in the background past its timeout, then stop it', async () => {
    const r = await ptys.run({ command: 'echo begun; sleep 60', cwd: project, timeoutMs: 400, onTimeout: 'background' });
    expect(r.background).toBe(true);
    expect(r.output).toContain('begun');
    const term = ptys.get(r.terminalId)!;
    expect(term.running).toBe(true);
    expect(sessionProcesses(term.pid).length).toBeGreaterThan(0);
    await ptys.kill(r.terminalId);
    expect(term.running).toBe(false);
    expect(sessionProcesses(term.pid)).toEqual([]);
  });

  it('takes input typed into a command that asks for it; what it printed meanwhile is in the raw file while it waits', async () => {
    let onDisk = false;
    const running = ptys.run({
      command: 'read -p "Your name? " name; echo "hello, $name"',
      cwd: project,
      timeoutMs: 10_000,
      onStart: (info) => {
        void sink.waitForData(info.id, 'Your name? ').then(async () => {
          // A trickle of output is written within a tenth of a second, not only at exit.
          for (const deadline = Date.now() + 3_000; !onDisk && Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
            onDisk = readFileSync(info.outputFile!, 'utf8').includes('Your name? ');
          }
          ptys.input(info.id, 'Ada\r');
        });
      },
    });
    const r = await running;
    expect(onDisk).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('hello, Ada');
    expect(readFileSync(r.rawOutputFile, 'utf8')).toMatch(/^Your name\? Ada\r\nhello, Ada\r\n$/);
  });

  it('truncates a long output for the model and keeps all of it on disk', async () => {
    const r = await ptys.run({ command: 'seq 1 200000', cwd: project, maxOutputChars: 4_000 });
    expect(r.exitCode).toBe(0);
    expect(r.truncated).toBe(true);
    expect(r.output.length).toBeLessThan(4_300);
    expect(r.output.startsWith('1\n2\n3\n')).toBe(true);
    expect(r.output.trimEnd().endsWith('199999\n200000')).toBe(true);
    expect(r.output).toContain(`The full output is saved in ${r.outputFile}`);
    const full = readFileSync(r.outputFile, 'utf8').trimEnd().split('\n');
    expect(full.length).toBe(200000);
    expect(full[99_999]).toBe('100000');
  });

  it("a command run for the model inherits none of the user's credentials by name (env would hand them to the model); what it is given itself it keeps", async () => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, OPENAI_API_KEY: 'sk-user-1', GITHUB_TOKEN: 'ghp-2', AWS_SECRET_ACCESS_KEY: 'aws-3', KEEP_ME: 'kept' };
    const bare = new PtyManager({ outputsDir: join(dir, 'outputs'), sink, login: false, env });
    try {
      const r = await bare.run({ command: 'env | sort', cwd: project, env: { GIVEN_TOKEN: 'given' } });
      expect(r.output).toContain('KEEP_ME=kept');
      expect(r.output).toContain('GIVEN_TOKEN=given');
      for (const leaked of ['sk-user-1', 'ghp-2', 'aws-3']) expect(r.output).not.toContain(leaked);
    } finally {
      await bare.dispose();
    }
  });

  it('keeps multi-byte characters split across reads whole, and masks a secret, in the events and the raw file alike', async () => {
    const redactor = new Redactor();
    const secret = 'tok-3f9a1c77e2b04d5e';
    redactor.add('TOKEN', secret);
    const masked = new PtyManager({ outputsDir: join(dir, 'outputs'), sink, login: false, redactor });
    try {
      // 20 000 lines of 2-, 3- and 4-byte characters: the PTY's 4 kB reads cut many of them in two.
      const line = 'é€😀 ok';
      let id = '';
      const r = await masked.run({
        // The second key comes in two batches: its first 8 characters, then (after a quiet spell) the rest.
        command: `yes '${line}' | head -n 20000; printf 'key=%s\\n' "$TOKEN"; yes '${line}' | head -n 20000; printf 'key2=%s' "\${TOKEN:0:8}"; sleep 0.3; printf '%s\\n' "\${TOKEN:8}"`,
        cwd: project,
        env: { TOKEN: secret },
        onStart: (i) => (id = i.id),
      });
      expect(r.exitCode).toBe(0);
      const expected = `${`${line}\r\n`.repeat(20000)}key=[secret:TOKEN]\r\n${`${line}\r\n`.repeat(20000)}key2=[secret:TOKEN]\r\n`;
      expect(sink.data(id) === expected).toBe(true);
      expect(readFileSync(r.rawOutputFile, 'utf8') === expected).toBe(true);
      const at = sink.events.filter((e) => e.event === 'terminal.data' && (e.payload as { id: string }).id === id).map((e) => (e.payload as { at: number }).at);
      expect(at[0]).toBe(0);
      expect(at.every((a, i) => i === 0 || a > at[i - 1]!)).toBe(true);
      const pieces = sink.events.filter((e) => e.event === 'terminal.data' && (e.payload as { id: string }).id === id).map((e) => (e.payload as { data: string }).data);
      expect(pieces.at(-1)).toMatch(/^(key2=)?\[secret:TOKEN\]\r\n$/);
      expect(pieces.some((d) => d.includes(secret.slice(0, 8)))).toBe(false);
    } finally {
      await masked.dispose();
    }
  });

  it('pauses a flood until the client acknowledges, and loses nothing', async () => {
    const fc = new PtyManager({ outputsDir: join(dir, 'outputs'), sink, login: false, flowControl: { highWatermark: 2_000, lowWatermark: 500, stallMs: 60_000 } });
    try {
      let id = '';
      const run = fc.run({ command: 'seq 1 500000', cwd: project, onStart: (i) => (id = i.id) });
      await new Promise((r) => setTimeout(r, 400));
      const term = fc.get(id)!;
      // Without acknowledgements the PTY is paused: the command is blocked far from its ~3.9 M characters.
      expect(term.running).toBe(true);
      expect(term.outputChars).toBeLessThan(1_000_000);
      const ack = setInterval(() => fc.ack(id, 100_000), 5);
      const r = await run;
      clearInterval(ack);
      expect(r.exitCode).toBe(0);
      expect(readFileSync(r.outputFile, 'utf8').trimEnd().split('\n').at(-1)).toBe('500000');
      expect(sink.data(id).replace(/\r/g, '').trimEnd().split('\n').length).toBe(500000);
    } finally {
      await fc.dispose();
    }
  });

  it("in 'auto' mode starts flow control only once a client acknowledges", async () => {
    const auto = new PtyManager({ outputsDir: join(dir, 'outputs'), login: false, flowControl: 'auto' });
    try {
      // Nobody acknowledges: a headless run is never paused.
      const free = await auto.run({ command: 'seq 1 100000', cwd: project, timeoutMs: 20_000 });
      expect(free.exitCode).toBe(0);
      let id = '';
      const run = auto.run({ command: 'seq 1 500000', cwd: project, onStart: (i) => (id = i.id) });
      auto.ack(id, 0); // a view has connected
      await new Promise((r) => setTimeout(r, 400));
      expect(auto.get(id)!.running).toBe(true);
      const ack = setInterval(() => auto.ack(id, 1_000_000), 5);
      expect((await run).exitCode).toBe(0);
      clearInterval(ack);
    } finally {
      await auto.dispose();
    }
  });

  it('opens a shell tab in a folder, takes keystrokes, resizes and stops', async () => {
    const info = ptys.openShell({ cwd: project, cols: 100, rows: 20 });
    ptys.resize(info.id, 90, 25);
    ptys.input(info.id, 'echo "cols=$(tput cols) dir=$PWD"\r');
    await sink.waitForData(info.id, `cols=90 dir=${project}`);
    const pid = ptys.get(info.id)!.pid;
    await ptys.kill(info.id);
    expect(sessionProcesses(pid)).toEqual([]);
    expect(ptys.list().find((t) => t.id === info.id)?.running).toBe(false);
    await ptys.close(info.id);
    expect(ptys.list().find((t) => t.id === info.id)).toBeUndefined();
  });

  it('rejects input for an unknown terminal with a clear error', () => {
    expect(() => ptys.input('nope', 'x')).toThrow(/no terminal with id "nope"/);
  });
});

describe('endsMidCharacter', () => {
  it('tells a chunk cut inside a UTF-8 character from one ending on a whole character', () => {
    const bytes = Buffer.from('a€😀');
    expect(endsMidCharacter(bytes)).toBe(false);
    expect(endsMidCharacter(bytes.subarray(0, 3))).toBe(true); // € cut after one of its three bytes
    expect(endsMidCharacter(bytes.subarray(0, 4))).toBe(false);
    expect(endsMidCharacter(bytes.subarray(0, 7))).toBe(true); // 😀 cut after three of four
    expect(endsMidCharacter(Buffer.from([0x80, 0x80]))).toBe(false); // stray continuation bytes: nothing held
    expect(endsMidCharacter(Buffer.alloc(0))).toBe(false);
  });
});

describe('PtyManager with a login shell (the default)', () => {
  it('runs through bash -lc and reports the exit code of a failing command', async () => {
    const m = new PtyManager({ outputsDir: join(dir, 'outputs2') });
    try {
      const r = await m.run({ command: 'echo "$0 $-" | grep -c . ; false', cwd: project });
      expect(r.exitCode).toBe(1);
      expect(r.output.trim()).toBe('1');
    } finally {
      await m.dispose();
    }
  });
});
