import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../dashboard/src/api.js';
import { libraryFeedback } from '../../dashboard/src/library/feedback.js';
import { SEO_LABELS, seoIssues } from '../../dashboard/src/seo/seo-labels.js';

// A .tsx module: loaded at run time, as the server's type check has no JSX.
const editorModule = '../../dashboard/src/seo/SeoEditor.tsx';
const { SeoEditor, seoBinding } = (await import(editorModule)) as {
  SeoEditor: FunctionComponent<Record<string, unknown>>;
  seoBinding(props: Record<string, unknown>): {
    set(path: readonly string[], value: unknown): void;
    error(path: readonly string[]): string | undefined;
  };
};

const render = (props: Record<string, unknown>) =>
  renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client: new QueryClient() },
      createElement(SeoEditor, { onChange: () => undefined, workspaceId: 'w', ...props }),
    ),
  );

/** The markup of the field labelled `label`: from its label to the end of its wrapper. */
function fieldOf(html: string, label: string): string {
  const start = html.indexOf(`>${label}</label>`);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('<div class="field">', start + 1));
}

describe('the one SEO editor', () => {
  it('sets a nested value in place and, cleared, hands back null rather than an empty object', () => {
    const changes: unknown[] = [];
    let value: unknown = { title: 'Kept' };
    const bind = () => seoBinding({ value, onChange: (seo: unknown) => changes.push((value = seo)), errors: {} });
    bind().set(['og', 'title'], 'Shared');
    expect(value).toEqual({ title: 'Kept', og: { title: 'Shared' } });
    bind().set(['og', 'title'], '');
    expect(value).toEqual({ title: 'Kept' });
    bind().set(['title'], '');
    expect(changes.at(-1)).toBeNull();

    // An edit undone hands back the stored copy itself, so a form's save sends no `seo`.
    const saved = { og: { title: 'Shared' } };
    value = saved;
    const withSaved = () => seoBinding({ value, onChange: (seo: unknown) => (value = seo), errors: {}, saved });
    withSaved().set(['og', 'title'], 'Other');
    expect(value).toEqual({ og: { title: 'Other' } });
    withSaved().set(['og', 'title'], 'Shared');
    expect(value).toBe(saved);
  });

  it('shows the value it is given and a refusal, by its JSON Pointer, on its field', () => {
    const feedback = libraryFeedback(
      new ApiError(400, 'VALIDATION_FAILED', 'body is not valid', {
        issues: [{ path: '/seo/og/title', message: 'must NOT have more than 300 characters' }],
      }),
      SEO_LABELS,
    );
    expect(feedback.summary).toBe('Check Title when shared.');
    const errors = seoIssues(feedback.fields);
    expect(Object.keys(errors)).toEqual(['/seo/og/title']);

    const html = render({ value: { og: { title: 'Long' }, canonicalUrl: 'https://example.com/a' }, errors });
    const shared = fieldOf(html, 'Title when shared');
    expect(shared).toContain('aria-invalid="true"');
    expect(shared).toContain('value="Long"');
    expect(shared).toContain(errors['/seo/og/title']);
    expect(fieldOf(html, 'Canonical address')).toContain('value="https://example.com/a"');
    expect(fieldOf(html, 'Canonical address')).not.toContain('aria-invalid');
    // The group holding the refused field is open, and says so.
    expect(html).toMatch(
      /<details class="seo-section" open="">\s*<summary>Social sharing<span class="field-error"> — see the marked fields/,
    );
  });
});
