import { describe, expect, it } from 'vitest';
import { parseAttributes, replaceShortcodes } from './shortcodes.js';

const names = (text: string) => {
  const found: string[] = [];
  const out = replaceShortcodes(text, (shortcode) => {
    found.push(`${shortcode.name}:${JSON.stringify(shortcode.attrs)}:${shortcode.content}`);
    return '#';
  });
  return { out, found };
};

describe('shortcodes', () => {
  it('reads attributes as WordPress does: quoted, unquoted and positional', () => {
    expect(parseAttributes(` id="5" title='Say "hi"' width=300 https://youtu.be/x "pos two"`)).toEqual({
      id: '5',
      title: 'Say "hi"',
      width: '300',
      '0': 'https://youtu.be/x',
      '1': 'pos two',
    });
  });

  it('reads self-closing and enclosing shortcodes, the closing tag found after the opening', () => {
    expect(names('a [gallery ids="1,2"] b [caption id="x"]<img>c[/caption] d [embed /]')).toEqual({
      out: 'a # b # d #',
      found: ['gallery:{"ids":"1,2"}:null', 'caption:{"id":"x"}:<img>c', 'embed:{}:null'],
    });
  });

  it('leaves bracketed words that are no shortcode as text, and writes an escaped one as its text', () => {
    expect(names('[sic] [citation needed] [1] [[gallery]] [[caption]x[/caption]]')).toEqual({
      out: '[sic] [citation needed] [1] [gallery] [caption]x[/caption]',
      found: [],
    });
  });

  it('takes a name with an underscore or a hyphen, or an attribute, for a shortcode', () => {
    expect(names('[contact-form-7 id="1"] [su_box] [plugin a=b] [word]').found).toEqual([
      'contact-form-7:{"id":"1"}:null',
      'su_box:{}:null',
      'plugin:{"a":"b"}:null',
    ]);
  });

  it('reads Jetpack’s [youtube=URL] form', () => {
    expect(names('[youtube=https://www.youtube.com/watch?v=dQw4w9WgXcQ]').found).toEqual([
      'youtube:{"0":"=https://www.youtube.com/watch?v=dQw4w9WgXcQ"}:null',
    ]);
  });
});
