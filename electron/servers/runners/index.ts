export { createRunnersServer, type RunnersServerOptions } from './server';
export { serveRunnersStdio, type RunnersStdioOptions } from './stdio';
export { executeTool, type Confirmation, type RunnerDeps, type RunnerOutcome } from './execute';
export { RUNNER_TOOLS, TOOLSETS } from './toolsets/index';
export type { RunnerTool, Toolset, Annotations, Plan } from './tool';
export { q, argv } from './quote';
export { attachRunners, type AttachRunnersOptions, type AttachedRunners } from './attach';
