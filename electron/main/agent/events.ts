import type { AgentEvent } from '../../contract/index';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event as the loop emits it; the session stamps sessionId and time. */
export type LoopEvent = DistributiveOmit<AgentEvent, 'sessionId' | 'at'>;
export type Emit = (e: LoopEvent) => void;
