import { describe, expect, it } from 'vitest';
import { checkReferrer, normalizePath, normalizeTarget, pathOfTarget } from './url-path.js';

const value = (result: ReturnType<typeof normalizePath>) => (result.ok ? result.value : `ERROR: ${result.message}`);

describe('normalizePath', () => {
  it('adds the leading slash, drops the trailing one except for the root, collapses runs of slashes', () => {
    expect(value(normalizePath('a', 'refuse'))).toBe('/a');
    expect(value(normalizePath('/a/', 'refuse'))).toBe('/a');
    expect(value(normalizePath('a/b/', 'refuse'))).toBe('/a/b');
    expect(value(normalizePath('/', 'refuse'))).toBe('/');
    expect(value(normalizePath('///', 'refuse'))).toBe('/');
    expect(value(normalizePath('//evil.example/x', 'refuse'))).toBe('/evil.example/x');
  });

  it('keeps case and normalises percent-encoding', () => {
    expect(value(normalizePath('/About', 'refuse'))).toBe('/About');
    expect(value(normalizePath('/caf%c3%a9', 'refuse'))).toBe('/caf%C3%A9');
    expect(value(normalizePath('/café', 'refuse'))).toBe('/caf%C3%A9');
    expect(value(normalizePath('/%7Euser/%41', 'refuse'))).toBe('/~user/A');
    expect(value(normalizePath('/a b\\c', 'refuse'))).toBe('/a%20b%5Cc');
    expect(value(normalizePath('/a%2Fb', 'refuse'))).toBe('/a%2Fb');
    expect(value(normalizePath("/a:b@c!$&'()*+,;=", 'refuse'))).toBe("/a:b@c!$&'()*+,;=");
  });

  it('refuses broken escapes, dot segments, control characters, URLs and empty input', () => {
    for (const bad of [
      '/a%',
      '/a%zz',
      '/a/../b',
      '/./a',
      '/%2e%2E/a',
      '/a\nb',
      '/a\u0000',
      'https://x.example/a',
      'mailto:x',
      '',
      '/\uD800',
    ]) {
      expect(normalizePath(bad, 'refuse').ok, JSON.stringify(bad)).toBe(false);
    }
  });

  it('refuses, strips or keeps a query string and fragment', () => {
    expect(normalizePath('/a?x=1', 'refuse').ok).toBe(false);
    expect(normalizePath('/a#top', 'refuse').ok).toBe(false);
    expect(value(normalizePath('/a/?utm_source=x#top', 'strip'))).toBe('/a');
    expect(value(normalizePath('/a/?q=caf%c3%a9 x#top', 'keep'))).toBe('/a?q=caf%C3%A9%20x#top');
  });

  it('refuses a path longer than the limit once normalised', () => {
    expect(normalizePath(`/${'a'.repeat(1999)}`, 'refuse').ok).toBe(true);
    expect(normalizePath(`/${'é'.repeat(400)}`, 'refuse').ok).toBe(false);
  });
});

describe('normalizeTarget', () => {
  it('takes a path like normalizePath, keeping query and fragment', () => {
    expect(value(normalizeTarget('new/'))).toBe('/new');
    expect(value(normalizeTarget('/docs/#install'))).toBe('/docs#install');
  });

  it('takes an absolute http(s) URL in its WHATWG form', () => {
    expect(value(normalizeTarget('HTTPS://Example.COM/a b'))).toBe('https://example.com/a%20b');
    expect(value(normalizeTarget('http://example.com'))).toBe('http://example.com/');
  });

  it('refuses other schemes and credentials', () => {
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      'ftp://example.com/',
      'https://trusted.example@evil.example/',
      'https://',
    ]) {
      expect(normalizeTarget(bad).ok, bad).toBe(false);
    }
  });
});

describe('pathOfTarget', () => {
  it('is the path part of a local target and null for a URL', () => {
    expect(pathOfTarget('/a?x#y')).toBe('/a');
    expect(pathOfTarget('/a')).toBe('/a');
    expect(pathOfTarget('https://example.com/a')).toBeNull();
  });
});

describe('checkReferrer', () => {
  it('takes a path or an http(s) URL as sent', () => {
    expect(value(checkReferrer('/from/here?x=1'))).toBe('/from/here?x=1');
    expect(value(checkReferrer('https://search.example/?q=quire'))).toBe('https://search.example/?q=quire');
  });

  it('refuses anything else', () => {
    for (const bad of ['search.example/page', 'javascript:alert(1)', '/a\r\nSet-Cookie: x', ''])
      expect(checkReferrer(bad).ok, bad).toBe(false);
  });
});
