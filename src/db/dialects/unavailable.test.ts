import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgPool, postgresHelpers } from './postgres/index.js';
import { sqliteHelpers } from './sqlite/index.js';

/** The error a statement fails with, or a failure of the test when it does not fail. */
function thrown(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the statement to fail');
}

describe('which driver errors say the database is away (503) rather than that the statement was wrong', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-unavailable-'));
  const file = path.join(dir, 'db.sqlite');
  const writer = new BetterSqlite3(file);
  writer.exec('create table t (x integer primary key)');
  afterAll(() => {
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('SQLite: a database that cannot be written is read_only; one locked by another process past the timeout is busy', () => {
    const readOnly = new BetterSqlite3(file, { readonly: true });
    try {
      expect(sqliteHelpers.unavailable(thrown(() => readOnly.exec('insert into t values (1)')))).toBe('read_only');
    } finally {
      readOnly.close();
    }
    const other = new BetterSqlite3(file, { timeout: 10 });
    try {
      writer.exec('begin immediate');
      expect(sqliteHelpers.unavailable(thrown(() => other.exec('begin immediate')))).toBe('busy');
    } finally {
      writer.exec('rollback');
      other.close();
    }
  });

  it('SQLite: a statement that is wrong stays the statement’s fault', () => {
    writer.exec('insert into t values (7)');
    expect(sqliteHelpers.unavailable(thrown(() => writer.exec('insert into t values (7)')))).toBeUndefined();
    expect(sqliteHelpers.unavailable(thrown(() => writer.exec('select nothing from nowhere')))).toBeUndefined();
  });

  it('PostgreSQL: a server that refuses connections is unreachable; the codes of a stopping or full server', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const pool = createPgPool('postgres://postgres@127.0.0.1:1/none', 1);
    try {
      const refused = await pool.query('select 1').then(
        () => null,
        (error: unknown) => error,
      );
      expect(postgresHelpers.unavailable(refused)).toBe('unreachable');
    } finally {
      await pool.end();
    }
    const serverError = (code: string) => Object.assign(new Error('from the server'), { code });
    expect(postgresHelpers.unavailable(serverError('57P01'))).toBe('shutting_down');
    expect(postgresHelpers.unavailable(serverError('57P03'))).toBe('starting_up');
    expect(postgresHelpers.unavailable(serverError('53100'))).toBe('disk_full');
    expect(postgresHelpers.unavailable(serverError('08006'))).toBe('connection_lost');
    expect(postgresHelpers.unavailable(new Error('Connection terminated unexpectedly'))).toBe('connection_lost');
    expect(postgresHelpers.unavailable(new Error('timeout exceeded when trying to connect'))).toBe('connect_timeout');
    // A unique violation, a syntax error: the statement's fault.
    expect(postgresHelpers.unavailable(serverError('23505'))).toBeUndefined();
    expect(postgresHelpers.unavailable(serverError('42601'))).toBeUndefined();
  });
});
