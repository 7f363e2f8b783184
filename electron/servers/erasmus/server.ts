import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  LoggingLevelSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError } from './errors';
import { z } from 'zod';
import type { ApprovalDecision } from '../../contract/index';
import type { ApprovalRequest } from '../../main/agent/approvals';
import type { ProviderHandle } from '../../main/agent/providers/types';
import type { Paths } from '../../main/paths/index';
import type { ChatBackend } from './chat';
import { Completions } from './completions';
import { ContextDocuments } from './documents';
import type { CoreLink } from './link';
import { libraryResources, libraryTools } from './library-tools';
import { PromptLibrary } from './prompt-library';
import { callPrompt, PromptCallParams, ProtocolPrompts } from './prompts';
import { describeZodIssues, ToolRegistry, type ToolContext } from './registry';
import { analysisTools } from './tools/analysis';
import { ANSWER_WAIT_MS } from '../keep-alive';
import { chatTool } from './tools/chat';
import { workflowTools } from './tools/workflow';
import { checkpointTools } from './tools/checkpoints';

export interface ErasmusServerDeps {
  paths: Paths;
  version: string;
  /** The contract: this process's core, or a running Erasmus (`--connect`). */
  link: () => Promise<CoreLink>;
  chat: () => ChatBackend;
  /** The configured model, for `prompt/call`. */
  provider: () => Promise<ProviderHandle>;
  autoApprove: boolean;
  /** Diagnostics (stderr in stdio mode; never stdout). */
  log: (message: string) => void;
  /** Watch interval of subscribed documents. */
  watchIntervalMs?: number;
  /** How often the set of documents is checked for resources/list_changed. */
  listIntervalMs?: number;
}

const LEVELS: LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

const PromptCallRequest = z.object({ method: z.literal('prompt/call'), params: z.unknown().optional() });

/**
 * One MCP server session of Erasmus: tools from a registry, context documents as resources,
 * protocols as prompts, and `prompt/call`. Low-level `Server`, so errors keep their standard codes:
 * -32601 unknown method (the SDK), -32602 bad params (the registry and the handlers), -32603 internal.
 */
export function createErasmusServer(deps: ErasmusServerDeps): { server: Server; dispose: () => void } {
  const server = new Server(
    { name: 'erasmus', title: 'Erasmus', version: deps.version },
    {
      capabilities: { tools: {}, resources: { subscribe: true, listChanged: true }, prompts: {}, logging: {}, completions: {} },
      instructions:
        'Erasmus: an agent (erasmus_chat), a development workflow another model can drive (workflow_load → workflow_get_task → workflow_submit_task until COMPLETED), project context documents as resources, protocols as prompts.',
    },
  );
  let level: LoggingLevel = 'info';
  const docs = new ContextDocuments(deps.paths, (uri) => void server.sendResourceUpdated({ uri }).catch((e: Error) => deps.log(`resources/updated ${uri}: ${e.message}`)), deps.watchIntervalMs);
  const prompts = new ProtocolPrompts(deps.paths);
  const library = new PromptLibrary(deps.paths.promptLibraryDir);

  const askClient = (req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> | undefined => {
    if (!server.getClientCapabilities()?.elicitation) return undefined;
    return server
      .elicitInput(
        {
          message: `Erasmus wants to run ${req.name}${req.reasons.length ? ` (${req.reasons.join('; ')})` : ''}.\n\n${JSON.stringify(req.args, null, 2).slice(0, 4000)}`,
          requestedSchema: { type: 'object', properties: { decision: { type: 'string', enum: ['allow_once', 'always_allow', 'deny'], description: 'allow once, always allow this tool, or deny' } }, required: ['decision'] },
        },
        { signal, timeout: ANSWER_WAIT_MS },
      )
      .then((r) => (r.action === 'accept' && typeof r.content?.decision === 'string' ? (r.content.decision as ApprovalDecision) : 'deny'))
      .catch(() => 'deny' as const);
  };

  const tools = new ToolRegistry().add(chatTool({ backend: deps.chat, askClient, autoApprove: deps.autoApprove }), ...workflowTools(deps.link), ...checkpointTools(deps.link), ...analysisTools(deps.link), ...libraryTools(library));

  server.setRequestHandler(SetLevelRequestSchema, async (req) => {
    const parsed = LoggingLevelSchema.safeParse(req.params.level);
    if (!parsed.success) throw new ProtocolError(ErrorCode.InvalidParams, `unknown logging level ${JSON.stringify(req.params.level)} (levels: ${LEVELS.join(', ')})`);
    level = parsed.data;
    return {};
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.list() }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const token = req.params._meta?.progressToken;
    let progress = 0;
    const ctx: ToolContext = {
      signal: extra.signal,
      progress: async (message) => {
        if (token === undefined) return;
        progress += message.length;
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } });
      },
      log: async (at, data) => {
        if (LEVELS.indexOf(at) < LEVELS.indexOf(level)) return;
        await extra.sendNotification({ method: 'notifications/message', params: { level: at, logger: req.params.name, data } });
      },
    };
    return tools.call(req.params.name, req.params.arguments, ctx);
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [...(await docs.list()), ...libraryResources.list()] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      { uriTemplate: 'erasmus://projects/{key}/orchestration/{doc}.md', name: 'orchestration-document', description: 'architecture, progress_schedule or task_list of a project (key: see resources/list)', mimeType: 'text/markdown' },
      { uriTemplate: 'erasmus://projects/{key}/components/{component}.md', name: 'component-document', description: "a component's context document", mimeType: 'text/markdown' },
      ...libraryResources.templates(),
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const fromLibrary = await libraryResources.read(library, req.params.uri);
    if (fromLibrary) return { contents: [fromLibrary] };
    return { contents: [await docs.read(req.params.uri)] };
  });
  server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    docs.subscribe(req.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    docs.unsubscribe(req.params.uri);
    return {};
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: await prompts.list() }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const { text: _text, ...result } = await prompts.get(req.params.name, req.params.arguments);
    return result;
  });
  const completions = new Completions(deps.paths);
  server.setRequestHandler(CompleteRequestSchema, async (req) => ({ completion: await completions.complete(req.params) }));
  server.setRequestHandler(PromptCallRequest, async (req, extra) => {
    const parsed = PromptCallParams.safeParse(req.params ?? {});
    if (!parsed.success) throw new ProtocolError(ErrorCode.InvalidParams, `invalid prompt/call params: ${describeZodIssues(parsed.error)}`);
    try {
      return await callPrompt({ prompts, library, provider: deps.provider, signal: extra.signal }, parsed.data);
    } catch (err) {
      if (err instanceof McpError || err instanceof ProtocolError) throw err;
      throw new ProtocolError(ErrorCode.InternalError, `prompt/call ${parsed.data.prompt_name ?? parsed.data.library_id} failed: ${(err as Error).message}`);
    }
  });

  // Announce new or removed documents once the client is initialized.
  server.oninitialized = () => {
    docs.watchList(() => void server.sendResourceListChanged().catch(() => undefined), deps.listIntervalMs);
  };

  return { server, dispose: () => docs.dispose() };
}
