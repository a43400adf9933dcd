import { describe, expect, it } from 'vitest';
import { FrontMatterError, splitFrontMatter } from './front-matter.js';

const errorOf = (text: string): FrontMatterError => {
  try {
    splitFrontMatter(text);
  } catch (error) {
    if (error instanceof FrontMatterError) return error;
    throw error;
  }
  throw new Error('no error');
};

describe('splitFrontMatter', () => {
  it('reads YAML between --- lines, and the body after it', () => {
    const split = splitFrontMatter('---\ntitle: Hi\ntags: [a, b]\n---\nBody\n');
    expect(split).toEqual({ data: { title: 'Hi', tags: ['a', 'b'] }, body: 'Body\n' });
  });

  it('reads TOML between +++ lines, tables included', () => {
    const split = splitFrontMatter('+++\ntitle = "Hi"\n[params]\nmood = "calm"\n+++\nBody');
    expect(split.data).toEqual({ title: 'Hi', params: { mood: 'calm' } });
    expect(split.body).toBe('Body');
  });

  it('reads a JSON object at the top, braces inside its strings included', () => {
    const split = splitFrontMatter('{\n  "title": "A } and a {",\n  "n": 1\n}\n\nBody');
    expect(split.data).toEqual({ title: 'A } and a {', n: 1 });
    expect(split.body).toBe('\nBody');
  });

  it('gives an empty map when there is none, or when it is empty', () => {
    expect(splitFrontMatter('# Just Markdown')).toEqual({ data: {}, body: '# Just Markdown' });
    expect(splitFrontMatter('---\n---\nBody').data).toEqual({});
  });

  it('keeps YAML dates as their text and builds nothing from a custom tag', () => {
    const split = splitFrontMatter('---\ndate: 2024-01-02\nobj: !ruby/object:Foo\n  a: 1\n---\n');
    expect(split.data.date).toBe('2024-01-02');
    expect(split.data.obj).toEqual({ a: 1 });
  });

  it('names the line of the file where malformed YAML fails', () => {
    const error = errorOf('---\ntitle: ok\ntags: [a\ndate: x\n---\nBody');
    expect(error.line).toBeGreaterThanOrEqual(3);
    expect(error.message).toMatch(/^line \d+: Flow sequence/);
    expect(error.message).not.toMatch(/column/);
  });

  it('names the line where malformed TOML fails', () => {
    expect(errorOf('+++\ntitle = "ok"\ntitle = "twice"\n+++\n').line).toBe(3);
  });

  it('names the line where malformed JSON fails, and an unclosed one', () => {
    expect(errorOf('{\n  "a": 1,\n  "b" 2\n}\n').line).toBe(3);
    expect(errorOf('{ "a": 1\n\nBody').message).toContain('no closing }');
  });

  it('refuses front matter that is never closed, or is not a map', () => {
    expect(errorOf('---\ntitle: x\nBody').message).toContain('never closed');
    expect(errorOf('---\n- a\n- b\n---\n').message).toContain('not a map');
  });

  it('refuses an alias bomb rather than expanding it', () => {
    const bomb = ['---', 'a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]'];
    bomb.push('c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]', '---');
    expect(errorOf(bomb.join('\n')).message).toMatch(/alias/i);
  });
});
