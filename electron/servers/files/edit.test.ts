import { describe, expect, it } from 'vitest';
import { applyEdits, closest } from './edit';

const FILE = ['function toVal(mix) {', '  let k, y, str = "";', '  if (typeof mix === "string") {', '    str += mix;', '  }', '  return str;', '}', ''].join('\n');

describe('applyEdits', () => {
  it('replaces text that occurs once and reports the lines and a diff', () => {
    const r = applyEdits('src/index.js', FILE, [{ oldText: '    str += mix;\n', newText: '    str += mix.trim();\n' }]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.text).toBe(FILE.replace('str += mix;', 'str += mix.trim();'));
    // The one line the new text fills: its closing line end does not make line 5 (`  }`, untouched) part of the edit.
    expect(r.lines).toEqual(['line 4']);
    const two = applyEdits('src/index.js', FILE, [{ oldText: '    str += mix;\n', newText: '    str += mix;\n    str += "!";\n' }]);
    expect(two.ok && two.lines).toEqual(['lines 4–5']);
    const crlf = applyEdits('a.txt', 'a\r\nb\r\nc\r\n', [{ oldText: 'b\n', newText: 'B\n' }]);
    expect(crlf.ok && crlf.lines).toEqual(['line 2']);
    expect(r.diff).toContain('-    str += mix;\n+    str += mix.trim();');
  });

  it('applies several edits in order, each to the text the one before left', () => {
    const r = applyEdits('a.js', FILE, [
      { oldText: 'let k, y, str = "";', newText: 'let k, y, str = "", n = 0;' },
      { oldText: 'n = 0;', newText: 'n = 1;' },
    ]);
    expect(r.ok && r.text).toContain('let k, y, str = "", n = 1;');
  });

  it('refuses an ambiguous match, naming where it occurs, and changes nothing', () => {
    const r = applyEdits('a.js', FILE, [{ oldText: 'str', newText: 'out' }]);
    expect(r).toEqual({ ok: false, message: expect.stringMatching(/the edit: oldText occurs 4 times in a\.js \(at lines 2, 3, 4, 6\); it must match once: add the neighbouring lines.*Nothing was changed\./) });
  });

  it('names the edit that failed among several and keeps the file whole (all or nothing)', () => {
    const r = applyEdits('a.js', FILE, [
      { oldText: 'return str;', newText: 'return str.trim();' },
      { oldText: 'nowhere to be seen at all', newText: 'x' },
    ]);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/^edit 2 of 2: oldText was not found in a\.js \(after the edits before it\)\. No part of the file is close/);
  });

  it('shows the closest text when the model drifted from the file, and says when only whitespace differs', () => {
    const drift = applyEdits('a.js', FILE, [{ oldText: 'if (typeof mix == "string") {\n    str += mix;', newText: 'x' }]);
    expect(!drift.ok && drift.message).toContain('The closest text is at lines 3–4:\n  if (typeof mix === "string") {\n    str += mix;\n');
    expect(!drift.ok && drift.message).toContain('read_file with offset 3 and limit 2');
    const spaces = applyEdits('a.js', FILE, [{ oldText: 'if (typeof mix === "string") {\n  str += mix;', newText: 'x' }]);
    expect(!spaces.ok && spaces.message).toContain('It differs only in indentation or spaces at line ends.');
  });

  it('matches LF text in a CRLF file and keeps its line ends', () => {
    const crlf = FILE.replaceAll('\n', '\r\n');
    const r = applyEdits('a.js', crlf, [{ oldText: '  }\n  return str;', newText: '  }\n  return str || null;' }]);
    expect(r.ok && r.text).toBe(crlf.replace('return str;', 'return str || null;'));
  });

  it('refuses an empty oldText and a no-op edit with how to do it instead', () => {
    expect(applyEdits('a.js', FILE, [{ oldText: '', newText: 'x' }])).toMatchObject({ ok: false, message: expect.stringContaining('oldText is empty; copy the lines next to where the new text goes') });
    expect(applyEdits('a.js', FILE, [{ oldText: 'return str;', newText: 'return str;' }])).toMatchObject({ ok: false, message: expect.stringContaining('changes nothing') });
  });
});

describe('closest', () => {
  it('says so when nothing is close', () => {
    expect(closest('alpha\nbeta\n', 'completely different words here')).toMatch(/^No part of the file is close to it/);
  });
});
