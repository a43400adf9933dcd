import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe } from 'vitest';
import type { DialectName } from '../../src/db/dialects/dialect.js';
import { services } from './services.js';

export const DIALECTS: DialectName[] = ['sqlite', 'postgres'];

/** A database of its own for one test file: a temp SQLite dir, or a PostgreSQL database created and dropped here. */
export interface TestDatabase {
  dialect: DialectName;
  dataDir: string;
  databaseUrl: string | null;
  drop(): Promise<void>;
}

function databaseUrlFor(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-test-'));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite') return { dialect, dataDir, databaseUrl: null, drop: async () => removeDir() };

  if (!services.postgresUrl) throw new Error('QUIRE_TEST_DATABASE_URL is not set');
  const name = `quire_t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: services.postgresUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    dialect,
    dataDir,
    databaseUrl: databaseUrlFor(services.postgresUrl, name),
    async drop() {
      const client = new pg.Client({ connectionString: services.postgresUrl! });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
      removeDir();
    },
  };
}

/**
 * Runs a suite once per dialect, Kysely's way. PostgreSQL runs when QUIRE_TEST_DATABASE_URL is set;
 * otherwise its suite is reported as skipped, by name, with the reason.
 */
export function describeEachDialect(title: string, suite: (dialect: DialectName) => void): void {
  for (const dialect of DIALECTS) {
    if (dialect === 'postgres' && !services.postgresUrl) {
      describe.skip(`${title} [postgres: skipped, QUIRE_TEST_DATABASE_URL is not set]`, () => suite(dialect));
    } else {
      describe(`${title} [${dialect}]`, () => suite(dialect));
    }
  }
}
