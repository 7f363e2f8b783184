import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

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
    permissionCheck: undefined as undefined | ((...a: unknown[]) => boolean),
    deviceCheck: undefined as undefined | ((...a: unknown[]) => boolean),
    displayMedia: undefined as undefined | ((req: unknown, cb: (r: unknown) => void) => void),
    schemeHandlers: new Map<string, (r: Request) => Promise<Response>>(),
    privileged: [] as Array<{ scheme: string; privileges: Record<string, boolean> }>,
    privilegedBeforeReady: undefined as boolean | undefined,
    ready: false,
    packaged: false,
    menu: undefined as undefined | { items: Array<{ label?: string; role?: string; submenu?: Array<{ role?: string }> }> },
    messageBoxes: [] as Array<{ message: string; detail: string; buttons: string[] }>,
    messageBoxAnswer: 1,
    opened: [] as string[],
  };
  const sessionEvents = new EventEmitter();
  const ipcMain = new EventEmitter();
  class FakeContents extends EventEmitter {
    mainFrame = { url: 'app://erasmus/index.html' };
    sent: Array<[string, string]> = [];
    windowOpenHandler?: (d: { url: string }) => { action: string };
    session = {
      webRequest: { onHeadersReceived: (fn: typeof state.headerHook) => (state.headerHook = fn) },
      setPermissionRequestHandler: (fn: typeof state.permissionHook) => (state.permissionHook = fn),
      setPermissionCheckHandler: (fn: typeof state.permissionCheck) => (state.permissionCheck = fn),
      setDevicePermissionHandler: (fn: typeof state.deviceCheck) => (state.deviceCheck = fn),
      setDisplayMediaRequestHandler: (fn: typeof state.displayMedia) => (state.displayMedia = fn),
      setBluetoothPairingHandler: () => undefined,
      on: (event: string, fn: (...a: unknown[]) => void) => sessionEvents.on(event, fn),
      protocol: { handle: (scheme: string, fn: (r: Request) => Promise<Response>) => state.schemeHandlers.set(scheme, fn) },
    };
    devtoolsClosed = 0;
    closeDevTools() {
      this.devtoolsClosed++;
    }
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
    loadURL = vi.fn(async () => undefined);
    isDestroyed = () => false;
    isMinimized = () => false;
    restore() {}
    show() {
      this.shown = true;
    }
    focus() {}
  }
  class FakeApp extends EventEmitter {
    get isPackaged() {
      return state.packaged;
    }
    whenReady = async () => {
      state.ready = true;
    };
    quit = vi.fn(() => {
      const e = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
      this.emit('before-quit', e);
    });
  }
  return { state, ipcMain, FakeWindow, FakeApp, FakeContents, sessionEvents };
});

vi.mock('electron', () => ({
  app: {
    get isPackaged() {
      return h.state.packaged;
    },
  },
  BrowserWindow: h.FakeWindow,
  ipcMain: h.ipcMain,
  protocol: {
    registerSchemesAsPrivileged: (list: typeof h.state.privileged) => {
      h.state.privileged.push(...list);
      h.state.privilegedBeforeReady = !h.state.ready;
    },
  },
  shell: { openExternal: vi.fn(async (url: string) => void h.state.opened.push(url)) },
  dialog: {
    showOpenDialog: vi.fn(async () => h.state.dialogResult),
    showMessageBox: vi.fn(async (_win: unknown, o: { message: string; detail: string; buttons: string[] }) => {
      h.state.messageBoxes.push(o);
      return { response: h.state.messageBoxAnswer };
    }),
  },
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
  Menu: {
    buildFromTemplate: (items: unknown[]) => ({ items }),
    setApplicationMenu: (menu: typeof h.state.menu) => (h.state.menu = menu),
  },
  nativeImage: { createFromPath: () => ({}) },
}));

const { startDesktop } = await import('./desktop');
const { RPC_CHANNEL } = await import('./ipc-pipe');
const { CSP } = await import('./security');

/** What a test made in the system temp folder, removed after it. */
const made: string[] = [];
afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});
function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

