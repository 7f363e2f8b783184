import { Menu, type MenuItemConstructorOptions } from 'electron';

/**
 * The application menu: editing and window roles only. DevTools (and reload) are there in
 * development alone; a packaged app offers neither.
 */
export function applicationMenu(opts: { development: boolean; mac: boolean }): Menu {
  const template: MenuItemConstructorOptions[] = [
    ...(opts.mac ? [{ role: 'appMenu' as const }] : [{ label: 'File', submenu: [{ role: 'quit' as const }] }]),
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        ...(opts.development ? [{ role: 'reload' as const }, { role: 'toggleDevTools' as const }, { type: 'separator' as const }] : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ];
  return Menu.buildFromTemplate(template);
}
