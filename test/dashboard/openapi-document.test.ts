import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DASHBOARD_DOCUMENT,
  DASHBOARD_TYPES,
  dashboardDocumentText,
  dashboardTypes,
} from '../../scripts/client-types.mjs';
import { generateDashboardOpenApiDocument, generateOpenApiDocument } from '../../src/openapi/generate.js';

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// The document does not depend on the database, so this suite runs on SQLite only.
describe("the dashboard's OpenAPI document", () => {
  let document: JsonObject;
  beforeAll(async () => {
    document = await generateDashboardOpenApiDocument();
  });

  it('is what dashboard/src/api holds (run `npm run openapi` after changing a dashboard route or schema)', async () => {
    expect(
      fs.readFileSync(DASHBOARD_DOCUMENT, 'utf8') === (await dashboardDocumentText(document)),
      'dashboard/src/api/openapi.json is stale: run `npm run openapi`',
    ).toBe(true);
    expect(
      fs.readFileSync(DASHBOARD_TYPES, 'utf8') === (await dashboardTypes(document)),
      'dashboard/src/api/schema.d.ts is stale: run `npm run openapi`',
    ).toBe(true);
  });

  it("holds the dashboard's own routes and the content routes under a workspace, each with a response schema", async () => {
    expect(document.servers).toEqual([{ url: '/api/v1/dashboard', description: 'This Quire server' }]);
    const paths = Object.keys(document.paths);
    for (const path of ['/session', '/workspaces/{workspaceId}/members', '/workspaces/{workspaceId}/api-keys'])
      expect(paths).toContain(path);
    expect(paths).toContain('/workspaces/{workspaceId}/posts/{idOrSlug}');
    expect(paths.some((path) => path.startsWith('/api/v1/external') || path.startsWith('/health'))).toBe(false);
    const ids = new Set<string>();
    for (const item of Object.values(document.paths as Record<string, JsonObject>)) {
      for (const [method, operation] of Object.entries(item)) {
        ids.add(operation.operationId);
        // A browser navigation's route (single sign-on's) answers with a redirect: that is its success.
        const success = Object.keys(operation.responses).filter((status) => /^[23]\d\d$/.test(status));
        expect(success.length, `${method} has no success response`).toBeGreaterThan(0);
      }
    }
    expect(ids.size).toBe(paths.reduce((sum, path) => sum + Object.keys(document.paths[path]).length, 0));
    // The external document is unchanged by the dashboard's.
    const external = await generateOpenApiDocument();
    expect(Object.keys(external.paths as object).some((path) => path.startsWith('/workspaces'))).toBe(false);
  });
});
