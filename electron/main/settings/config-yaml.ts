import { readFile } from 'node:fs/promises';
import { isMap, isScalar, parseDocument, type Document } from 'yaml';
import { writeFileAtomic } from '../common/fs';
import { SettingsError } from './errors';

/**
 * config.yaml as a YAML Document: edits go through the document, so comments, key order and keys
 * that belong to other parts survive a change. A missing file is an empty document.
 */
export async function readConfigDocument(file: string): Promise<Document> {
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new SettingsError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const doc = parseDocument(text);
  if (doc.errors.length) throw new SettingsError(`${file} is not valid YAML (${doc.errors[0]!.message.split('\n')[0]}); fix it by hand first, nothing was changed`);
  if (doc.contents !== null && !isMap(doc.contents)) throw new SettingsError(`${file} must be a mapping of settings at the top level; nothing was changed`);
  return doc;
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Reads config.yaml, lets `edit` change the document (it throws to refuse: nothing is written), then
 * writes it atomically. Edits of one file run one after another.
 */
export function editConfigYaml<T>(file: string, edit: (doc: Document) => T | Promise<T>): Promise<T> {
  const next = (queues.get(file) ?? Promise.resolve()).then(async () => {
    const doc = await readConfigDocument(file);
    const result = await edit(doc);
    await writeFileAtomic(file, configText(doc));
    return result;
  });
  queues.set(
    file,
    next.catch(() => undefined),
  );
  return next;
}

/**
 * The document as text. An empty document would print as `null`, which no later read accepts as
 * settings: it is written as its comments only (or nothing).
 */
function configText(doc: Document): string {
  if (doc.contents !== null) return doc.toString();
  return doc.commentBefore ? doc.commentBefore.split('\n').map((line) => `#${line}`).join('\n') + '\n' : '';
}

/** Deletes a top-level key; a comment above it moves to the next key (it may be the file's header). */
export function deleteTopLevel(doc: Document, key: string): void {
  const map = doc.contents;
  if (!isMap(map)) return;
  const index = map.items.findIndex((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
  if (index < 0) return;
  const pair = map.items[index]!;
  const comment = isScalar(pair.key) ? pair.key.commentBefore : undefined;
  map.items.splice(index, 1);
  if (!comment) return;
  const next = map.items[index];
  if (next && isScalar(next.key)) next.key.commentBefore = next.key.commentBefore ? `${comment}\n${next.key.commentBefore}` : comment;
  else if (index === 0) doc.commentBefore = doc.commentBefore ? `${doc.commentBefore}\n${comment}` : comment;
}
