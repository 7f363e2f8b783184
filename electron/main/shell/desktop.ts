import type { App } from 'electron';
import { BrowserWindow } from 'electron';
import { join } from 'node:path';
import { Core } from '../api/core';
import { appVersion } from '../paths/index';

/** Placeholder desktop start: builds the core and opens the window. (Completed in shell/.) */
export async function startDesktop(app: App): Promise<void> {
  await app.whenReady();
  const core = new Core({ face: 'desktop', version: appVersion() });
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    webPreferences: { preload: join(__dirname, '../preload/index.cjs'), contextIsolation: true, sandbox: true, nodeIntegration: false },
  });
  await win.loadFile(join(__dirname, '../renderer/index.html'));
  app.on('before-quit', () => void core.dispose());
}
