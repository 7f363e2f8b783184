import type { RunnerTool, Toolset } from '../tool';
import { bashTools } from './bash';
import { cargoTools } from './cargo';
import { dockerTools } from './docker';
import { gitTools } from './git';
import { pnpmTools } from './pnpm';
import { uvTools } from './uv';

/** Every runner tool, by toolset. */
export const RUNNER_TOOLS: readonly RunnerTool[] = [...bashTools, ...gitTools, ...pnpmTools, ...cargoTools, ...uvTools, ...dockerTools];

export const TOOLSETS: readonly Toolset[] = ['bash', 'git', 'pnpm', 'cargo', 'uv', 'docker'];
