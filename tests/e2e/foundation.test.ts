import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useServeAndBrowser } from '../support/browser';
import { watchErrors } from './ui-helpers';

const artifacts = join(process.cwd(), 'tests', 'e2e', 'artifacts');

function tryConnect(url: string, headers: Record<string, string> = {}): Promise<{ opened: boolean; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      ws.close();
      resolve({ opened: true });
    });
    ws.on('unexpected-response', (_req, res) => resolve({ opened: false, status: res.statusCode }));
    ws.on('error', () => resolve({ opened: false }));
  });
}

describe('browser mode: erasmus serve + Chromium', () => {
  const world = useServeAndBrowser(artifacts);

  it('renders the app shell, round-trips a request over the WebSocket, and saves a screenshot', async () => {
    const page = await world.browser.newPage();
    const errors = watchErrors(page);
    await page.goto(world.serve.url);
    await page.getByTestId('app-shell').waitFor();
    await expect.poll(() => page.getByTestId('status-bar').textContent()).toContain('browser');
    const pong = await page.evaluate(async () => {
      const client = (globalThis as unknown as { __erasmus: { request(m: string, p: unknown): Promise<{ message: string }> } }).__erasmus;
      return client.request('app.ping', { message: 'over the socket' });
    });
    expect(pong.message).toBe('over the socket');
    await page.screenshot({ path: join(artifacts, 'foundation-shell.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('fetches under 300 kB of gzipped JavaScript until the first view is idle; the terminal chunk comes with the Terminal view', async () => {
    const page = await world.browser.newPage();
    const scripts: Response[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(r);
    });
    await page.goto(world.serve.url);
    await page.getByTestId('welcome').waitFor();
    await page.waitForLoadState('networkidle');
    const sizes = await Promise.all(scripts.map(async (r) => ({ url: new URL(r.url()).pathname, gz: gzipSync(await r.body()).length })));
    const total = sizes.reduce((n, s) => n + s.gz, 0);
    console.log(`bundle (Chromium): first view fetched ${(total / 1024).toFixed(1)} kB of gzipped JS in ${sizes.length} files (${sizes.map((s) => `${s.url} ${(s.gz / 1024).toFixed(1)} kB`).join(', ')}); goal < 300 kB`);
    expect(sizes.length).toBeGreaterThan(0);
    expect(total).toBeLessThan(300 * 1024);
    const before = scripts.length;
    await page.keyboard.press('Alt+4');
    await page.getByRole('button', { name: /New shell/ }).waitFor();
    expect(scripts.length).toBeGreaterThan(before);
    await page.close();
  });

  it('refuses a WebSocket without the token, with a wrong token, or from a foreign Origin or Host', async () => {
    const base = world.serve.wsUrl.split('?')[0]!;
    expect((await tryConnect(world.serve.wsUrl)).opened).toBe(true);
    expect(await tryConnect(base)).toMatchObject({ opened: false, status: 401 });
    expect(await tryConnect(`${base}?token=wrong`)).toMatchObject({ opened: false, status: 401 });
    expect(await tryConnect(world.serve.wsUrl, { Origin: 'https://evil.example' })).toMatchObject({ opened: false, status: 403 });
    expect(await tryConnect(world.serve.wsUrl, { Host: `evil.example:${world.serve.port}` })).toMatchObject({ opened: false, status: 403 });
  });

  it('answers malformed messages on the socket with JSON-RPC errors and keeps serving', async () => {
    const ws = new WebSocket(world.serve.wsUrl);
    await new Promise((r) => ws.once('open', r));
    const replies: unknown[] = [];
    ws.on('message', (d) => replies.push(JSON.parse(String(d))));
    ws.send('{not json');
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'no.such' }));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'app.ping', params: { message: 3 } }));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'app.ping', params: {} }));
    await expect.poll(() => replies.length).toBe(4);
    const codes = replies.map((r) => (r as { error?: { code: number } }).error?.code ?? 'ok');
    expect(codes.sort()).toEqual([-32602, -32601, -32700, 'ok'].sort());
    ws.close();
  });

  it('serves nothing to a foreign Host header (DNS rebinding)', async () => {
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: world.serve.port, path: '/', headers: { Host: host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await status('evil.example')).toBe(403);
    expect(await status(`127.0.0.1:${world.serve.port}`)).toBe(200);
  });
});
