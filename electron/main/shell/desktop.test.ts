import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// A mocked `electron`: just enough of BrowserWindow, ipcMain, Tray, Menu, Notification and dialog
// to check the shell's glue. The real core runs underneath.
const h = vi.hoisted(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EventEmitter } = require('node:events') as typeof import('node:events');
  const state = {
    windows: [] as FakeWindow[],
    notifications: [] as Array<{ title: string; body: string }>,
    trayMenus: [] as Array<Array<{ label?: string; enabled?: boolean; click?: () => void; type?: string }>>,
    dialogResult: { canceled: false, filePaths: ['/tmp/chosen'] },
    headerHook: undefined as undefined | ((d: { responseHeaders: Record<string, string[]> }, cb: (r: unknown) => void) => void),
    permissionHook: undefined as undefined | ((wc: unknown, p: string, cb: (ok: boolean) => void) => void),
  };
  const ipcMain = new EventEmitter();
  class FakeContents extends EventEmitter {
    mainFrame = { url: 'file:///app/index.html' };
    sent: Array<[string, string]> = [];
    windowOpenHandler?: (d: { url: string }) => { action: string };
    session = {
      webRequest: { onHeadersReceived: (fn: typeof state.headerHook) => (state.headerHook = fn) },
      setPermissionRequestHandler: (fn: typeof state.permissionHook) => (state.permissionHook = fn),
    };
    send(channel: string, message: string) {
      this.sent.push([channel, message]);
    }
    isDestroyed() {
      return false;
    }
    setWindowOpenHandler(fn: (d: { url: string }) => { action: string }) {
      this.windowOpenHandler = fn;
    }
  }
  class FakeWindow extends EventEmitter {
    webContents = new FakeContents();
    shown = false;
    constructor(readonly options: { webPreferences: Record<string, unknown> }) {
      super();
      state.windows.push(this);
    }
    loadFile = vi.fn(async () => undefined);
    isDestroyed = () => false;
    isMinimized = () => false;
    restore() {}
    show() {
      this.shown = true;
    }
    focus() {}
  }
  class FakeApp extends EventEmitter {
    whenReady = async () => undefined;
    quit = vi.fn(() => {
      const e = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
      this.emit('before-quit', e);
    });
  }
  return { state, ipcMain, FakeWindow, FakeApp };
});

vi.mock('electron', () => ({
  BrowserWindow: h.FakeWindow,
  ipcMain: h.ipcMain,
  dialog: { showOpenDialog: vi.fn(async () => h.state.dialogResult) },
  Notification: class {
    static isSupported() {
      return true;
    }
    constructor(private readonly o: { title: string; body: string }) {}
    on() {}
    show() {
      h.state.notifications.push({ title: this.o.title, body: this.o.body });
    }
  },
  Tray: class {
    setToolTip() {}
    on() {}
    destroy() {}
    setContextMenu(menu: { items: Array<{ label?: string }> }) {
      h.state.trayMenus.push(menu.items);
    }
  },
  Menu: { buildFromTemplate: (items: unknown[]) => ({ items }) },
  nativeImage: { createFromPath: () => ({}) },
}));

const { startDesktop } = await import('./desktop');
const { RPC_CHANNEL } = await import('./ipc-pipe');

async function start() {
  process.env.ERASMUS_HOME = mkdtempSync(join(tmpdir(), 'erasmus-shell-'));
  const app = new h.FakeApp();
  const desktop = await startDesktop(app as never, { preload: '/app/preload.cjs', indexHtml: '/app/index.html', trayIcon: '/app/tray.png' });
  const win = h.state.windows.at(-1)!;
  return { app, desktop, win };
}

const flush = () => new Promise((r) => setTimeout(r, 10));

