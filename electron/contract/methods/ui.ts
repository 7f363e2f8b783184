import { z } from 'zod';
import type { MethodTable } from '../table';

/** The window's own preferences, kept in ERASMUS_HOME (browser mode gets a new origin, so a new localStorage, on every port). */
export const UiSettings = z.object({
  theme: z.enum(['system', 'light', 'dark']),
});
export type UiSettings = z.infer<typeof UiSettings>;

export const uiMethods = {
  'ui.settings.get': { params: z.object({}).strict(), result: UiSettings },
  /** Changes the given preferences and returns them all. */
  'ui.settings.set': { params: UiSettings.partial().strict(), result: UiSettings },
} satisfies MethodTable;
