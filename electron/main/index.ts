import { app } from 'electron';
import { startDesktop } from './shell/desktop';

// Electron entry: the shell owns the window, tray and IPC; the core is plain Node underneath.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void startDesktop(app).catch((err: unknown) => {
    console.error('Erasmus failed to start:', err);
    app.exit(1);
  });
}
