import { describe, expect, it } from 'vitest';
import { toolWords } from './toolWords';

describe('toolWords', () => {
  it('says what a call did in words', () => {
    expect(toolWords('open_toolset', { name: 'filesystem' })).toBe('Opened the filesystem toolset');
    expect(toolWords('runners__bash_run', { command: 'npm test' })).toBe('Ran npm test');
    expect(toolWords('filesystem__write_file', { path: '/p/a.txt', content: 'x' })).toBe('Wrote /p/a.txt');
    expect(toolWords('filesystem__edit_file', { path: '/p/a.txt', edits: [] })).toBe('Edited /p/a.txt');
    expect(toolWords('filesystem__read_multiple_files', { paths: ['/a', '/b'] })).toBe('Read 2 files');
    expect(toolWords('memory__create_entities', { entities: [] })).toBe('create entities (memory)');
  });

  it('says what a call asked, not what it did, when it did not do it (running, refused, denied, failed)', () => {
    expect(toolWords('files__edit_file', { path: 'README.md', oldText: 'a', newText: 'b' }, false)).toBe('Edit README.md');
    expect(toolWords('runners__bash_run', { command: 'npm test' }, false)).toBe('Run npm test');
    expect(toolWords('open_toolset', { name: 'files' }, false)).toBe('Open the files toolset');
  });

  it('uses the verbs the CLI uses (one map in contract/words): an append is not a write', () => {
    expect(toolWords('files__append_file', { path: 'notes.md', content: 'x' })).toBe('Appended to notes.md');
    expect(toolWords('files__append_file', { path: 'notes.md', content: 'x' }, false)).toBe('Append to notes.md');
  });
});
