import { parseFragment, serialize } from 'parse5';
import { describe, expect, it } from 'vitest';
import { wpautop } from './wpautop.js';

const autop = (html: string) => {
  const fragment = parseFragment(html);
  wpautop(fragment);
  return serialize(fragment);
};

describe('wpautop', () => {
  it('makes paragraphs of blank lines and line breaks of newlines', () => {
    expect(autop('One\ntwo\n\nThree <em>four</em>\n\n\n')).toBe('<p>One<br>two</p><p>Three <em>four</em></p>');
  });

  it('leaves block elements as they are and wraps the text between them', () => {
    expect(autop('Intro\n<h2>Title</h2>\nAfter\n<ul>\n<li>a</li>\n</ul>')).toBe(
      '<p>Intro</p><h2>Title</h2><p>After</p><ul><li>a</li></ul>',
    );
  });

  it('leaves preformatted text alone', () => {
    expect(autop('<pre>a\n\nb\n</pre>')).toBe('<pre>a\n\nb\n</pre>');
  });

  it('puts a quote in paragraphs, and leaves a list item unwrapped unless a blank line parts it', () => {
    expect(autop('<blockquote>Quoted\nline</blockquote>')).toBe('<blockquote><p>Quoted<br>line</p></blockquote>');
    expect(autop('<ul><li>one\ntwo</li><li>a\n\nb</li></ul>')).toBe(
      '<ul><li>one<br>two</li><li><p>a</p><p>b</p></li></ul>',
    );
  });

  it('writes one break where a <br> stands beside a newline', () => {
    expect(autop('a<br />\nb')).toBe('<p>a<br>b</p>');
  });
});
