import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openRuntime } from '../runtime.js';
import { CONTENT_DOCUMENT } from './content-document.js';
import { DASHBOARD_DOCUMENT } from './dashboard-document.js';
import type { FastifyInstance } from 'fastify';

/**
 * The OpenAPI document of the external API, from the same buildApp as the server, without listening
 * and without touching any real data: a throwaway data dir, no migrations (no route is called).
 */
export function generateOpenApiDocument(): Promise<Record<string, unknown>> {
  return documentOf((app) => app.swagger() as unknown as Record<string, unknown>);
}

/** The dashboard's document (src/openapi/dashboard-document.ts), built the same way. */
export function generateDashboardOpenApiDocument(): Promise<Record<string, unknown>> {
  return documentOf((app) => (app as unknown as Record<string, () => Record<string, unknown>>)[DASHBOARD_DOCUMENT]!());
}

/** The content API's document (src/openapi/content-document.ts), built the same way. */
export function generateContentOpenApiDocument(): Promise<Record<string, unknown>> {
  return documentOf((app) => (app as unknown as Record<string, () => Record<string, unknown>>)[CONTENT_DOCUMENT]!());
}

async function documentOf(read: (app: FastifyInstance) => Record<string, unknown>): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-openapi-'));
  try {
    const config = loadConfig({
      QUIRE_DATA_DIR: dataDir,
      QUIRE_MASTER_KEY: Buffer.alloc(32).toString('base64'),
      LOG_LEVEL: 'silent',
    });
    const runtime = await openRuntime(config, { migrate: false });
    try {
      const app = await buildApp({ config, database: runtime.database, masterKey: runtime.masterKey });
      await app.ready();
      const document = read(app);
      await app.close();
      return document;
    } finally {
      await runtime.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
