import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
  it('renders headings, lists, code and safe links', () => {
    const html = renderMarkdown('# Title\n\n- a\n- b\n\n`x`\n\n[docs](https://example.com)');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<li>a</li>');
    expect(html).toContain('<code>x</code>');
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('rel="noreferrer noopener"');
  });
  it('shows raw HTML as text and drops javascript: links and images', () => {
    const html = renderMarkdown('<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1)) ![i](http://e/x.png)\n\n<script>alert(1)</script>');
    expect(html).not.toMatch(/<img|<script|javascript:/i);
    expect(html).toContain('&#60;script&#62;');
  });

  it('hides an HTML comment (a document\'s commit stamp), and only a whole comment', () => {
    const html = renderMarkdown('# Doc\n\nText.\n\n<!-- erasmus: describes commit dc9c0aa21eaa -->\n');
    expect(html).not.toContain('describes commit');
    expect(html).toContain('Text.');
    expect(renderMarkdown('<!-- a --><script>x</script>\n')).toContain('&#60;script&#62;');
  });
});
