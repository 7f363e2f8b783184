import type { z } from 'zod';
import { appMethods } from './app';
import { secretsMethods } from './secrets';
import { projectMethods } from './project';
import { agentMethods } from './agent';
import { mcpMethods } from './mcp';
import { terminalMethods } from './terminal';
import { workflowMethods } from './workflow';
import { checkpointMethods } from './checkpoints';
import { uiMethods } from './ui';
import { sessionsMethods } from './sessions';
import { settingsMethods } from './settings';

/**
 * Every JSON-RPC method of the contract, as one typed map. Each part adds its own file here;
 * both pipes (Electron IPC and WebSocket) carry exactly these.
 */
export const methods = {
  ...appMethods,
  ...secretsMethods,
  ...projectMethods,
  ...agentMethods,
  ...mcpMethods,
  ...terminalMethods,
  ...workflowMethods,
  ...checkpointMethods,
  ...uiMethods,
  ...sessionsMethods,
  ...settingsMethods,
};

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type ParamsOf<M extends MethodName> = z.input<Methods[M]['params']>;
export type ResultOf<M extends MethodName> = z.output<Methods[M]['result']>;

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(methods, name);
}
