import { describe, expect, it } from 'vitest';
import { Redactor } from '../../secrets/redactor';
import { countChars, decodeOutput, incompleteTail, OutputFilter } from './output-stream';

const NONCE = '0123456789abcdef';
const SECRET = 'tok-€😀-3f9a1c77';

/** Runs `bytes` through a filter in the pieces `cuts` makes; what came out, piece by piece, and the filter. */
function run(bytes: Buffer, cuts: number[], redactor?: Redactor): { pieces: Buffer[]; filter: OutputFilter; markers: number } {
  let markers = 0;
  const filter = new OutputFilter(NONCE, redactor, () => markers++);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    pieces.push(filter.push(bytes.subarray(from, to)));
    from = to;
  }
  pieces.push(filter.end());
  return { pieces, filter, markers };
}

describe('OutputFilter (a terminal output on bytes)', () => {
  it('keeps a character cut between batches whole, masks a secret cut anywhere, and takes the exit marker out, at every cut', () => {
    const redactor = new Redactor();
    redactor.add('TOKEN', SECRET);
    const before = `é€😀 ok\r\nkey=${SECRET}\r\n\x1b[1mbold\x1b[0m ü\r\n`;
    const bytes = Buffer.from(`${before}\x1b]7777;erasmus-exit;${NONCE};3\x07never the command's`);
    const want = `é€😀 ok\r\nkey=[secret:TOKEN]\r\n\x1b[1mbold\x1b[0m ü\r\n`;
    for (let a = 0; a <= bytes.length; a++) {
      for (const b of [a, Math.min(bytes.length, a + 1), Math.min(bytes.length, a + 5)]) {
        const { pieces, filter, markers } = run(bytes, [a, b], redactor);
        // Every piece is whole characters: decoded alone, none holds a replacement character.
        for (const p of pieces) expect(p.toString('utf8').includes('\ufffd'), `cuts ${a}, ${b}`).toBe(false);
        expect(Buffer.concat(pieces).toString('utf8'), `cuts ${a}, ${b}`).toBe(want);
        expect(filter.markerCode).toBe(3);
        expect(markers).toBe(1);
      }
    }
  });

  it('without an exit marker, gives back at the end what it held (a cut character as its bytes, an unfinished escape)', () => {
    const bytes = Buffer.from('ok €');
    const { pieces, filter } = run(bytes.subarray(0, 5), [3]);
    expect(Buffer.concat(pieces).equals(bytes.subarray(0, 5))).toBe(true);
    expect(filter.markerCode).toBeUndefined();
    const esc = run(Buffer.from('done \x1b]7777;erasmus-exi'), []);
    expect(esc.pieces[0]!.toString()).toBe('done ');
    expect(esc.pieces.at(-1)!.toString()).toBe('\x1b]7777;erasmus-exi');
  });

  it("hands on a batch that needs no change as the batch's own bytes, so its buffer (and the room before it) travels on", () => {
    const redactor = new Redactor();
    redactor.add('TOKEN', SECRET);
    const filter = new OutputFilter(NONCE, redactor);
    const batch = Buffer.from('plain output, colours \x1b[32mok\x1b[0m\r\n');
    expect(filter.push(batch)).toBe(batch);
    const cut = Buffer.from('é€');
    const head = filter.push(cut.subarray(0, 4));
    expect(head.buffer).toBe(cut.buffer);
    expect(head.byteOffset).toBe(cut.byteOffset);
    expect(head.toString()).toBe('é');
  });
});

describe('incompleteTail, countChars', () => {
  it('counts the bytes of a character the next batch completes', () => {
    const bytes = Buffer.from('a€😀');
    expect(incompleteTail(bytes)).toBe(0);
    expect(incompleteTail(bytes.subarray(0, 2))).toBe(1); // € after one of its three bytes
    expect(incompleteTail(bytes.subarray(0, 3))).toBe(2);
    expect(incompleteTail(bytes.subarray(0, 6))).toBe(2); // 😀 after two of four
    expect(incompleteTail(Buffer.from([0x80, 0x80]))).toBe(0);
  });

  it('counts characters as a terminal.data offset does (UTF-16 units), decoding only what is not ASCII', () => {
    expect(countChars(Buffer.from('plain\r\n'))).toEqual({ chars: 7 });
    expect(countChars(Buffer.from('é😀'))).toEqual({ chars: 3, text: 'é😀' });
    expect(decodeOutput(Buffer.from('plain'))).toBe('plain');
    expect(decodeOutput(Buffer.from('é😀'))).toBe('é😀');
  });
});
