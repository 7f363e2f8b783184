import { alwaysAllowWords, type GrantKind, type GrantScope } from '../../contract/index';
import type { AnswerWithScope } from '../../main/mcp/elicitation';
import type { ElicitationRequest } from '../../main/mcp/types';
import { APPROVAL_META, ElicitationApproval } from '../../contract/index';
import { unifiedDiff } from '../../servers/files/edit';
import { ask } from '../prompt';

interface Field {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
}

/**
 * Answers a server's form elicitation on the terminal, one field at a time; empty input keeps the default.
 * When the server stops waiting (its call was cancelled or ended), the question is withdrawn and says so.
 */
export async function elicitOnTerminal(req: ElicitationRequest, signal?: AbortSignal, offer?: AlwaysOffer, hosts?: HostsOffer): Promise<AnswerWithScope> {
  try {
    return await askOnTerminal(req, signal, offer, hosts);
  } catch (err) {
    if (!signal?.aborted) throw err;
    process.stderr.write(`\n(${req.server} no longer waits for this answer: its call was cancelled or ended.)\n`);
    return { action: 'cancel' };
  }
}

/** What "always allow" may keep for a question (Erasmus's own servers' yes/no questions, in an open project). */
export interface AlwaysOffer {
  kind: GrantKind;
  scopes: GrantScope[];
}

/**
 * "Allow <host>" on a command's approval that needs the network, as the app's card has it: the hosts the command names
 * that the project does not allow yet (the approval's `hosts`), added to the project's allowed hosts (`add`, as the card's
 * settings.runners.set) before the yes goes back, so the command reaches them.
 */
export interface HostsOffer {
  hosts: string[];
  /** The folder whose allowed hosts they join (the approval's `cwd`). */
  project: string;
  add: (project: string, hosts: string[]) => Promise<unknown>;
}

/** The letters that answer "always allow": r for this run, p in this project. */
const scopeKey: Record<GrantScope, string> = { run: 'r', project: 'p' };

/** The component a parallel run's question comes from: it asks from its worktree (`.git/erasmus/worktrees/<run>/<component>`). */
function laneOf(req: ElicitationRequest): string | undefined {
  const meta = (req.params as { _meta?: Record<string, unknown> })._meta?.[APPROVAL_META] as { cwd?: unknown } | undefined;
  return /\/\.git\/erasmus\/worktrees\/[^/]+\/([^/]+)/.exec(typeof meta?.cwd === 'string' ? meta.cwd : (req.params as { message?: string }).message ?? '')?.[1];
}

/**
 * A parallel run's question in a few words (`wordcount · development: Edit src/index.js (one replacement)`), for its
 * prompt and for the notice that it waits behind another: other components' lines come between a question's header
 * and its prompt, so the prompt alone must say whose it is. Undefined outside a component.
 */
export function questionLabel(req: ElicitationRequest): string | undefined {
  const lane = laneOf(req);
  if (!lane) return undefined;
  const first = ((req.params as { message?: string }).message ?? '').split('\n')[0]!.replace(/[\s:]+$/, '').replace(/\s*Allow\?$/, '');
  const said = first.length > 90 ? `${first.slice(0, 89)}…` : first;
  return said.startsWith(`${lane} `) || said.startsWith(`${lane}:`) ? said : `${lane}: ${said}`;
}

/** Lines of a change shown at most under a question (the rest is counted). */
const PREVIEW_LINES = 40;

/** What an approval of a file change changes, for the terminal: a unified diff of an overwrite, the lines an append or a create adds. */
export function changePreview(req: ElicitationRequest, message: string): string | undefined {
  const parsed = ElicitationApproval.safeParse((req.params as { _meta?: Record<string, unknown> })._meta?.[APPROVAL_META]);
  if (!parsed.success || /^@@ /m.test(message)) return undefined;
  const a = parsed.data;
  let lines: string[];
  if (a.change === 'overwrite' && a.before !== undefined && a.content !== undefined) lines = unifiedDiff(a.path ?? '', a.before, a.content).split('\n');
  else if ((a.change === 'append' || a.change === 'create') && a.content !== undefined) lines = a.content.replace(/\n$/, '').split('\n').map((l) => `+${l}`);
  else return undefined;
  if (!lines.length || (lines.length === 1 && !lines[0])) return a.change === 'overwrite' ? '  (the new content is the same as the file has now)' : undefined;
  const shown = lines.slice(0, PREVIEW_LINES).map((l) => `  ${l}`);
  if (lines.length > PREVIEW_LINES) shown.push(`  … ${lines.length - PREVIEW_LINES} more line${lines.length - PREVIEW_LINES === 1 ? '' : 's'}`);
  return shown.join('\n');
}

