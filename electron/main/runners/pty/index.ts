export { PtyManager, type PtyManagerOptions, type RunOptions, type RunResult, type EventSink } from './manager';
export { Terminal, type ExitStatus } from './terminal';
export { cleanOutput, truncateHeadTail } from './output';
export { DEFAULT_FLOW, ACK_CHUNK_CHARS, type FlowControlOptions } from './flow';
export { killSession, sessionMembers, sessionAlive } from './process-tree';
