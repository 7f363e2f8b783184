import { readFile } from 'node:fs/promises';
import { UiSettings } from '../../../contract/index';
import { writeJsonAtomic } from '../../common/fs';
import type { Core } from '../core';

const DEFAULTS: UiSettings = { theme: 'system' };

/** Reads ui.json; a missing file is the defaults, and a damaged one keeps every preference that still parses. */
async function load(file: string): Promise<UiSettings> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return { ...DEFAULTS };
  }
  const out: UiSettings = { ...DEFAULTS };
  const obj = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  for (const key of Object.keys(DEFAULTS) as Array<keyof UiSettings>) {
    const one = UiSettings.shape[key].safeParse(obj[key]);
    if (one.success) out[key] = one.data;
  }
  return out;
}

/** ui.settings.get / set: the window's preferences in ERASMUS_HOME/ui.json. */
export function registerUiHandlers(core: Core): void {
  const file = core.paths.uiSettings;
  let chain: Promise<unknown> = Promise.resolve();
  core.dispatcher.register('ui.settings.get', () => load(file));
  core.dispatcher.register('ui.settings.set', (changes) => {
    const next = chain.then(async () => {
      const settings = { ...(await load(file)), ...changes };
      await writeJsonAtomic(file, settings);
      return settings;
    });
    chain = next.catch(() => {});
    return next;
  });
}
