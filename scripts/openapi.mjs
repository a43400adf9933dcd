// `npm run openapi`: writes the OpenAPI document of the external API to packages/client/openapi.json and
// the client's types generated from it to packages/client/src/schema.d.ts; the content API's to
// packages/client/content-openapi.json and packages/client/src/content-schema.d.ts; and the dashboard's own document
// to dashboard/src/api/openapi.json with its types in dashboard/src/api/schema.d.ts. It builds the app from dist/
// (the script compiles it first) and asks @fastify/swagger for the document: no server, no database.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  clientTypes,
  contentClientTypes,
  DASHBOARD_DOCUMENT,
  DASHBOARD_TYPES,
  dashboardDocumentText,
  dashboardTypes,
} from './client-types.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { generateOpenApiDocument, generateDashboardOpenApiDocument, generateContentOpenApiDocument } = await import(
  pathToFileURL(path.join(root, 'dist/openapi/generate.js')).href
);

const document = await generateOpenApiDocument();
const client = path.join(root, 'packages/client');
fs.writeFileSync(path.join(client, 'openapi.json'), `${JSON.stringify(document, null, 2)}\n`);
fs.writeFileSync(path.join(client, 'src/schema.d.ts'), await clientTypes(document));
process.stdout.write(
  `wrote packages/client/openapi.json (${Object.keys(document.paths).length} paths) and packages/client/src/schema.d.ts\n`,
);

const contentDocument = await generateContentOpenApiDocument();
fs.writeFileSync(path.join(client, 'content-openapi.json'), `${JSON.stringify(contentDocument, null, 2)}\n`);
fs.writeFileSync(path.join(client, 'src/content-schema.d.ts'), await contentClientTypes(contentDocument));
process.stdout.write(
  `wrote packages/client/content-openapi.json (${Object.keys(contentDocument.paths).length} paths) and packages/client/src/content-schema.d.ts\n`,
);
const dashboardDocument = await generateDashboardOpenApiDocument();
fs.mkdirSync(path.dirname(DASHBOARD_DOCUMENT), { recursive: true });
fs.writeFileSync(DASHBOARD_DOCUMENT, await dashboardDocumentText(dashboardDocument));
fs.writeFileSync(DASHBOARD_TYPES, await dashboardTypes(dashboardDocument));
process.stdout.write(
  `wrote dashboard/src/api/openapi.json (${Object.keys(dashboardDocument.paths).length} paths) and dashboard/src/api/schema.d.ts\n`,
);
