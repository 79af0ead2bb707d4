import { renderContent, renderExcerpt, renderTitle } from './render.js';

describe('render', () => {
  it('renders titles: texturize and trim', () => {
    expect(renderTitle('  Rock & Roll  ')).toBe('Rock &#038; Roll');
    expect(renderTitle("Don't stop")).toBe('Don&#8217;t stop');
    expect(renderTitle('An event')).toBe('An event');
  });

  it('renders content: texturize, paragraphs, trim', () => {
    expect(renderContent('An event content')).toBe('<p>An event content</p>');
    expect(renderContent('Rock & Roll\n\nIt\'s "live"')).toBe(
      '<p>Rock &#038; Roll</p>\n<p>It&#8217;s &#8220;live&#8221;</p>',
    );
    expect(renderContent('')).toBe('');
  });

  it('renders excerpts like content; empty stays empty', () => {
    expect(renderExcerpt('')).toBe('');
    expect(renderExcerpt('An event excerpt')).toBe('<p>An event excerpt</p>');
  });
});
