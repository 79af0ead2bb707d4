import { threadCpuMs } from '../cpu.js';
import { autop } from './autop.js';

describe('autop (wpautop)', () => {
  it.each([
    ['An event content', '<p>An event content</p>'],
    ['a\n\nb', '<p>a</p>\n<p>b</p>'],
    ['a\n\n\n\nb', '<p>a</p>\n<p>b</p>'],
    ['a\nb', '<p>a<br />\nb</p>'],
    ['a\r\nb\r\n\r\nc', '<p>a<br />\nb</p>\n<p>c</p>'],
    ['<div>block</div>', '<div>block</div>'],
    ['<h2>Title</h2>\nText', '<h2>Title</h2>\n<p>Text</p>'],
    ['<ul>\n<li>one</li>\n<li>two</li>\n</ul>', '<ul>\n<li>one</li>\n<li>two</li>\n</ul>'],
    ['<p>already</p>', '<p>already</p>'],
    ['<blockquote>q</blockquote>', '<blockquote><p>q</p></blockquote>'],
    ['<strong>inline</strong> text', '<p><strong>inline</strong> text</p>'],
    ['a<br><br>b', '<p>a</p>\n<p>b</p>'],
    ['text\n<hr />\nmore', '<p>text</p>\n<hr />\n<p>more</p>'],
    ['a<br />\nb', '<p>a<br />\nb</p>'],
    ['a  \n  b', '<p>a<br />\n  b</p>'],
    ['', ''],
    ['  \n ', ''],
  ])('%j', (input, expected) => {
    expect(autop(input)).toBe(expected);
  });

  it('keeps <pre> content as is', () => {
    expect(autop('intro\n\n<pre>line 1\n\nline 2</pre>\n\noutro')).toBe(
      '<p>intro</p>\n<pre>line 1\n\nline 2</pre>\n<p>outro</p>',
    );
  });

  it('restores several <pre> blocks in place', () => {
    expect(autop('<pre>1\n\n2</pre>\nmid\n<pre>3</pre>')).toBe(
      '<pre>1\n\n2</pre>\n<p>mid</p>\n<pre>3</pre>',
    );
  });

  it('stays linear on long runs of spaces', () => {
    const started = threadCpuMs();
    expect(autop('a' + ' '.repeat(50000) + 'b')).toBe('<p>a' + ' '.repeat(50000) + 'b</p>');
    expect(threadCpuMs() - started).toBeLessThan(1000);
  });

  it('keeps newlines inside tags', () => {
    expect(autop('<a\nhref="x">link</a>')).toBe('<p><a\nhref="x">link</a></p>');
  });
});
