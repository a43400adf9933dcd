import crypto from 'node:crypto';

/**
 * The review page's own CSS: a readable column in system fonts, light and dark, and the classes of the blocks'
 * HTML (docs/blocks.md). It is inline, so the page loads nothing of ours but its images, and allowed by its hash.
 */
export const REVIEW_PAGE_CSS = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2023; --muted: #5b5e66; --rule: #dcdde1; --accent: #0b57d0; --soft: #f3f4f6;
  --banner-bg: #fff3cd; --banner-fg: #4d3800; --banner-rule: #ecd07e;
  --warn: #a85f00; --good: #1e7f3c; --bad: #b3261e;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #17181b; --fg: #e6e6e9; --muted: #a6a9b0; --rule: #35373d; --accent: #8ab4f8; --soft: #212328;
    --banner-bg: #3a3012; --banner-fg: #ffe08a; --banner-rule: #5a4a1a;
    --warn: #f2b24a; --good: #6dd58c; --bad: #f28b82;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--fg);
  font: 1.0625rem/1.65 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  overflow-wrap: break-word;
}
@media (min-width: 48rem) { body { font-size: 1.1875rem; } }
.banner { background: var(--banner-bg); color: var(--banner-fg); border-bottom: 1px solid var(--banner-rule); }
.banner-inner, main { max-width: 42rem; margin: 0 auto; padding-left: 1.25rem; padding-right: 1.25rem; }
.banner-inner { padding-top: .7rem; padding-bottom: .7rem; font-size: .875rem; line-height: 1.45; }
.banner p { margin: 0; }
.banner .status { font-size: 1rem; font-weight: 700; }
main { padding-top: 2.25rem; padding-bottom: 4rem; }
h1 {
  font-size: clamp(1.875rem, 1.3rem + 2.6vw, 2.75rem); line-height: 1.15; letter-spacing: -.015em;
  margin: 0 0 .75rem; text-wrap: balance;
}
.excerpt { font-size: 1.125em; line-height: 1.55; color: var(--muted); margin: 0 0 1.75rem; }
.notice h1 { font-size: clamp(1.5rem, 1.2rem + 1.6vw, 2rem); }
.notice p { color: var(--muted); }
img { max-width: 100%; height: auto; }
figure { margin: 2rem 0; }
.featured img, .quire-image img { display: block; border-radius: 6px; }
.featured img { width: 100%; }
figcaption { font-size: .875rem; color: var(--muted); margin-top: .5rem; }
.body h2 { font-size: 1.5em; line-height: 1.25; margin: 2.25rem 0 .75rem; }
.body h3 { font-size: 1.25em; line-height: 1.3; margin: 2rem 0 .5rem; }
.body h4 { font-size: 1.05em; margin: 1.75rem 0 .5rem; }
.body p, .body ul, .body ol { margin: 0 0 1.15rem; }
.body ul, .body ol { padding-left: 1.5rem; }
.body li { margin: .3rem 0; }
a { color: var(--accent); text-underline-offset: .15em; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
:not(pre) > code { font-size: .875em; background: var(--soft); padding: .1em .3em; border-radius: 4px; }
pre {
  background: var(--soft); padding: 1rem 1.1rem; border-radius: 6px; overflow-x: auto;
  font-size: .85em; line-height: 1.5; margin: 1.5rem 0;
}
blockquote { margin: 0; padding-left: 1.25rem; border-left: 3px solid var(--rule); font-style: italic; }
blockquote p { margin: 0 0 .5rem; }
.quire-quote figcaption { padding-left: calc(1.25rem + 3px); margin-top: .25rem; }
.quire-quote figcaption::before { content: "— "; }
hr { border: 0; border-top: 1px solid var(--rule); margin: 2.5rem 0; }
.quire-callout { border-left: 4px solid var(--accent); background: var(--soft); padding: .8rem 1rem; margin: 1.5rem 0; }
.quire-callout--warning { border-color: var(--warn); }
.quire-callout--success { border-color: var(--good); }
.quire-callout--error { border-color: var(--bad); }
.quire-callout p { margin: .25rem 0; }
.quire-callout__title { font-weight: 700; }
.quire-embed { border: 1px solid var(--rule); border-radius: 6px; padding: .9rem 1rem; }
.quire-faq { margin: 1.5rem 0; }
.quire-faq details { border-bottom: 1px solid var(--rule); padding: .6rem 0; }
.quire-faq summary { cursor: pointer; font-weight: 600; }
.quire-faq details p { margin: .5rem 0 0; }
.quire-cta { border: 1px solid var(--rule); border-radius: 8px; padding: 1.25rem; margin: 2rem 0; }
.body .quire-cta__title { margin-top: 0; }
.quire-cta__button {
  display: inline-block; background: var(--accent); color: var(--bg); padding: .5rem 1rem; border-radius: 6px;
  text-decoration: none; font-weight: 600;
}
.quire-takeaways { background: var(--soft); border-radius: 8px; padding: 1rem 1.25rem; margin: 2rem 0; }
.body .quire-takeaways__title { font-size: 1.1em; margin: 0 0 .5rem; }
.quire-takeaways ul { margin-bottom: 0; }
`;

/** The CSP source that allows exactly this CSS. */
export const REVIEW_PAGE_CSS_SOURCE = `'sha256-${crypto.createHash('sha256').update(REVIEW_PAGE_CSS).digest('base64')}'`;
