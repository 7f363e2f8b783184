import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from '../support/browser';
import { startScriptedLlm, type ScriptedLlm, type ScriptTurn } from '../fixtures/scripted-llm/index';
import { startServe, type ServeHandle } from '../support/serve';
export { step } from './workflow-helpers';

const ROOT = resolve(__dirname, '../..');
export const ARTIFACTS = join(ROOT, 'tests', 'e2e', 'artifacts');
const FS_SERVER = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

export interface UiWorld {
  root: string;
  project: string;
  llm: ScriptedLlm;
  serve: ServeHandle;
  cleanup(): Promise<void>;
}

/**
 * A copy of the sample project in a fresh git repository, the scripted model as config.yaml's default
 * provider, the real filesystem MCP server in mcp/config.json, and `erasmus serve` on that ERASMUS_HOME.
 */
export async function uiWorld(script: (project: string) => ScriptTurn[], env: Record<string, string> = {}): Promise<UiWorld> {
  const root = await mkdtemp(join(tmpdir(), 'erasmus-ui-'));
  const home = join(root, 'home');
  const project = join(root, 'adder');
  await cp(join(ROOT, 'tests/fixtures/projects/adder'), project, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: project, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  const llm = await startScriptedLlm(script(project));
  await mkdir(join(home, 'mcp'), { recursive: true });
  await writeFile(join(home, 'mcp', 'config.json'), JSON.stringify({ mcpServers: { filesystem: { command: process.execPath, args: [FS_SERVER, project] } } }, null, 2));
  await writeFile(
    join(home, 'config.yaml'),
    `defaultProvider: scripted\nproviders:\n  - id: scripted\n    kind: openai-compatible\n    model: scripted\n    baseUrl: ${llm.baseUrl}\n    nativeTools: true\n`,
  );
  let serve: ServeHandle;
  try {
    serve = await startServe({ ERASMUS_HOME: home, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', ...env });
  } catch (err) {
    await llm.close();
    throw err;
  }
  return {
    root,
    project,
    llm,
    serve,
    async cleanup() {
      await serve.stop();
      await llm.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * Switches to a view with its Alt+digit shortcut and waits until the app shows it. Pressed once: the
 * bounce back to Project right after a project opened (a late `project.open` answer) is fixed in App.
 */
export async function showView(page: Page, key: `Alt+${number}`, view: string): Promise<void> {
  await page.keyboard.press(key);
  await page.locator(`[data-testid="app-shell"][data-view="${view}"]`).waitFor({ timeout: 10_000 });
}

/** Opens a project folder by path on the welcome view and waits for its facts. */
export async function openProject(page: Page, project: string): Promise<void> {
  await page.getByTestId('project-path').fill(project);
  await page.getByTestId('open-path').click();
  await page.getByTestId('project-facts').waitFor();
}

/**
 * A describe block's UI world (uiWorld) and Chromium: made in beforeAll (the artifacts folder too),
 * closed in afterAll. Read `world` and `browser` inside the tests.
 */
export function useUiWorld(script: (project: string) => ScriptTurn[]): { readonly world: UiWorld; readonly browser: Browser } {
  let world: UiWorld | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    world = await uiWorld(script);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.cleanup();
  });
  return {
    get world() {
      return world!;
    },
    get browser() {
      return browser!;
    },
  };
}

export interface WatchedPage {
  page: Page;
  errors: string[];
  notifications(): Promise<Array<{ title: string; body?: string }>>;
  shot(name: string): Promise<void>;
}

/** The page's console errors and uncaught exceptions, as they come. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** A page that records console errors and every system notification the app raises. */
export async function openApp(browser: Browser, url: string): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['notifications'], { origin: new URL(url).origin });
  // Records every `new Notification(title, { body })` the page makes, then lets the real one show.
  await context.addInitScript(() => {
    type Ctor = new (title: string, options?: { body?: string }) => object;
    const w = globalThis as unknown as { __notifications: Array<{ title: string; body?: string }>; Notification: Ctor };
    w.__notifications = [];
    w.Notification = new Proxy(w.Notification, {
      construct(target, args: [string, { body?: string }?]) {
        w.__notifications.push({ title: args[0], body: args[1]?.body });
        return Reflect.construct(target, args) as object;
      },
    });
  });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  return {
    page,
    errors,
    notifications: () => page.evaluate(() => (globalThis as unknown as { __notifications: Array<{ title: string; body?: string }> }).__notifications),
    shot: async (name) => {
      await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
    },
  };
}

