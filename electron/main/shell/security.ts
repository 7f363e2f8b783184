import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { app, dialog, protocol, shell, type App, type BrowserWindow, type Session, type WebContents } from 'electron';
import { CSP } from '../../contract/index';

export { CSP };

/** The renderer's scheme and origin: `app://erasmus/index.html`, served from the built renderer folder. */
export const APP_SCHEME = 'app';
const APP_HOST = 'erasmus';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/** Headers every response of the app's scheme carries. */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CSP,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/**
 * Registers `app://` as a standard, secure scheme (a real origin for the renderer instead of file://,
 * which would share one origin with every local file). Electron allows this only before `ready`.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/**
 * The handler behind `app://erasmus/…`: files of `root` only (no traversal, no other host), each with
 * the security headers. Exposed for tests; `serveAppScheme` installs it on a session.
 */
export function appSchemeHandler(root: string): (request: Request) => Promise<Response> {
  const base = normalize(root + sep);
  const deny = (status: number, text: string) => new Response(text, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });
  return async (request) => {
    let url: URL;
    let path: string;
    try {
      url = new URL(request.url);
      path = decodeURIComponent(url.pathname);
    } catch {
      return deny(400, 'bad request');
    }
    if (!isAppUrl(url.href) || request.method !== 'GET') return deny(403, 'forbidden');
    if (path.includes('\0')) return deny(400, 'bad request');
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(root, path));
    if (!file.startsWith(base)) return deny(403, 'forbidden');
    try {
      const body = await readFile(file);
      return new Response(body, { status: 200, headers: { ...SECURITY_HEADERS, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' } });
    } catch {
      return deny(404, 'not found');
    }
  };
}

export function serveAppScheme(session: Session, root: string): void {
  session.protocol.handle(APP_SCHEME, appSchemeHandler(root));
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Which links may leave the app for the system browser: https pages, and http only on this machine
 * (a local server's sign-in page, RFC 8252). Everything else (file:, javascript:, custom schemes that
 * start programs, http on the network) never reaches `shell.openExternal`.
 */
export function externalUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.username || url.password) return undefined;
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return url.href;
  return undefined;
}

/**
 * Opens a web page in the system browser after the user confirms it in a dialog that shows the whole
 * address. Returns whether it was opened.
 */
export async function confirmOpenExternal(parent: BrowserWindow | undefined, raw: string, why = 'A link in Erasmus'): Promise<boolean> {
  const url = externalUrl(raw);
  if (!url) return false;
  const options = {
    type: 'question' as const,
    buttons: ['Open in browser', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
    title: 'Open a web page?',
    message: `${why} wants to open this page in your browser:`,
    detail: url,
  };
  const r = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options);
  if (r.response !== 0) return false;
  await shell.openExternal(url);
  return true;
}

/**
 * One web contents' guard: no new windows (an https link is offered to the system browser after a
 * confirmation), no navigation away from the app, no <webview>.
 */
const guarded = new WeakSet<WebContents>();

export function lockDown(contents: WebContents, opener: (url: string) => void): void {
  if (guarded.has(contents)) return;
  guarded.add(contents);
  contents.setWindowOpenHandler(({ url }) => {
    opener(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    opener(url);
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  if (app.isPackaged) contents.on('devtools-opened', () => contents.closeDevTools());
}

/** Whether a URL is the app's own (`app://erasmus/…`; Node's URL gives a custom scheme no `origin`, so host and scheme are compared). */
export function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** Every web contents the app ever creates (windows, frames it did not plan) gets the same guard. */
export function guardAllWebContents(electronApp: App, opener: (url: string) => void): void {
  electronApp.on('web-contents-created', (_event, contents) => lockDown(contents, opener));
}

/**
 * The app's session: every permission asked or checked is denied (camera, microphone, notifications
 * from the page, clipboard, geolocation…), and no HID, serial, USB or Bluetooth device is ever chosen.
 */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.on('select-hid-device', (event, _details, callback) => {
    event.preventDefault();
    callback();
  });
  session.on('select-serial-port', (event, _ports, _wc, callback) => {
    event.preventDefault();
    callback('');
  });
  session.on('select-usb-device', (event, _details, callback) => {
    event.preventDefault();
    callback();
  });
  session.setBluetoothPairingHandler?.((_details, callback) => callback({ confirmed: false }));
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));
  // Responses that do not come through the app scheme (none are expected) still get the policy.
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
}
