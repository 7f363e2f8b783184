import { describe, expect, it } from 'vitest';
import { argumentProblem, parameterLine } from './arg-check';
import type { AgentTool } from './tools';

const editSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    oldText: { type: 'string' },
    newText: { type: 'string' },
    edits: { type: 'array', items: { type: 'object' } },
  },
  required: ['path', 'oldText', 'newText'],
  $schema: 'http://json-schema.org/draft-07/schema#',
};
const tool = (inputSchema: Record<string, unknown>): AgentTool => ({ name: 'files__edit_file', server: 'files', tool: 'edit_file', toolset: 'files', description: 'edit', inputSchema });

describe('argumentProblem', () => {
  it('names the tool as the model called it, the unknown and missing parameters, and the parameters it takes', () => {
    const msg = argumentProblem(tool(editSchema), { path: 'a.py', old_string: 'x', new_string: 'y' });
    expect(msg).toBe(
      'Not run: the arguments of files__edit_file do not match its parameters (unknown parameters old_string, new_string; missing oldText, newText). ' +
        'Its parameters: path (string, required), oldText (string, required), newText (string, required), edits (array). Call files__edit_file again with these names.',
    );
  });

  it('says what is wrong with a value of the wrong type', () => {
    const msg = argumentProblem(tool(editSchema), { path: 3, oldText: 'x', newText: 'y' });
    expect(msg).toContain('path must be string');
  });

  it('lets matching arguments through', () => {
    expect(argumentProblem(tool(editSchema), { path: 'a', oldText: 'x', newText: 'y' })).toBeUndefined();
  });

  it('leaves a schema it cannot compile to the server', () => {
    expect(argumentProblem(tool({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }), { a: 1 })).toBeUndefined();
  });

  it('describes a tool without parameters', () => {
    expect(parameterLine({ type: 'object' })).toBe('none');
  });
});
