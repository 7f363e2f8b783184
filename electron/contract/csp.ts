/**
 * The renderer's one Content Security Policy: in renderer/index.html's meta tag, and sent as a
 * header by the desktop's `app://` scheme and by `erasmus serve` (a test keeps the three equal).
 * Scripts only from the app, no inline code or eval, nothing remote; the WebSocket of browser mode
 * goes to 127.0.0.1. (Framing is refused by `X-Frame-Options: DENY`: `frame-ancestors` is ignored
 * in a meta tag.)
 */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self' ws://127.0.0.1:* ws://localhost:*; object-src 'none'; base-uri 'none'; form-action 'none'";
