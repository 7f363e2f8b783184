export { TerminalView } from './TerminalView';
export { TerminalStore, type TerminalClient, type TerminalState, type TerminalTab, type TerminalSink } from './store';
