// Plain-text (XML) tool calls: the streaming parser, the "Tool use" prompt section, the depends chain.
export { createToolCallParser } from './parser';
export { formatToolUseSection, formatTool, formatTools, toolUseRules, usageBlock, exampleBlock, correctiveMessage } from './tool-use-section';
export type { ToolUseSectionOptions } from './tool-use-section';
export { resolveDependencies, findReferences } from './depends';
export type { Resolved } from './depends';
export { coerceString, decodeXmlValue } from './values';
export type {
  JsonSchema,
  ToolSpec,
  ToolMap,
  ParserOptions,
  ParserEvent,
  TextEvent,
  ToolCallEvent,
  ShellEvent,
  InvalidCallEvent,
  ToolCallParser,
} from './types';
