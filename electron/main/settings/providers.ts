import { isMap, isSeq, type Document, type YAMLMap, type YAMLSeq } from 'yaml';
import { ProviderEntry, type ProvidersState } from '../../contract/index';
import { ProviderConfig } from '../agent/providers/config';
import type { SecretStore } from '../secrets/index';
import { deleteTopLevel, editConfigYaml, readConfigDocument } from './config-yaml';
import { SettingsError } from './errors';

/** A key to put in the keychain; the provider's apiKey becomes `${secret:NAME}`. */
export interface NewKey {
  secret: string;
  value: string;
}

const KINDS = ProviderConfig.shape.kind.options as readonly string[];

function providersSeq(doc: Document, file: string): YAMLSeq | undefined {
  const node = doc.get('providers', true);
  if (node === undefined || node === null) return undefined;
  if (!isSeq(node)) throw new SettingsError(`${file}: "providers" must be a list; fix it by hand first, nothing was changed`, 'providers');
  return node;
}

function idOf(item: unknown): string | undefined {
  if (!isMap(item)) return undefined;
  const id = item.get('id');
  return typeof id === 'string' ? id : undefined;
}

/** What config.yaml says, as the faces see it (entries that do not fit the shape show what they have). */
export function providersState(doc: Document, file: string): ProvidersState {
  const seq = providersSeq(doc, file);
  const providers = (seq?.items ?? []).map((item): ProviderEntry => {
    const js: unknown = isMap(item) ? item.toJSON() : item;
    const ok = ProviderEntry.safeParse(js);
    if (ok.success) return ok.data;
    const o = js && typeof js === 'object' ? (js as Record<string, unknown>) : {};
    return { id: String(o.id ?? '?'), kind: String(o.kind ?? ''), model: String(o.model ?? '') };
  });
  const def = doc.get('defaultProvider');
  return { defaultProvider: typeof def === 'string' ? def : null, providers, kinds: [...KINDS], file };
}

export async function listProviders(file: string): Promise<ProvidersState> {
  return providersState(await readConfigDocument(file), file);
}

/** Validates one entry with the agent's own schema; the error names each field at fault. */
export function validateProvider(entry: unknown): ProviderConfig {
  const r = ProviderConfig.safeParse(entry);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => ({ field: i.path.join('.') || '(entry)', message: i.message }));
  throw new SettingsError(`provider: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`, issues[0]!.field);
}

/** The entry with its key reference, validated; a literal key in apiKey is refused. */
function prepare(provider: ProviderEntry, key: NewKey | undefined): ProviderConfig {
  const entry: Record<string, unknown> = { ...provider };
  if (key) entry.apiKey = `\${secret:${key.secret}}`;
  for (const k of Object.keys(entry)) if (entry[k] === undefined || entry[k] === '') delete entry[k];
  return validateProvider(entry);
}

type Secrets = Pick<SecretStore, 'set'>;

/** Sets the map's keys to `entry`'s (scalars in place, so their comments stay) and drops the others. */
function assignInto(doc: Document, map: YAMLMap, entry: Record<string, unknown>): void {
  for (const pair of [...map.items]) {
    const k = String((pair.key as { value?: unknown } | null)?.value ?? pair.key);
    if (!(k in entry)) map.delete(pair.key);
  }
  for (const [k, v] of Object.entries(entry)) {
    if (v !== null && typeof v === 'object') map.set(k, doc.createNode(v));
    else map.set(k, v);
  }
}

export async function addProvider(file: string, secrets: Secrets, provider: ProviderEntry, key?: NewKey): Promise<ProvidersState> {
  const entry = prepare(provider, key);
  return editConfigYaml(file, async (doc) => {
    const seq = providersSeq(doc, file);
    if (seq?.items.some((i) => idOf(i) === entry.id)) throw new SettingsError(`a provider with id "${entry.id}" already exists; pick another id or edit that one`, 'id');
    if (key) await secrets.set(key.secret, key.value);
    if (seq) seq.add(doc.createNode(entry));
    else doc.set('providers', doc.createNode([entry]));
    return providersState(doc, file);
  });
}

export async function updateProvider(file: string, secrets: Secrets, id: string, provider: ProviderEntry, key?: NewKey): Promise<ProvidersState> {
  const entry = prepare(provider, key);
  return editConfigYaml(file, async (doc) => {
    const seq = providersSeq(doc, file);
    const item = seq?.items.find((i) => idOf(i) === id);
    if (!seq || !isMap(item)) throw new SettingsError(`no provider "${id}" in ${file}`, 'id');
    if (entry.id !== id && seq.items.some((i) => idOf(i) === entry.id)) throw new SettingsError(`a provider with id "${entry.id}" already exists`, 'id');
    if (key) await secrets.set(key.secret, key.value);
    assignInto(doc, item, entry);
    if (entry.id !== id && doc.get('defaultProvider') === id) doc.set('defaultProvider', entry.id);
    return providersState(doc, file);
  });
}

export async function removeProvider(file: string, id: string): Promise<ProvidersState> {
  return editConfigYaml(file, (doc) => {
    const seq = providersSeq(doc, file);
    const index = seq?.items.findIndex((i) => idOf(i) === id) ?? -1;
    if (!seq || index < 0) throw new SettingsError(`no provider "${id}" in ${file}`, 'id');
    seq.delete(index);
    if (doc.get('defaultProvider') === id) deleteTopLevel(doc, 'defaultProvider');
    return providersState(doc, file);
  });
}

export async function setDefaultProvider(file: string, id: string | null): Promise<ProvidersState> {
  return editConfigYaml(file, (doc) => {
    if (id === null) deleteTopLevel(doc, 'defaultProvider');
    else {
      const ids = (providersSeq(doc, file)?.items ?? []).map(idOf);
      if (!ids.includes(id)) throw new SettingsError(`no provider "${id}" to make the default; configured: ${ids.filter(Boolean).join(', ') || '(none)'}`, 'defaultProvider');
      doc.set('defaultProvider', id);
    }
    return providersState(doc, file);
  });
}
