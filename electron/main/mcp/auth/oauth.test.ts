import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthTestServer } from '../../../../tests/fixtures/mcp/oauth-server';
import { EventBus } from '../../api/events';
import { Paths } from '../../paths/index';
import { Redactor, SecretStore } from '../../secrets/index';
import { McpHub } from '../hub';
import { oauthSecretName } from './store';

// The real keychain (a private gnome-keyring under dbus-run-session in `npm test`) and a real
// OAuth-protected MCP server made of the SDK's authorization-server router and bearer middleware.
const server = `oauth_test_${process.pid}_${Date.now()}`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/** A browser whose user approves at once: follows the authorization page's redirect to Erasmus's loopback. */
async function approve(page: string): Promise<void> {
  const answer = await fetch(page, { redirect: 'manual' });
  const back = answer.headers.get('location');
  if (!back) throw new Error(`authorization page answered ${answer.status}: ${await answer.text()}`);
  await fetch(back);
}

describe('OAuth sign-in to a protected remote MCP server', () => {
  const secrets = new SecretStore(new Redactor());
  const homes: string[] = [];
  const servers: OAuthTestServer[] = [];
  afterAll(async () => {
    await secrets.delete(oauthSecretName(server)).catch(() => undefined);
    await secrets.delete(oauthSecretName(`${server}_b`)).catch(() => undefined);
    await secrets.delete(oauthSecretName(`${server}_c`)).catch(() => undefined);
    await Promise.all(servers.map((s) => s.close()));
    homes.forEach((h) => rmSync(h, { recursive: true, force: true }));
  });

  async function setup(name: string, open: (server: string, url: string) => Promise<void>) {
    const mcp = await startOAuthServer();
    servers.push(mcp);
    const home = mkdtempSync(join(tmpdir(), 'erasmus-oauth-'));
    homes.push(home);
    const paths = new Paths(home);
    const configFile = join(home, 'mcp.json');
    writeFileSync(configFile, JSON.stringify({ mcpServers: { [name]: { type: 'http', url: mcp.url } } }));
    const bus = new EventBus();
    const hub = new McpHub({ paths, bus, secrets, openAuthorization: open });
    return { mcp, home, hub, bus, configFile };
  }

  it('signs in through the browser, calls a tool, refreshes an expired token, and keeps the tokens only in the keychain', async () => {
    const pages: string[] = [];
    const { mcp, home, hub, configFile } = await setup(server, async (_s, page) => {
      pages.push(page);
      await approve(page);
    });
    try {
      await hub.start({ configFile, watch: false });
      const status = await hub.whenReady(server, 10_000);
      expect(status.state).toBe('ready');
      expect(pages).toHaveLength(1);
      expect(new URL(pages[0]!).searchParams.get('code_challenge_method')).toBe('S256');
      expect(mcp.counts).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });

      const first = await hub.callTool(server, 'whoami', {});
      expect(first.content).toEqual([{ type: 'text', text: expect.stringMatching(/^signed in as client /) }]);

      // The access token expires: the next call refreshes it with the refresh token, with no new browser step.
      mcp.expireAccessTokens();
      const second = await hub.callTool(server, 'whoami', {});
      expect(second.isError).toBeFalsy();
      expect(mcp.counts.refreshes).toBe(1);
      expect(mcp.counts.authorizations).toBe(1);
      expect(pages).toHaveLength(1);

      // Every token sits in the keychain entry, and none in any file under ERASMUS_HOME.
      const kept = JSON.parse((await secrets.get(oauthSecretName(server)))!) as { tokens: { access_token: string; refresh_token: string } };
      expect(mcp.issued).toContain(kept.tokens.access_token);
      expect(mcp.issued).toContain(kept.tokens.refresh_token);
      expect(mcp.counts.refreshes).toBe(1);
      for (const file of filesUnder(home)) {
        const text = readFileSync(file, 'utf8');
        for (const t of mcp.issued) expect(text.includes(t), `${file} holds a token`).toBe(false);
      }
    } finally {
      await hub.dispose();
    }

    // A new hub (Erasmus restarted) connects with the kept tokens: no browser step.
    const again = new McpHub({ paths: new Paths(home), bus: new EventBus(), secrets, openAuthorization: async (_s, p) => void pages.push(p) });
    try {
      await again.start({ configFile, watch: false });
      expect((await again.whenReady(server, 10_000)).state).toBe('ready');
      expect(pages).toHaveLength(1);
    } finally {
      await again.dispose();
    }
  }, 60_000);

  it('a refused sign-in says why and waits for the user instead of reopening the page', async () => {
    const pages: string[] = [];
    const { hub, configFile } = await setup(`${server}_b`, async (_s, page) => {
      pages.push(page);
      // The user clicks "Deny": the authorization server sends the browser back with an error.
      const u = new URL(page);
      const back = new URL(u.searchParams.get('redirect_uri')!);
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'the user denied access');
      back.searchParams.set('state', u.searchParams.get('state')!);
      await fetch(back);
    });
    try {
      await hub.start({ configFile, watch: false });
      const status = hub.server(`${server}_b`)!;
      expect(status.state).toBe('errored');
      expect(status.error).toMatch(/needs sign-in: sign-in failed: the authorization server refused: access_denied \(the user denied access\)/);
      await new Promise((r) => setTimeout(r, 1500));
      expect(pages).toHaveLength(1);
    } finally {
      await hub.dispose();
    }
  }, 30_000);

  it('with nobody to show the page to, the sign-in is refused at once, saying so', async () => {
    const { hub, configFile } = await setup(`${server}_c`, async () => {
      throw new Error('no terminal to show the sign-in link on');
    });
    try {
      const t0 = Date.now();
      await hub.start({ configFile, watch: false });
      const status = hub.server(`${server}_c`)!;
      expect(status.state).toBe('errored');
      expect(status.error).toMatch(/needs sign-in: sign-in was not completed: no terminal to show the sign-in link on/);
      expect(Date.now() - t0).toBeLessThan(10_000);
    } finally {
      await hub.dispose();
    }
  }, 30_000);
});
