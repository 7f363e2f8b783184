import { useEffect, useRef } from 'react';
import type { EventName, EventPayload } from '../../../electron/contract/index';
import { useClient } from './context';

/** Subscribes to one contract event for the life of the component; the latest `listener` is always called. */
export function useEvent<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): void {
  const client = useClient();
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => client.on(event, (p) => ref.current(p)), [client, event]);
}
