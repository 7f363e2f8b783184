import { Menu, nativeImage, Tray } from 'electron';

export interface TrayController {
  setCurrentTask(label: string | null): void;
  dispose(): void;
}

/** The tray icon: show the window, the current task (read-only), quit. */
export function createTray(iconPath: string, actions: { show(): void; quit(): void }): TrayController {
  const tray = new Tray(nativeImage.createFromPath(iconPath));
  tray.setToolTip('Erasmus');
  let task: string | null = null;
  const render = () => {
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Show Erasmus', click: actions.show },
        { label: task ? `Current task: ${task}` : 'No task running', enabled: false },
        { type: 'separator' },
        { label: 'Quit', click: actions.quit },
      ]),
    );
  };
  render();
  tray.on('click', actions.show);
  return {
    setCurrentTask(label) {
      task = label;
      tray.setToolTip(label ? `Erasmus — ${label}` : 'Erasmus');
      render();
    },
    dispose() {
      tray.destroy();
    },
  };
}
