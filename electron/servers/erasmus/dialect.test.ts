import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { normalizeMessage, paramsProblem } from './dialect';

const req = (method: string, params?: unknown) => ({ jsonrpc: '2.0', id: 1, method, ...(params !== undefined ? { params } : {}) }) as JSONRPCMessage;

describe('old dialect', () => {
  it('rewrites tool_name/args and method aliases, and leaves the current dialect untouched', () => {
    expect(normalizeMessage(req('tools/call', { tool_name: 'x', args: { a: 1 } }))).toEqual(req('tools/call', { name: 'x', arguments: { a: 1 } }));
    expect(normalizeMessage(req('tools/call', { tool_name: 'x', parameters: { a: 1 } }))).toEqual(req('tools/call', { name: 'x', arguments: { a: 1 } }));
    expect(normalizeMessage(req('prompt/list'))).toEqual(req('prompts/list'));
    expect(normalizeMessage(req('prompt/get', { name: 'design' }))).toEqual(req('prompts/get', { name: 'design' }));
    const current = req('tools/call', { name: 'y', arguments: {} });
    expect(normalizeMessage(current)).toBe(current);
    // name wins when both are given; a notification or response passes through.
    expect(normalizeMessage(req('tools/call', { name: 'y', tool_name: 'x' }))).toEqual(req('tools/call', { name: 'y', tool_name: 'x' }));
    const note = { jsonrpc: '2.0', method: 'prompt/list' } as JSONRPCMessage;
    expect(normalizeMessage(note)).toEqual({ jsonrpc: '2.0', method: 'prompts/list' });
    const response = { jsonrpc: '2.0', id: 3, result: {} } as JSONRPCMessage;
    expect(normalizeMessage(response)).toBe(response);
  });

  it('finds malformed params of standard methods (so they are -32602, not -32603)', () => {
    expect(paramsProblem(req('tools/call', { arguments: {} }))).toMatch(/name/);
    expect(paramsProblem(req('resources/read', {}))).toMatch(/uri/);
    expect(paramsProblem(req('tools/call', { name: 'x' }))).toBeUndefined();
    expect(paramsProblem(req('prompt/call', {}))).toBeUndefined();
  });
});
