import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/sitemaps');
const SITEMAP_XSD = path.resolve(import.meta.dirname, '../../node_modules/sitemap/schema/sitemap.xsd');

/** The sitemap index's schema, written from the protocol's text (no registry the tests reach holds the original). */
export const SITEINDEX_XSD = path.join(FIXTURES, 'siteindex.xsd');

/**
 * A schema for xmllint that brings sitemaps.org's own sitemap.xsd (from the `sitemap` package) and the image
 * extension together, as `processContents="strict"` needs every namespace a urlset holds to be declared.
 */
export function urlsetSchema(dir: string): string {
  const file = path.join(dir, 'urlset.xsd');
  fs.writeFileSync(
    file,
    `<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <xsd:import namespace="http://www.sitemaps.org/schemas/sitemap/0.9" schemaLocation="${SITEMAP_XSD}"/>
  <xsd:import namespace="http://www.google.com/schemas/sitemap-image/1.1" schemaLocation="${path.join(FIXTURES, 'sitemap-image.xsd')}"/>
</xsd:schema>
`,
  );
  return file;
}

/** xmllint's verdict on a document: its "validates" line, or INVALID and why. */
export async function xmllint(dir: string, xml: string, schema: string): Promise<string> {
  const file = path.join(dir, `doc-${Math.random().toString(36).slice(2)}.xml`);
  fs.writeFileSync(file, xml);
  try {
    const { stderr } = await run('xmllint', ['--noout', '--schema', schema, file]);
    return stderr;
  } catch (error) {
    return `INVALID ${(error as { stderr?: string }).stderr ?? String(error)}`;
  }
}
