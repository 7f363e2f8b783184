import { describe, expect, it } from 'vitest';
import { createToolCallParser } from './parser';
import { correctiveMessage, exampleBlock, formatTools, formatToolUseSection, usageBlock } from './tool-use-section';
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
  const section = formatToolUseSection(tools, { exampleToolset: 'files' });

  it('states the protocol once, with open_toolset in its XML form and the one value rule', () => {
    expect(section.match(/# Tool use/g)).toHaveLength(1);
    expect(section).toContain('<open_toolset>\n<name>files</name>\n</open_toolset>');
    expect(section).toMatch(/file contents are taken as written[^\n]*end with one line break, one line or many/);
    expect(section).toContain('!git status');
    expect(formatToolUseSection(tools, { shell: false })).not.toContain('!git status');
    // No placeholder names: no tool_name, parameter1_name or "value" stand-ins.
    expect(section).not.toMatch(/tool_name|parameter\d?_name|\bvalue1\b/);
  });

  it('documents every tool: description, parameters with required/optional and type, an example with realistic values', () => {
    expect(section).toContain('## read_text_file\nRead the complete contents of a file from the file system as text. Handles various text encodings.');
    expect(section).toContain('- path (required, string)');
    expect(section).toContain('- head (optional, number): If provided, returns only the first N lines of the file');
    expect(section).toContain('- entities (required, array of object as JSON)');
    expect(section).toContain('- mode (optional, one of "merge", "replace")');
    expect(section).toContain('Example:\n<read_text_file>\n<path>README.md</path>\n</read_text_file>');
    expect(section).toContain('## list_allowed_directories\nList directories.\nParameters: none.');
    // create_entities needs an entity name, which nothing in its schema suggests: no example rather than a placeholder.
    expect(exampleBlock('create_entities', tools.get('create_entities') as ToolSpec)).toBeUndefined();
    // Optional parameters with only a default are not shown in examples.
    expect(section).not.toContain('<dry_run>');
  });

  it('describes optional parameters that most tools share once', () => {
    const common = { purpose: { type: 'string', description: 'Why this runs.' }, timeout_seconds: { type: 'integer' } };
    const many: ToolMap = new Map(
      ['a_run', 'b_run', 'c_run'].map((n) => [n, { description: n, inputSchema: { type: 'object', properties: { command: { type: 'string' }, ...common }, required: ['command'] } }]),
    );
    const text = formatTools(many);
    expect(text.match(/- purpose \(optional, string\): Why this runs\./g)).toHaveLength(1);
    expect(text.match(/- command \(required, string\)/g)).toHaveLength(3);
  });

  it('gives examples that the parser runs as they are', () => {
    for (const [name, spec] of tools) {
      const block = exampleBlock(name, spec);
      if (!block) continue;
      const p = createToolCallParser({ tools });
      const events = [...p.push(block), ...p.end()];
      expect(events, name).toMatchObject([{ type: 'tool_call', name }]);
    }
  });

  it('parsed as a message, the section gives exactly its illustrations: the open_toolset example and each example call', () => {
    const withOpen: ToolMap = new Map([...tools, ['open_toolset', { description: 'open', inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }]]);
    const p = createToolCallParser({ tools: withOpen });
    const calls = [...p.push(section), ...p.end()].filter((e) => e.type !== 'text');
    expect(calls.map((e) => ('name' in e ? e.name : e.type))).toEqual(['open_toolset', 'read_text_file']);
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
