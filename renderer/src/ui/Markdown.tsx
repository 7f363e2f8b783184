import { useMemo } from 'react';
import { renderMarkdown } from './markdown';

/** Rendered markdown (raw HTML escaped, unsafe links dropped: see markdown.ts). */
export function Markdown({ source, className = '', testId }: { source: string; className?: string; testId?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <div className={`markdown ${className}`} data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}
