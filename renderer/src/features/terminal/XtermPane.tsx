import { useEffect, useRef } from 'react';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { WebLinksAddon } from '@xterm/addon-web-links';
import '@xterm/xterm/css/xterm.css';
import { viewForKey } from '../../app/views';
import type { TerminalStore } from './store';

export interface XtermPaneProps {
  store: TerminalStore;
  id: string;
  visible: boolean;
  /** Lines kept above the screen. */
  scrollback?: number;
}

/** Every ANSI colour reads on the background at 4.5:1 or more (WCAG AA), in both app themes. */
const TERMINAL_THEME = {
  background: '#0f172a',
  foreground: '#e2e8f0',
  cursor: '#e2e8f0',
  black: '#94a3b8',
  brightBlack: '#cbd5e1',
  red: '#f87171',
  brightRed: '#fca5a5',
  green: '#4ade80',
  brightGreen: '#86efac',
  yellow: '#facc15',
  brightYellow: '#fde047',
  blue: '#60a5fa',
  brightBlue: '#93c5fd',
  magenta: '#e879f9',
  brightMagenta: '#f0abfc',
  cyan: '#22d3ee',
  brightCyan: '#67e8f9',
  white: '#e2e8f0',
  brightWhite: '#f8fafc',
};

/**
 * Whether a pane's box is laid out on screen. A box under a hidden ancestor (the terminal view while another view
 * shows) has no size of its own: the fit addon would read its CSS height and width ("100%") as 100 px and resize
 * the tab's PTY to about 10×6, and a shell's line editor, redrawing its long prompt over several lines at that
 * width, moves up and clears that many lines once the full width is back: the output above the prompt is lost.
 */
function shown(el: HTMLElement): boolean {
  return el.offsetParent !== null && el.clientWidth > 0 && el.clientHeight > 0;
}

/**
 * One xterm.js terminal bound to one tab: output from the store (acknowledged once rendered),
 * keystrokes and resizes back to the core, fit to its box, links clickable, Ctrl+Shift+C / V to
 * copy and paste.
 */
export function XtermPane({ store, id, visible, scrollback = 5_000 }: XtermPaneProps) {
  const box = useRef<HTMLDivElement>(null);
  /** Fits the xterm to its box, when the box is on screen. */
  const fitRef = useRef<(() => void) | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // At the PTY's size until it fits its box: a backlog replayed at another width would put what the program placed
    // by column (a progress bar, a full-screen program) elsewhere, and reflowing on the fit would not move it back.
    const tab = store.getSnapshot().tabs.find((t) => t.id === id);
    const size = tab?.cols && tab.rows ? { cols: tab.cols, rows: tab.rows } : {};
    const term = new Terminal({ ...size, scrollback, cursorBlink: true, fontSize: 13, fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', allowProposedApi: false, theme: TERMINAL_THEME });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.loadAddon(new WebLinksAddon((_e, uri) => window.open(uri, '_blank', 'noopener')));
    term.open(el);
    term.attachCustomKeyEventHandler((e) => {
      if (viewForKey(e)) return false; // Alt+1…6 switch views; they never reach the shell
      if (e.type !== 'keydown' || !e.ctrlKey || !e.shiftKey) return true;
      if (e.code === 'KeyC') {
        const text = term.getSelection();
        if (text) void navigator.clipboard?.writeText(text);
        return false;
      }
      if (e.code === 'KeyV') {
        void navigator.clipboard?.readText().then((text) => term.paste(text));
        return false;
      }
      return true;
    });
    const detach = store.attach(id, { write: (data, done) => term.write(data, done) });
    const onData = term.onData((data) => store.input(id, data));
    const onResize = term.onResize(({ cols, rows }) => store.resize(id, cols, rows));
    const fitShown = () => {
      if (shown(el)) fit.fit();
    };
    fitRef.current = fitShown;
    const observer = new ResizeObserver(fitShown);
    observer.observe(el);
    return () => {
      observer.disconnect();
      onData.dispose();
      onResize.dispose();
      detach();
      fitRef.current = null;
      term.dispose();
    };
  }, [store, id, scrollback]);

  useEffect(() => {
    if (visible) fitRef.current?.();
  }, [visible]);

  return <div ref={box} className="h-full w-full" style={{ display: visible ? 'block' : 'none' }} data-testid={`xterm-${id}`} />;
}
