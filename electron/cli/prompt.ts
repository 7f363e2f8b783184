import { clearLine, createInterface, cursorTo } from 'node:readline';

/** A question open on the terminal: its prompt, and showing it again (with what was typed so far) below a line printed meanwhile. */
interface OpenQuestion {
  getPrompt(): string;
  prompt(preserveCursor?: boolean): void;
  /** What was typed so far, where the question echoes it itself (written to a log: `askEchoing`). */
  typed?(): string;
}

/** What `ask` rejects with when Ctrl-C is pressed at its question (the process then gets SIGINT). */
export class Interrupted extends Error {
  constructor() {
    super('interrupted (Ctrl-C)');
  }
}

/** The question open on the terminal now, if any: a line printed meanwhile goes above it (writeLine). */
let open: OpenQuestion | undefined;

/**
 * Prints a line for the user; while a question waits for its answer on a terminal, the line goes above the question,
 * which is shown again with what was typed so far (a parallel run's other steps print while one asks).
 */
export function writeLine(text: string, out: NodeJS.WriteStream = process.stderr): void {
  if (!open) {
    out.write(`${text}\n`);
    return;
  }
  if (!out.isTTY) {
    // Written to a file or a pipe (`… 2>&1 | tee log`) while the question waits on the terminal: the question's line has no end yet,
    // so the line starts on its own and the question is said again after it (a cursor cannot go back up in a log).
    out.write(`\n${text}\n${open.getPrompt()}${open.typed?.() ?? ''}`);
    return;
  }
  clearLine(out, 0);
  cursorTo(out, 0);
  out.write(`${text}\n`);
  open.prompt(true);
}

/** Whether a question is open on the terminal now (waiting for its answer). */
export function asking(): boolean {
  return open !== undefined;
}

/** Lines to say above the next question once it is open (sayWhileAsking), each until withdrawn. */
const later = new Set<{ text: string }>();

/**
 * Says a line above the question open on the terminal, or, with none open yet (the one before is still being put),
 * once one opens. Returns how to withdraw it before it is said.
 */
export function sayWhileAsking(text: string): () => void {
  if (open) {
    writeLine(text);
    return () => undefined;
  }
  const one = { text };
  later.add(one);
  return () => void later.delete(one);
}

/** Asks a question on the terminal without echoing the answer (for secrets). */
export function readHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(question);
    let value = '';
    stdin.setRawMode?.(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const onData = (ch: string) => {
      for (const c of ch) {
        if (c === '\r' || c === '\n') return done();
        if (c === '\u0003') {
          cleanup();
          return reject(new Error('cancelled'));
        }
        if (c === '\u007f' || c === '\b') value = value.slice(0, -1);
        else value += c;
      }
    };
    const cleanup = () => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    const done = () => {
      cleanup();
      resolve(value);
    };
    stdin.on('data', onData);
  });
}

/** Asks a question and returns the typed line; an abort withdraws the question (rejects with the signal's reason). */
export function ask(question: string, signal?: AbortSignal): Promise<string> {
  // Written to a log or a pipe (`… 2>&1 | tee log`) while the question is answered on the terminal: the answer is
  // echoed once, into the stream the question went to (the terminal's own echo is off), so it is in the log and, through
  // tee, on the screen once; left to the terminal, tee's copy showed it a second time.
  if (process.stdin.isTTY && !process.stderr.isTTY && typeof process.stdin.setRawMode === 'function') return askEchoing(question, signal);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  return new Promise((resolve, reject) => {
    const withdraw = () => {
      rl.close();
      reject(signal!.reason instanceof Error ? signal!.reason : new Error('the question was withdrawn'));
    };
    if (signal?.aborted) return withdraw();
    signal?.addEventListener('abort', withdraw, { once: true });
    rl.setPrompt(question);
    open = rl;
    rl.once('close', () => {
      if (open === rl) open = undefined;
    });
    // Ctrl-C at the question: readline takes it from the terminal and, with nobody listening, closes the question and leaves
    // its answer waiting forever (the run hung until a second Ctrl-C). It is the interrupt it is elsewhere: the question is
    // withdrawn and the process gets SIGINT (a run stops; a command without a handler ends).
    rl.once('SIGINT', () => {
      signal?.removeEventListener('abort', withdraw);
      rl.close();
      process.stderr.write('\n');
      reject(new Interrupted());
      process.kill(process.pid, 'SIGINT');
    });
    rl.once('line', (answer) => {
      signal?.removeEventListener('abort', withdraw);
      rl.close();
      // Answers piped in, the questions written to a log: nothing echoed the answer, the log gets it and the line's end.
      if (!process.stderr.isTTY) process.stderr.write(`${answer}\n`);
      resolve(answer);
    });
    rl.prompt();
    for (const one of later) writeLine(one.text);
    later.clear();
  });
}

/**
 * `ask` with the terminal in raw mode and the typing echoed into stderr (a log or a pipe), not by the terminal:
 * printable characters as typed, backspace as `\b \b`, Enter ends the line; Ctrl-C withdraws the question and is the
 * interrupt it is on a terminal (the process gets SIGINT), Ctrl-D on an empty line answers empty; other keys (arrows) are ignored.
 */
function askEchoing(question: string, signal?: AbortSignal): Promise<string> {
  const stdin = process.stdin;
  const err = process.stderr;
  let typed = '';
  return new Promise((resolve, reject) => {
    const me: OpenQuestion = {
      getPrompt: () => question,
      prompt: () => void err.write(question),
      typed: () => typed,
    };
    const cleanup = () => {
      stdin.off('data', onData);
      signal?.removeEventListener('abort', withdraw);
      stdin.setRawMode(false);
      stdin.pause();
      if (open === me) open = undefined;
    };
    const withdraw = () => {
      cleanup();
      err.write('\n');
      reject(signal!.reason instanceof Error ? signal!.reason : new Error('the question was withdrawn'));
    };
    const onData = (chunk: string) => {
      if (chunk.startsWith('\u001b')) return; // an arrow or another key's escape sequence
      for (const c of chunk) {
        if (c === '\r' || c === '\n' || (c === '\u0004' && !typed)) {
          cleanup();
          err.write('\n');
          return resolve(typed);
        }
        if (c === '\u0003') {
          // Raw mode takes Ctrl-C from the terminal's driver: it interrupts as it would have (the question withdrawn, SIGINT).
          cleanup();
          err.write('\n');
          reject(new Interrupted());
          process.kill(process.pid, 'SIGINT');
          return;
        }
        if (c === '\u007f' || c === '\b') {
          if (!typed) continue;
          typed = [...typed].slice(0, -1).join('');
          err.write('\b \b');
          continue;
        }
        if (c < ' ') continue;
        typed += c;
        err.write(c);
      }
    };
    if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('the question was withdrawn'));
    signal?.addEventListener('abort', withdraw, { once: true });
    open = me;
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
    err.write(question);
    for (const one of later) writeLine(one.text);
    later.clear();
  });
}
