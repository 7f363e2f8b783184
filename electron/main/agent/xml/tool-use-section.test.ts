import { describe, expect, it } from 'vitest';
import { createToolCallParser } from './parser';
import { correctiveMessage, exampleBlock, formatToolUseSection, usageBlock } from './tool-use-section';
import type { ToolMap, ToolSpec } from './types';

// Shapes as MCP servers publish them (server-filesystem's read_text_file, server-memory's create_entities).
const tools: ToolMap = new Map<string, ToolSpec>([
  [
    'read_text_file',
    {
      description: 'Read the complete contents of a file from the file system as text.\nHandles various text encodings.',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' }, head: { type: 'number', description: 'If provided, returns only the first N lines of the file' } },
        required: ['path'],
        additionalProperties: false,
      },
    },
  ],
  [
    'create_entities',
    {
      description: 'Create multiple new entities in the knowledge graph',
      inputSchema: {
        type: 'object',
        properties: {
          entities: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
          dry_run: { type: 'boolean', default: false },
          mode: { type: 'string', enum: ['merge', 'replace'] },
        },
        required: ['entities'],
      },
    },
  ],
  ['list_allowed_directories', { description: 'List directories.', inputSchema: { type: 'object', properties: {} } }],
]);

describe('formatToolUseSection', () => {
  const section = formatToolUseSection(tools);

  it('documents every tool: description, parameters with required/optional and type, usage, example', () => {
    expect(section).toContain('# Tool use');
    expect(section).toContain('## read_text_file\n\nDescription: Read the complete contents of a file from the file system as text. Handles various text encodings.');
    expect(section).toContain('- path: (required, string)');
    expect(section).toContain('- head: (optional, number) If provided, returns only the first N lines of the file');
    expect(section).toContain('- entities: (required, array of object as JSON)');
    expect(section).toContain('- mode: (optional, one of "merge", "replace")');
    expect(section).toContain('Usage:\n\n<read_text_file>\n<path>path (string)</path>\n<head>If provided, returns only the first N lines of the file (optional)</head>\n</read_text_file>');
    expect(section).toContain('Example: using read_text_file with path\n\n<read_text_file>\n<path>src/main.ts</path>\n</read_text_file>');
    expect(section).toContain('## list_allowed_directories');
    expect(section).toContain('- (none)');
  });

  it('teaches the depends chain, the JSON form and shell lines (unless shell is off)', () => {
    expect(section).toContain('{{cfg.result}}');
    expect(section).toContain('"tool": "tool_name", "arguments"');
    expect(section).toContain('!git status');
    expect(formatToolUseSection(tools, { shell: false })).not.toContain('!git status');
  });

  it('gives examples that the parser runs as they are', () => {
    for (const [name, spec] of tools) {
      const p = createToolCallParser({ tools });
      const events = [...p.push(exampleBlock(name, spec)), ...p.end()];
      expect(events, name).toMatchObject([{ type: 'tool_call', name }]);
    }
    const p = createToolCallParser({ tools });
    const [call] = [...p.push(exampleBlock('create_entities', tools.get('create_entities') as ToolSpec)), ...p.end()];
    expect(call).toMatchObject({ args: { entities: [{ name: 'example' }], dry_run: false, mode: 'merge' } });
  });

  it('parsed as a message, the section gives exactly its illustrations: its prose and fences hide nothing', () => {
    const p = createToolCallParser({ tools });
    const calls = [...p.push(section), ...p.end()].filter((e) => e.type !== 'text');
    // First the two illustrations of the format (the XML one and the JSON one): they name the unknown
    // tool_name, so an echo of them gets a corrective message. Then usage and example of every tool.
    const names = ['tool_name', 'tool_name', ...[...tools.keys()].flatMap((n) => [n, n])];
    expect(calls.map((e) => ('name' in e ? e.name : e.type))).toEqual(names);
  });
});

describe('correctiveMessage', () => {
  it('lists the tools when the tool is unknown', () => {
    expect(correctiveMessage('Unknown tool "rm".', tools)).toBe(
      'Unknown tool "rm".\nAvailable tools: read_text_file, create_entities, list_allowed_directories.\nWrite the whole call again with the fix, each parameter in its own child tag.',
    );
  });

  it("shows the tool's parameters and usage when the tool is known", () => {
    const m = correctiveMessage('Missing required parameter "path".', tools, 'read_text_file');
    expect(m).toContain('Parameters of read_text_file: path (required, string), head (optional, number). Usage:');
    expect(m).toContain(usageBlock('read_text_file', tools.get('read_text_file') as ToolSpec));
  });
});
