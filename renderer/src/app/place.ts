import { VIEWS, type ViewId } from './views';

/** Where the user was: the open project, the view, the selected session. A reload or a new window comes back to it. */
export interface Place {
  project?: string;
  view?: ViewId;
  sessionId?: string;
}

const KEY = 'erasmus.place';

/** The place saved last, if any (anything unreadable is no place). */
export function loadPlace(storage: Pick<Storage, 'getItem'> = localStorage): Place {
  try {
    const raw = JSON.parse(storage.getItem(KEY) ?? '{}') as Record<string, unknown>;
    const place: Place = {};
    if (typeof raw.project === 'string' && raw.project) place.project = raw.project;
    if (typeof raw.view === 'string' && VIEWS.some((v) => v.id === raw.view)) place.view = raw.view as ViewId;
    if (typeof raw.sessionId === 'string' && /^[A-Za-z0-9._-]{1,128}$/.test(raw.sessionId)) place.sessionId = raw.sessionId;
    return place;
  } catch {
    return {};
  }
}

export function savePlace(place: Place, storage: Pick<Storage, 'setItem'> = localStorage): void {
  try {
    storage.setItem(KEY, JSON.stringify(place));
  } catch {}
}
