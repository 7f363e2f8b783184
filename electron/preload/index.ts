import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';

/**
 * The only things the renderer sees: send a contract message, subscribe to contract messages,
 * and the absolute path of a dropped file or folder (drag-and-drop of a project).
 */
const CHANNEL = 'erasmus:rpc';

contextBridge.exposeInMainWorld('erasmus', {
  send(message: string): void {
    if (typeof message !== 'string') throw new TypeError('erasmus.send takes a string');
    ipcRenderer.send(CHANNEL, message);
  },
  subscribe(listener: (message: string) => void): () => void {
    const handler = (_e: IpcRendererEvent, message: unknown) => {
      if (typeof message === 'string') listener(message);
    };
    ipcRenderer.on(CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(CHANNEL, handler);
    };
  },
  pathForFile(file: File): string {
    return webUtils.getPathForFile(file);
  },
});