async function start() {
  process.env.ERASMUS_HOME = tempFolder('erasmus-shell-');
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
    h.state.messageBoxes.length = 0;
    h.state.opened.length = 0;
    h.state.messageBoxAnswer = 1;
    h.state.ready = false;
    h.state.packaged = false;
    h.ipcMain.removeAllListeners();
    h.sessionEvents.removeAllListeners();
  });

  it('opens a sandboxed, isolated window without Node, on the privileged app:// scheme', async () => {
    const { win, desktop } = await start();
    const p = win.options.webPreferences;
    expect(p).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false, preload: '/app/preload.cjs', devTools: true });
    expect(h.state.privileged).toContainEqual({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) });
    expect(h.state.privilegedBeforeReady).toBe(true); // Electron accepts it only before ready
    expect(win.loadURL).toHaveBeenCalledWith('app://erasmus/index.html');
    expect(win.loadFile).not.toHaveBeenCalled();
    await desktop.dispose();
  });

  it('serves the renderer folder on app:// with the one CSP, and nothing outside it', async () => {
    const root = tempFolder('erasmus-renderer-');
    writeFileSync(join(root, 'index.html'), '<!doctype html><p>app</p>');
    writeFileSync(join(root, '..', `${basename(root)}-secret.txt`), 'secret');
    made.push(join(root, '..', `${basename(root)}-secret.txt`));
    process.env.ERASMUS_HOME = tempFolder('erasmus-shell-');
    const desktop = await startDesktop(new h.FakeApp() as never, { preload: '/app/preload.cjs', indexHtml: join(root, 'index.html'), trayIcon: '/app/tray.png' });
    const handle = h.state.schemeHandlers.get('app')!;
    const ok = await handle(new Request('app://erasmus/index.html'));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('<p>app</p>');
    expect(ok.headers.get('content-type')).toMatch(/text\/html/);
    expect(ok.headers.get('content-security-policy')).toBe(CSP);
    expect(ok.headers.get('x-frame-options')).toBe('DENY');
    for (const url of [`app://erasmus/..%2f${basename(root)}-secret.txt`, `app://erasmus/%2e%2e/${basename(root)}-secret.txt`, 'app://erasmus/%E0%A4%A', 'app://other/index.html', 'app://erasmus/missing.js']) {
      const r = await handle(new Request(url));
      expect(r.status, url).toBeGreaterThanOrEqual(400);
      expect(await r.text()).not.toContain('secret');
    }
    await desktop.dispose();
  });

  it('has one CSP: the same in renderer/index.html, the app scheme and erasmus serve', async () => {
    const html = readFileSync(resolve(__dirname, '../../../renderer/index.html'), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1];
    expect(meta).toBe(CSP);
    const { CSP: served } = await import('../serve/server');
    expect(served).toBe(CSP);
    expect(CSP).toMatch(/script-src 'self';/);
    expect(CSP).not.toMatch(/unsafe-eval|unsafe-inline'; *script|https?:\/\/(?!127)/);
  });

  it('denies window.open and foreign navigation; an https link opens in the browser only after the user confirms', async () => {
    const { win, desktop } = await start();
    expect(win.webContents.windowOpenHandler!({ url: 'https://docs.example/page' })).toEqual({ action: 'deny' });
    await flush();
    expect(h.state.messageBoxes.at(-1)).toMatchObject({ detail: 'https://docs.example/page', buttons: ['Open in browser', 'Cancel'] });
    expect(h.state.opened).toEqual([]); // the user cancelled
    h.state.messageBoxAnswer = 0;
    win.webContents.windowOpenHandler!({ url: 'https://docs.example/page' });
    await flush();
    expect(h.state.opened).toEqual(['https://docs.example/page']);
    // Other schemes never reach the browser nor a dialog.
    const asked = h.state.messageBoxes.length;
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'ms-msdt:/id', 'http://evil.example/', 'smb://host/share', 'https://user:pw@evil.example/']) {
      expect(win.webContents.windowOpenHandler!({ url })).toEqual({ action: 'deny' });
    }
    await flush();
    expect(h.state.messageBoxes.length).toBe(asked);
    expect(h.state.opened).toEqual(['https://docs.example/page']);
    const nav = { prevented: false, preventDefault() { this.prevented = true; } };
    win.webContents.emit('will-navigate', nav, 'https://evil.example/');
    expect(nav.prevented).toBe(true);
    for (const url of ['file:///app/index.html', 'app://erasmus.evil/index.html']) {
      const e = { prevented: false, preventDefault() { this.prevented = true; } };
      win.webContents.emit('will-navigate', e, url);
      expect(e.prevented, url).toBe(true);
    }
    const ok = { prevented: false, preventDefault() { this.prevented = true; } };
    win.webContents.emit('will-navigate', ok, 'app://erasmus/index.html#x');
    expect(ok.prevented).toBe(false);
    const webview = { prevented: false, preventDefault() { this.prevented = true; } };
    win.webContents.emit('will-attach-webview', webview);
    expect(webview.prevented).toBe(true);
    await desktop.dispose();
  });

  it('guards every web contents the app creates, not only the window', async () => {
    const { app, desktop } = await start();
    const other = new h.FakeContents();
    app.emit('web-contents-created', {}, other);
    expect(other.windowOpenHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    const nav = { prevented: false, preventDefault() { this.prevented = true; } };
    other.emit('will-navigate', nav, 'https://evil.example/');
    expect(nav.prevented).toBe(true);
    await desktop.dispose();
  });

  it('denies every permission request and check, every device, and screen capture', async () => {
    const { desktop } = await start();
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'hid', 'serial', 'usb']) {
      let allowed: boolean | undefined;
      h.state.permissionHook!({}, permission, (v) => (allowed = v));
      expect(allowed, permission).toBe(false);
      expect(h.state.permissionCheck!({}, permission, 'app://erasmus', {}), permission).toBe(false);
    }
    expect(h.state.deviceCheck!({ deviceType: 'hid', origin: 'app://erasmus', device: {} })).toBe(false);
    const chosen: unknown[] = [];
    for (const [event, args] of [
      ['select-hid-device', [{ deviceList: [{ deviceId: 'k' }] }, (id?: string) => chosen.push(id ?? null)]],
      ['select-serial-port', [[{ portId: 'p' }], {}, (id: string) => chosen.push(id)]],
      ['select-usb-device', [{ deviceList: [{ deviceId: 'u' }] }, (id?: string) => chosen.push(id ?? null)]],
    ] as Array<[string, unknown[]]>) {
      const e = { prevented: false, preventDefault() { this.prevented = true; } };
      h.sessionEvents.emit(event, e, ...args);
      expect(e.prevented, event).toBe(true);
    }
    expect(chosen).toEqual([null, '', null]);
    let media: unknown;
    h.state.displayMedia!({}, (r) => (media = r));
    expect(media).toEqual({});
    let headers: Record<string, string[]> = {};
    h.state.headerHook!({ responseHeaders: {} }, (r) => (headers = (r as { responseHeaders: Record<string, string[]> }).responseHeaders));
    expect(headers['Content-Security-Policy']).toEqual([CSP]);
    await desktop.dispose();
  });

  it('has no DevTools in a packaged app: not in webPreferences, not in the menu, closed if opened', async () => {
    h.state.packaged = true;
    const { win, desktop } = await start();
    expect(win.options.webPreferences.devTools).toBe(false);
    const roles = JSON.stringify(h.state.menu);
    expect(roles).not.toContain('toggleDevTools');
    expect(roles).not.toContain('"reload"');
    win.webContents.emit('devtools-opened');
    expect(win.webContents.devtoolsClosed).toBe(1);
    await desktop.dispose();
    h.state.packaged = false;
    const dev = await start();
    expect(JSON.stringify(h.state.menu)).toContain('toggleDevTools');
    await dev.desktop.dispose();
  });

  it("asks before opening a server's sign-in page, and opens only web pages", async () => {
    const { desktop } = await start();
    h.state.messageBoxAnswer = 0;
    await desktop.core.host.openAuthorization!('remote', 'file:///etc/passwd');
    expect(h.state.messageBoxes).toEqual([]);
    await desktop.core.host.openAuthorization!('remote', 'https://auth.example/authorize?x=1');
    expect(h.state.messageBoxes.at(-1)!.message).toMatch(/"remote" asks you to sign in/);
    expect(h.state.opened).toEqual(['https://auth.example/authorize?x=1']);
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
    // the main frame itself, once led away from the app's origin, is not trusted either
    win.webContents.mainFrame.url = 'https://evil.example/';
    h.ipcMain.emit(RPC_CHANNEL, { sender: win.webContents, senderFrame: win.webContents.mainFrame }, req);
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