describe('desktop shell (mocked electron)', () => {
  beforeEach(() => {
    h.state.windows.length = 0;
    h.state.notifications.length = 0;
    h.state.trayMenus.length = 0;
    h.ipcMain.removeAllListeners();
  });

  it('opens a sandboxed, isolated window without Node', async () => {
    const { win, desktop } = await start();
    const p = win.options.webPreferences;
    expect(p).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false, preload: '/app/preload.cjs' });
    expect(win.loadFile).toHaveBeenCalledWith('/app/index.html');
    await desktop.dispose();
  });

  it('denies window.open, foreign navigation and permissions, and sends a strict CSP', async () => {
    const { win, desktop } = await start();
    expect(win.webContents.windowOpenHandler!({ url: 'https://evil.example' })).toEqual({ action: 'deny' });
    const nav = { prevented: false, preventDefault() { this.prevented = true; } };
    win.webContents.emit('will-navigate', nav, 'https://evil.example/');
    expect(nav.prevented).toBe(true);
    const ok = { prevented: false, preventDefault() { this.prevented = true; } };
    win.webContents.emit('will-navigate', ok, 'file:///app/index.html');
    expect(ok.prevented).toBe(false);
    let headers: Record<string, string[]> = {};
    h.state.headerHook!({ responseHeaders: {} }, (r) => (headers = (r as { responseHeaders: Record<string, string[]> }).responseHeaders));
    expect(headers['Content-Security-Policy']![0]).toMatch(/script-src 'self'/);
    expect(headers['Content-Security-Policy']![0]).not.toMatch(/unsafe-eval/);
    let allowed: boolean | undefined;
    h.state.permissionHook!({}, 'media', (v) => (allowed = v));
    expect(allowed).toBe(false);
    await desktop.dispose();
  });

  it('carries contract messages over IPC from the window and drops other senders', async () => {
    const { win, desktop } = await start();
    const req = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'app.info', params: {} });
    h.ipcMain.emit(RPC_CHANNEL, { sender: win.webContents, senderFrame: win.webContents.mainFrame }, req);
    await flush();
    const reply = JSON.parse(win.webContents.sent.at(-1)![1]);
    expect(reply).toMatchObject({ id: 7, result: { face: 'desktop' } });
    const before = win.webContents.sent.length;
    h.ipcMain.emit(RPC_CHANNEL, { sender: new EventEmitter(), senderFrame: {} }, req);
    h.ipcMain.emit(RPC_CHANNEL, { sender: win.webContents, senderFrame: { url: 'https://iframe.example' } }, req);
    await flush();
    expect(win.webContents.sent.length).toBe(before);
    await desktop.dispose();
  });

  it('turns app.notify events into system notifications and shows a tray menu', async () => {
    const { desktop } = await start();
    desktop.core.bus.emit('app.notify', { title: 'Task completed', body: 'component parser' });
    expect(h.state.notifications).toEqual([{ title: 'Task completed', body: 'component parser' }]);
    desktop.tray.setCurrentTask('development · parser');
    const labels = h.state.trayMenus.at(-1)!.map((i) => i.label);
    expect(labels).toContain('Show Erasmus');
    expect(labels).toContain('Current task: development · parser');
    expect(labels).toContain('Quit');
    desktop.core.bus.emit('workflow.status', { runId: 'r1', projectDir: '/work/demo', status: 'RUNNING', state: 'parser.testing' });
    expect(h.state.trayMenus.at(-1)!.map((i) => i.label)).toContain('Current task: demo: parser.testing');
    desktop.core.bus.emit('workflow.status', { runId: 'r1', projectDir: '/work/demo', status: 'COMPLETED' });
    expect(h.state.trayMenus.at(-1)!.map((i) => i.label)).toContain('No task running');
    await desktop.dispose();
  });

  it('answers project.chooseFolder with the native dialog', async () => {
    const { win, desktop } = await start();
    h.ipcMain.emit(RPC_CHANNEL, { sender: win.webContents, senderFrame: win.webContents.mainFrame }, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'project.chooseFolder', params: {} }));
    await flush();
    expect(JSON.parse(win.webContents.sent.at(-1)![1]).result).toEqual({ path: '/tmp/chosen', supported: true });
    await desktop.dispose();
  });

  it('disposes the core before quitting', async () => {
    const { app, desktop } = await start();
    const disposed = vi.spyOn(desktop.core, 'dispose');
    app.quit();
    await flush();
    expect(disposed).toHaveBeenCalled();
    expect(desktop.core.disposables.isDisposed).toBe(true);
  });
});
