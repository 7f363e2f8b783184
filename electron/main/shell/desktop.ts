import { BrowserWindow, dialog, Menu, type App } from 'electron';
import { basename, dirname, join } from 'node:path';
import { Core } from '../api/core';
import { attachBuiltinServers } from '../../servers/builtin';
import { appRoot, appVersion } from '../paths/index';
import { ipcPipe } from './ipc-pipe';
import { notify } from './notify';
import { applicationMenu } from './menu';
import { APP_URL, confirmOpenExternal, guardAllWebContents, hardenSession, lockDown, registerAppScheme, serveAppScheme } from './security';
import { createTray, type TrayController } from './tray';

export interface DesktopLayout {
  preload: string;
  indexHtml: string;
  trayIcon: string;
}

export function defaultLayout(): DesktopLayout {
  const root = appRoot();
  return {
    preload: join(root, 'out', 'preload', 'index.cjs'),
    indexHtml: join(root, 'out', 'renderer', 'index.html'),
    trayIcon: join(root, 'resources', 'icons', 'tray.png'),
  };
}

export interface Desktop {
  core: Core;
  window: BrowserWindow;
  tray: TrayController;
  dispose(): Promise<void>;
}

/**
 * The desktop face: one core, one secure window bound to it over IPC, a tray, notifications.
 * Quitting disposes the core, which ends every MCP child, PTY and socket.
 */
export async function startDesktop(app: App, layout: DesktopLayout = defaultLayout()): Promise<Desktop> {
  // Before `ready`: the app:// scheme's privileges, and a guard on every web contents ever created.
  registerAppScheme();
  const shown: { window?: BrowserWindow } = {};
  const openLink = (url: string) => void confirmOpenExternal(shown.window, url).catch(() => false);
  guardAllWebContents(app, openLink);
  await app.whenReady();
  const development = !app.isPackaged;
  Menu.setApplicationMenu(applicationMenu({ development, mac: process.platform === 'darwin' }));
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 800,
    minHeight: 520,
    show: false,
    title: 'Erasmus',
    // Spelled out here, where the window is made, so a reader (and electronegativity) sees them.
    webPreferences: {
      preload: layout.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
      navigateOnDragDrop: false,
      // A middle click would ask for a new window (denied anyway by the window-open handler).
      disableBlinkFeatures: 'Auxclick',
      // DevTools only in development (`npm run dev`): a packaged app has none, nor the menu item.
      devTools: development,
    },
  });
  shown.window = window;
  const core = new Core({
    face: 'desktop',
    version: appVersion(),
    host: {
      async chooseFolder() {
        const options = { title: 'Open a project folder', properties: ['openDirectory' as const, 'createDirectory' as const] };
        const r = await dialog.showOpenDialog(window, options);
        return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0]!;
      },
      async openAuthorization(server, url) {
        // The URL comes from a remote server's authorization metadata: a web page only, and only once the user agrees.
        await confirmOpenExternal(window, url, `The MCP server "${server}" asks you to sign in; it`);
      },
    },
  });

  hardenSession(window.webContents.session);
  serveAppScheme(window.webContents.session, dirname(layout.indexHtml));
  lockDown(window.webContents, openLink);
  core.connect(ipcPipe(window.webContents), 'desktop');
  // The user's MCP servers, and Erasmus's own runners and files following the open project.
  void core.hub
    .start()
    .then(() => attachBuiltinServers(core))
    .catch((err: Error) => {
      if (!core.disposables.isDisposed) core.bus.emit('app.notice', { level: 'error', message: `MCP servers: ${err.message}` });
    });

  const show = () => {
    if (window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };
  const tray = createTray(layout.trayIcon, { show, quit: () => app.quit() });
  core.disposables.defer(() => tray.dispose());
  core.bus.onEvent('workflow.status', ({ projectDir, status, state }) => {
    const name = basename(projectDir);
    tray.setCurrentTask(status === 'COMPLETED' || status === 'STOPPED' ? null : `${name}: ${state ?? status.toLowerCase()}`);
  });
  core.bus.onEvent('app.notify', ({ title, body }) => {
    notify(title, body, show);
  });

  app.on('second-instance', show);
  window.once('ready-to-show', show);
  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    void core.dispose().finally(() => app.quit());
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  await window.loadURL(APP_URL);
  return {
    core,
    window,
    tray,
    dispose: () => core.dispose(),
  };
}
