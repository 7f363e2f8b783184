import { rmSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempHome } from '../../../tests/fixtures/mcp/servers';
import type { EventPayload } from '../../contract/index';
import { EventBus } from '../api/events';
import { Paths } from '../paths/index';
import { McpHub } from './hub';
import type { ElicitationRequest } from './types';

/**
 * An SDK server whose `pay` tool needs the user on a page first: it answers -32042
 * (URLElicitationRequiredError) until the page is "visited", which sends notifications/elicitation/complete.
 */
function payServer() {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  const paid = new Set<string>();
  let n = 0;
  const visit = async (elicitationId: string) => {
    paid.add(elicitationId);
    await server.server.createElicitationCompletionNotifier(elicitationId)();
  };
  server.registerTool('pay', { description: 'pays' }, async () => {
    if (paid.size === 0) {
      const elicitationId = `pay-${++n}`;
      throw new UrlElicitationRequiredError([{ mode: 'url', elicitationId, url: `https://shop.example/pay/${elicitationId}`, message: 'Confirm the payment on the shop page' }]);
    }
    return { content: [{ type: 'text', text: 'paid, thank you' }] };
  });
  return { server, visit, reset: () => paid.clear() };
}

describe('URL-mode elicitation through the hub (-32042 and notifications/elicitation/complete)', () => {
  const bus = new EventBus();
  const home = tempHome();
  const hub = new McpHub({ paths: new Paths(home), bus });
  const shop = payServer();
  const asked: ElicitationRequest[] = [];

  beforeAll(async () => {
    await hub.start({ watch: false });
    await hub.addInProcessServer('shop', shop.server);
  });
  afterAll(async () => {
    await hub.dispose();
    rmSync(home, { recursive: true, force: true });
  });
  beforeEach(() => {
    asked.length = 0;
    shop.reset();
    hub.urlElicitationTimeoutMs = 10_000;
  });

  it('shows the link, waits for the completion, and calls again', async () => {
    const completed: EventPayload<'mcp.elicitation.complete'>[] = [];
    const off = bus.onEvent('mcp.elicitation.complete', (e) => completed.push(e));
    hub.setElicitationHandler(async (req) => {
      asked.push(req);
      // The user opens the page; the server hears about it a little later.
      setTimeout(() => void shop.visit((req.params as { elicitationId: string }).elicitationId), 50);
      return { action: 'accept' };
    });
    const r = await hub.callTool('shop', 'pay', {});
    off();
    expect(r.isError).toBeFalsy();
    expect(JSON.stringify(r.content)).toContain('paid, thank you');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ server: 'shop', params: { mode: 'url', url: 'https://shop.example/pay/pay-1', message: 'Confirm the payment on the shop page', elicitationId: 'pay-1' } });
    expect(completed).toEqual([{ server: 'shop', elicitationId: 'pay-1' }]);
  });

  it('a declined page fails the call, naming the page', async () => {
    hub.setElicitationHandler(async () => ({ action: 'decline' }));
    await expect(hub.callTool('shop', 'pay', {})).rejects.toThrow(/MCP server "shop" needs you to open a page first, and the request was declined: Confirm the payment on the shop page \(https:\/\/shop\.example\/pay\/pay-\d+\)/);
  });

  it('with nobody to ask, the call fails at once with the link', async () => {
    hub.setElicitationHandler(undefined);
    await expect(hub.callTool('shop', 'pay', {})).rejects.toThrow(/nobody could be asked here, so open it yourself and call again/);
  });

  it('an answer that nobody could give (--yes, no terminal) keeps its reason', async () => {
    const { acceptWithDefaults } = await import('../agent/approval-path');
    hub.setElicitationHandler(async (req) => acceptWithDefaults(req));
    await expect(hub.callTool('shop', 'pay', {})).rejects.toThrow(/needs you to open a page first: Confirm the payment on the shop page \(https:\/\/shop\.example\/pay\/pay-\d+\); nobody could be asked \(the server asks the user to open https:\/\/shop\.example\/pay\/pay-\d+, which --yes cannot do\)/);
  });

  it('a page never completed ends the wait with a reason', async () => {
    hub.urlElicitationTimeoutMs = 300;
    hub.setElicitationHandler(async () => ({ action: 'accept' }));
    await expect(hub.callTool('shop', 'pay', {})).rejects.toThrow(/did not report the page completed/);
  });

  it("the caller's cancel ends the wait", async () => {
    const ac = new AbortController();
    hub.setElicitationHandler(async () => {
      setTimeout(() => ac.abort(new Error('user pressed stop')), 50);
      return { action: 'accept' };
    });
    await expect(hub.callTool('shop', 'pay', {}, { signal: ac.signal })).rejects.toThrow(/cancelled/);
  });
});