async function askOnTerminal(req: ElicitationRequest, signal?: AbortSignal, offer?: AlwaysOffer, hostsOffer?: HostsOffer): Promise<AnswerWithScope> {
  const params = req.params as { message: string; requestedSchema?: { properties?: Record<string, Field>; required?: string[] }; url?: string };
  // A parallel run's component is named first.
  const lane = laneOf(req);
  const label = questionLabel(req);
  const fields = Object.entries(params.requestedSchema?.properties ?? {});
  // A question with nothing to fill in, or one yes/no field (a confirmation), is answered with one y/n;
  // a form is filled in field by field.
  const confirm = fields.length === 1 && fields[0]![1].type === 'boolean' ? fields[0]![0] : undefined;
  const yesNo = !params.url && (!fields.length || confirm !== undefined);
  // The y/n prompt asks "Allow?" itself: a message ending with the same question is shown without it.
  const message = yesNo ? params.message.replace(/\s*Allow\?\s*$/, '') : params.message;
  process.stderr.write(`\n${req.server} asks${lane ? ` for component ${lane}` : ''}: ${message}\n`);
  // The change itself, as the app's card shows it: an overwrite's diff, what an append adds (a message with its diff already is left as it is).
  const preview = yesNo ? changePreview(req, params.message) : undefined;
  if (preview) process.stderr.write(`${preview}\n`);
  if (params.url) {
    process.stderr.write(`open ${params.url}\n`);
    return { action: (await ask('Done? [y/N] ', signal)).trim().toLowerCase().startsWith('y') ? 'accept' : 'decline' };
  }
  // The same scope words as the app's card: "Always allow writing files in this project for this run".
  const always = !fields.length && offer ? offer.scopes.map((scope) => ({ scope, key: scopeKey[scope], words: alwaysAllowWords(offer.kind, scope) })) : [];
  for (const a of always) process.stderr.write(`  ${a.key} = ${a.words}\n`);
  // The app card's "Allow <host> for this project": h allows the command and adds every host it names; h1, h2… one of them.
  const hosts = yesNo && hostsOffer?.hosts.length ? hostsOffer : undefined;
  if (hosts?.hosts.length === 1) process.stderr.write(`  h = yes, and allow ${hosts.hosts[0]} for this project (added to its allowed hosts)\n`);
  else if (hosts) {
    process.stderr.write(`  h = yes, and allow all of them for this project (added to its allowed hosts): ${hosts.hosts.join(', ')}\n`);
    hosts.hosts.forEach((h, i) => process.stderr.write(`  h${i + 1} = yes, and allow ${h} only\n`));
  }
  const whose = label ? ` (${label})` : '';
  const letters = [...(always.length ? [`${always.map((a) => a.key).join(' or ')} = always`] : []), ...(hosts ? [`h = allow the host${hosts.hosts.length > 1 ? 's' : ''}`] : [])];
  const accepted: AnswerWithScope = confirm ? { action: 'accept', content: { [confirm]: true } } : { action: 'accept' };
  for (;;) {
    const answer = (await ask(!yesNo ? `Answer${whose}? [y = fill in, n = decline, c = cancel] ` : `Allow${whose}? [y = yes, n = no, c = cancel${letters.length ? `, ${letters.join(', ')} (above)` : ''}] `, signal)).trim().toLowerCase();
    const chosen = always.find((a) => answer === a.key);
    if (chosen) return { ...accepted, always: chosen.scope };
    const h = hosts && /^h(\d*)$/.exec(answer);
    if (hosts && h) {
      const picked = h[1] ? hosts.hosts[Number(h[1]) - 1] : undefined;
      if (h[1] && !picked) {
        process.stderr.write(`  there is no host ${h[1]}: answer h, h1…h${hosts.hosts.length}, y, n or c\n`);
        continue;
      }
      try {
        await hosts.add(hosts.project, picked ? [picked] : hosts.hosts);
      } catch (err) {
        // Not added (the project's settings.json is not trusted, or cannot be written): said, and asked again.
        process.stderr.write(`  the host${picked || hosts.hosts.length === 1 ? ' was' : 's were'} not allowed: ${(err as Error).message}\n`);
        continue;
      }
      process.stderr.write(`  allowed for this project: ${(picked ? [picked] : hosts.hosts).join(', ')}\n`);
      return accepted;
    }
    if (answer.startsWith('n')) return { action: 'decline' };
    if (!answer.startsWith('y')) return { action: 'cancel' };
    break;
  }
  if (confirm) return accepted;
  const content: Record<string, string | number | boolean> = {};
  for (const [name, f] of fields) {
    const hint = [f.description, f.enum ? `one of ${f.enum.join(', ')}` : '', f.default !== undefined ? `default ${String(f.default)}` : ''].filter(Boolean).join('; ');
    const raw = (await ask(`${f.title ?? name}${hint ? ` (${hint})` : ''}: `, signal)).trim();
    if (!raw) continue;
    content[name] = f.type === 'boolean' ? /^(y|yes|true|1)$/i.test(raw) : f.type === 'number' || f.type === 'integer' ? Number(raw) : raw;
  }
  return { action: 'accept', content };
}
