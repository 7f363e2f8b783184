import { useMemo } from 'react';
import { renderInlineMarkdown, renderMarkdown } from './markdown';

/** Rendered markdown (raw HTML escaped, unsafe links dropped: see markdown.ts). */
export function Markdown({ source, className = '', testId }: { source: string; className?: string; testId?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <div className={`markdown ${className}`} data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** One line of rendered markdown in running text (a task title with `code`). */
export function InlineMarkdown({ source, className = '', testId }: { source: string; className?: string; testId?: string }) {
  const html = useMemo(() => renderInlineMarkdown(source), [source]);
  return <span className={`markdown ${className}`} data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}
