// `npm start` / `npm run dev`: runs electron-vite when Electron's binary is installed; otherwise says
// how to use Erasmus in a browser instead of ending in electron-vite's "Electron uninstall" stack.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const mode = process.argv[2] === 'dev' ? 'dev' : 'preview';

/** The Electron executable's path, or why there is none. */
function electronBinary() {
  try {
    const path = createRequire(import.meta.url)('electron');
    if (typeof path === 'string' && existsSync(path)) return { path };
    return { missing: `Electron's binary is not at ${path}` };
  } catch (err) {
    return { missing: err instanceof Error ? err.message : String(err) };
  }
}

const found = electronBinary();
if ('missing' in found) {
  process.stderr.write(
    [
      'Erasmus cannot open its desktop window: Electron is not installed here.',
      `  (${found.missing})`,
      '',
      'Use browser mode instead — the same app in your browser, served on 127.0.0.1:',
      '  npm run serve                  build, then serve; open the URL it prints',
      '  node bin/erasmus.js serve      if you already ran `npm run build`',
      '',
      "To get the desktop window, install Electron's binary: node node_modules/electron/install.js",
      '(it is skipped when ELECTRON_SKIP_BINARY_DOWNLOAD is set).',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
const r = spawnSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', mode], { stdio: 'inherit' });
process.exit(r.status ?? 1);
