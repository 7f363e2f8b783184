import { describe, expect, it } from 'vitest';
import { previewOf } from './approvalPreview';

describe('previewOf', () => {
  it('shows a command as it will run, and the original when rewriting changed it', () => {
    expect(previewOf('runners__bash', { command: 'rm -rf build' })).toEqual({ kind: 'command', command: 'rm -rf build', original: undefined, cwd: undefined });
    expect(previewOf('runners__bash', { command: 'npm test', rewritten: 'pnpm test', cwd: '/p' })).toEqual({ kind: 'command', command: 'pnpm test', original: 'npm test', cwd: '/p' });
  });
  it('shows a file write as added lines and an edit as a diff', () => {
    const w = previewOf('files__write_file', { path: 'a.txt', content: 'one\ntwo\n' });
    expect(w).toEqual({ kind: 'write', path: 'a.txt', lines: [{ op: '+', text: 'one' }, { op: '+', text: 'two' }], overwrite: { content: 'one\ntwo\n' } });
    // An overwrite diffs against the file on disk: only the changed line is new.
    const o = previewOf('files__write_file', { path: 'a.txt', content: 'one\ntwo\n' }, 'one\nzwei\n');
    expect(o.kind === 'write' && o.lines).toEqual([{ op: ' ', text: 'one' }, { op: '-', text: 'zwei' }, { op: '+', text: 'two' }]);
    const e = previewOf('files__edit_file', { path: 'a.txt', edits: [{ oldText: 'one\ntwo', newText: 'one\nthree' }] });
    expect(e.kind === 'write' && e.lines).toEqual([{ op: ' ', text: 'one' }, { op: '-', text: 'two' }, { op: '+', text: 'three' }]);
    // files__edit_file: the first replacement in the arguments, more in edits, each shown in turn.
    const both = previewOf('files__edit_file', { path: 'a.txt', oldText: 'a = 1', newText: 'a = 2', edits: [{ oldText: 'b = 1', newText: 'b = 3' }] });
    expect(both.kind === 'write' && both.lines).toEqual([{ op: '-', text: 'a = 1' }, { op: '+', text: 'a = 2' }, { op: ' ', text: '⋯' }, { op: '-', text: 'b = 1' }, { op: '+', text: 'b = 3' }]);
  });
  it('falls back to the arguments as JSON', () => {
    expect(previewOf('memory__delete', { id: 3 })).toEqual({ kind: 'args', json: '{\n  "id": 3\n}' });
  });
});
