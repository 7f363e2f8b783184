import { useCallback, useEffect, useState } from 'react';
import type { MethodName, ParamsOf, ResultOf } from '../../../electron/contract/index';
import { useClient } from './context';

export type RequestState<T> =
  | { status: 'loading'; data?: T }
  | { status: 'ok'; data: T }
  | { status: 'error'; error: string; data?: T };

/** Runs a request when mounted (and on `reload()`), keeping the last data while reloading. */
export function useRequest<M extends MethodName>(method: M, params: ParamsOf<M>, key = ''): RequestState<ResultOf<M>> & { reload: () => void } {
  const client = useClient();
  const [state, setState] = useState<RequestState<ResultOf<M>>>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  const json = JSON.stringify(params);
  useEffect(() => {
    let live = true;
    setState((s) => ({ status: 'loading', data: s.data }));
    client.request(method, JSON.parse(json) as ParamsOf<M>).then(
      (data) => live && setState({ status: 'ok', data }),
      (e: Error) => live && setState((s) => ({ status: 'error', error: e.message, data: s.data })),
    );
    return () => {
      live = false;
    };
  }, [client, method, json, key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}
