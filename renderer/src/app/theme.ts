import { useCallback, useEffect, useRef, useState } from 'react';
import type { RpcClient } from '../api/client';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'erasmus.theme';

/** The last choice this origin saw: paints the first frame before the core answers. */
function cached(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/**
 * Light, dark, or the system's choice; applied as the `dark` class on <html>. The choice is kept in
 * ERASMUS_HOME (`ui.settings`), so browser mode keeps it across ports; localStorage only caches it.
 */
export function useTheme(client: RpcClient): [ThemeChoice, (t: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>(cached);
  // A choice the user made before the core's answer arrived wins over that (older) answer.
  const chosen = useRef(false);
  useEffect(() => {
    let live = true;
    client.request('ui.settings.get', {}).then(
      (s) => live && !chosen.current && setChoice(s.theme),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client]);
  useEffect(() => {
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    const apply = () => document.documentElement.classList.toggle('dark', choice === 'dark' || (choice === 'system' && !!media?.matches));
    apply();
    try {
      localStorage.setItem(KEY, choice);
    } catch {}
    media?.addEventListener?.('change', apply);
    return () => media?.removeEventListener?.('change', apply);
  }, [choice]);
  const choose = useCallback(
    (t: ThemeChoice) => {
      chosen.current = true;
      setChoice(t);
      client.request('ui.settings.set', { theme: t }).catch(() => {});
    },
    [client],
  );
  return [choice, choose];
}
