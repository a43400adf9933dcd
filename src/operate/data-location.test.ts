import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { cliEnvironment, dataLocation, displayDir, withoutPassword } from './data-location.js';

const CWD = '/srv/site';
const MASTER_KEY = Buffer.alloc(32, 7).toString('base64');

describe('where the CLI says it looked, and what the start banner prefixes its commands with', () => {
  it('shows a data dir below the working directory as typed, any other by its absolute path', () => {
    expect(displayDir('/srv/site/data', CWD)).toBe('./data');
    expect(displayDir('/srv/site/var/quire data', CWD)).toBe('./var/quire data');
    expect(displayDir('/var/lib/quire', CWD)).toBe('/var/lib/quire');
  });

  it('never shows a database password, in the userinfo or in the query', () => {
    expect(withoutPassword('postgres://quire:s3cret@db:5432/quire')).toBe('postgres://quire:***@db:5432/quire');
    expect(withoutPassword('postgres://db/quire?user=q&password=s3cret')).toBe(
      'postgres://db/quire?user=q&password=***',
    );
    expect(withoutPassword('postgres://quire@db/quire')).toBe('postgres://quire@db/quire');
    expect(withoutPassword('postgres://quire:s3cret@db/quire', '<password>')).toBe(
      'postgres://quire:<password>@db/quire',
    );
  });

  it('names the data dir, or the database, and the variable that chose it', () => {
    expect(dataLocation(loadConfig({ QUIRE_DATA_DIR: '/srv/site/data' }), CWD)).toBe('./data (QUIRE_DATA_DIR)');
    expect(
      dataLocation(loadConfig({ QUIRE_DATA_DIR: 'x', DATABASE_URL: 'postgres://quire:s3cret@db:5432/quire' }), CWD),
    ).toBe('postgres://quire:***@db:5432/quire (DATABASE_URL)');
  });

  it('prefixes nothing for the defaults, and each variable that differs, secrets as placeholders', () => {
    expect(cliEnvironment(loadConfig({ QUIRE_DATA_DIR: '/srv/site/data' }), CWD)).toBe('');
    expect(cliEnvironment(loadConfig({ QUIRE_DATA_DIR: '/srv/site/var/quire data' }), CWD)).toBe(
      "QUIRE_DATA_DIR='./var/quire data' ",
    );
    expect(
      cliEnvironment(
        loadConfig({
          QUIRE_DATA_DIR: '/var/lib/quire',
          DATABASE_URL: 'postgres://quire:s3cret@db:5432/quire',
          QUIRE_MASTER_KEY: MASTER_KEY,
        }),
        CWD,
      ),
    ).toBe(
      "QUIRE_DATA_DIR=/var/lib/quire DATABASE_URL='postgres://quire:<password>@db:5432/quire' QUIRE_MASTER_KEY='<the same key>' ",
    );
  });

  it('leaves the data dir out when nothing is read from it: PostgreSQL, the master key in the environment, S3', () => {
    const config = loadConfig({
      QUIRE_DATA_DIR: '/var/lib/quire',
      DATABASE_URL: 'postgres://quire@db/quire',
      QUIRE_MASTER_KEY: MASTER_KEY,
      QUIRE_MEDIA_STORAGE: 's3',
      QUIRE_S3_ENDPOINT: 'https://s3.example.com',
      QUIRE_S3_BUCKET: 'media',
      QUIRE_S3_ACCESS_KEY_ID: 'id',
      QUIRE_S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(cliEnvironment(config, CWD)).toBe(
      "DATABASE_URL=postgres://quire@db/quire QUIRE_MASTER_KEY='<the same key>' ",
    );
  });
});
