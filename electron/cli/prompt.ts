import { clearLine, createInterface, cursorTo, type Interface } from 'node:readline';

/** The question open on the terminal now, if any: a line printed meanwhile goes above it (writeLine). */
let open: Interface | undefined;

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
    out.write(`\n${text}\n${open.getPrompt()}`);
    return;
  }
  clearLine(out, 0);
  cursorTo(out, 0);
  out.write(`${text}\n`);
  open.prompt(true);
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
    rl.once('line', (answer) => {
      signal?.removeEventListener('abort', withdraw);
      rl.close();
      // Written to a log (`… 2>&1 | tee`): the terminal echoed the answer, the log did not; it gets the answer and the
      // line's end, so what is printed next does not follow the question on its line.
      if (!process.stderr.isTTY) process.stderr.write(`${answer}\n`);
      resolve(answer);
    });
    rl.prompt();
    for (const one of later) writeLine(one.text);
    later.clear();
  });
}
