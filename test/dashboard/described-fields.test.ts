import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../dashboard/src/api.js';
import { labelsOf } from '../../dashboard/src/forms/describe.js';
import { REDIRECT_FIELDS, TAG_FIELDS } from '../../dashboard/src/forms/descriptions.js';
import { libraryFeedback } from '../../dashboard/src/library/feedback.js';

// A .tsx module: loaded at run time, as the server's type check has no JSX.
const renderer = '../../dashboard/src/forms/DescribedFields.tsx';
const { DescribedFields } = (await import(renderer)) as { DescribedFields: FunctionComponent<Record<string, unknown>> };

const refusal = (issues: Array<{ path: string; message: string }>) =>
  new ApiError(400, 'VALIDATION_FAILED', 'body is not valid', { issues });

describe("a form drawn from its resource's description", () => {
  it("puts the server's refusal under its field in the shared words, and names it by its label", () => {
    const feedback = libraryFeedback(
      refusal([
        { path: '/fromPath', message: 'must NOT have fewer than 1 characters' },
        { path: '/statusCode', message: 'must be equal to one of the allowed values' },
      ]),
      labelsOf(REDIRECT_FIELDS),
    );
    expect(feedback.fields).toEqual({
      fromPath: 'This cannot be empty.',
      statusCode: 'Choose one of the listed values.',
    });
    expect(feedback.summary).toBe('Check From, Kind.');

    const html = renderToStaticMarkup(
      createElement(DescribedFields, {
        fields: REDIRECT_FIELDS,
        values: { fromPath: '', toPath: '/new', statusCode: '308' },
        errors: feedback.fields,
        onChange: () => undefined,
        autofocus: 'fromPath',
      }),
    );
    expect(html).toContain('<label');
    expect(html.match(/aria-invalid="true"/g)).toHaveLength(2);
    expect(html).toContain('<p id="');
    expect(html).toContain('class="field-error">This cannot be empty.</p>');
    expect(html).toContain('The old path on your site, such as /old-page.');
    expect(html).toMatch(/<option value="308" selected="">308: moved for good, same method<\/option>/);
    expect(html).toContain('data-autofocus="true"');
  });

  it('draws each described field once, in order, with its limit and a hint given for the moment', () => {
    const html = renderToStaticMarkup(
      createElement(DescribedFields, {
        fields: TAG_FIELDS,
        values: { name: 'News', slug: '' },
        errors: {},
        onChange: () => undefined,
        hints: { slug: 'Leave empty to make one from the name.' },
      }),
    );
    const labels = [...html.matchAll(/<label[^>]*>([^<]+)<\/label>/g)].map((match) => match[1]);
    expect(labels).toEqual(['Name', 'Slug']);
    expect(html).toContain('maxLength="100"');
    expect(html).toContain('class="field field-mono"');
    expect(html).toContain('Leave empty to make one from the name.');
    expect(html).not.toContain('aria-invalid');
  });
});
