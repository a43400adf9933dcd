import crypto from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

/** Loads a config expecting it to fail, and returns the error. */
function failure(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig defaults (contract §1)', () => {
  const config = loadConfig({});

  it('listens on 127.0.0.1:3000 and publishes URLs under http://HOST:PORT', () => {
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
  });

  it('keeps its data in ./data, resolved to an absolute path', () => {
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(path.isAbsolute(config.dataDir)).toBe(true);
  });

  it('uses SQLite, the master.key file and no Redis unless told otherwise', () => {
    expect(config.databaseUrl).toBeNull();
    expect(config.masterKey).toBeNull();
    expect(config.redisUrl).toBeNull();
  });

  it('allows 1,200 requests per 60 s, uploads of 25 MiB, 5 minutes per request, trusts no proxy and logs at info', () => {
    expect(config.rateLimit).toEqual({ max: 1200, windowMs: 60_000 });
    expect(config.maxUploadBytes).toBe(25 * 1024 * 1024);
    expect(config.requestTimeoutMs).toBe(300_000);
    expect(config.responseCacheBytes).toBe(64 * 1024 * 1024);
    expect(config.trustProxy).toBe(false);
    expect(config.logLevel).toBe('info');
  });

  it('treats empty and blank values as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '  ', REDIS_URL: '', QUIRE_RATE_LIMIT_MAX: ' ' })).toEqual(config);
  });

  it('derives the public URL from HOST and PORT, bracketing an IPv6 host', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).publicUrl).toBe('http://0.0.0.0:8080');
    expect(loadConfig({ HOST: '::1', PORT: '8080' }).publicUrl).toBe('http://[::1]:8080');
  });
});

const S3_ENV = {
  QUIRE_MEDIA_STORAGE: 's3',
  QUIRE_S3_ENDPOINT: 'https://s3.example.com/',
  QUIRE_S3_BUCKET: 'quire-media',
  QUIRE_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  QUIRE_S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI',
};

describe('loadConfig accepts good values', () => {
  it('parses every variable', () => {
    const key = crypto.randomBytes(32);
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '8080',
      QUIRE_DATA_DIR: '/var/lib/quire',
      QUIRE_PUBLIC_URL: 'https://cms.example.com/',
      DATABASE_URL: 'postgres://quire@db:5432/quire',
      QUIRE_MASTER_KEY: key.toString('base64'),
      REDIS_URL: 'redis://cache:6379/0',
      QUIRE_RATE_LIMIT_MAX: '100',
      QUIRE_RATE_LIMIT_WINDOW_MS: '1000',
      QUIRE_MAX_UPLOAD_BYTES: '1048576',
      QUIRE_REQUEST_TIMEOUT_MS: '60000',
      QUIRE_RESPONSE_CACHE_MB: '0',
      QUIRE_TRUST_PROXY: 'true',
      LOG_LEVEL: 'debug',
      QUIRE_PASSWORD_COST: '18',
      QUIRE_CDN_PURGE_URL: 'http://varnish:6081',
      QUIRE_CDN_MAX_AGE: '3600',
    });
    expect(config).toEqual({
      host: '0.0.0.0',
      port: 8080,
      dataDir: '/var/lib/quire',
      publicUrl: 'https://cms.example.com',
      databaseUrl: 'postgres://quire@db:5432/quire',
      masterKey: key,
      redisUrl: 'redis://cache:6379/0',
      rateLimit: { max: 100, windowMs: 1000 },
      maxUploadBytes: 1_048_576,
      importMaxBytes: 1024 * 1024 * 1024,
      requestTimeoutMs: 60_000,
      responseCacheBytes: 0,
      mediaStorage: { driver: 'local' },
      trustProxy: true,
      logLevel: 'debug',
      eventRetentionDays: 30,
      auditRetentionDays: 365,
      oidc: null,
      revisionsKept: 50,
      revisionWindowSeconds: 300,
      metrics: { token: null, port: null, host: '127.0.0.1' },
      webhookAllowPrivate: false,
      webhookEndpointsMax: 20,
      mediaKeepGps: false,
      passwordCost: 18,
      cdn: { purgeUrl: 'http://varnish:6081', sharedMaxAge: 3600 },
      mail: null,
    });
  });

  it('sends mail only with QUIRE_SMTP_URL, from QUIRE_MAIL_FROM or the public host, and refuses a header in it', () => {
    expect(loadConfig({}).mail).toBeNull();
    expect(
      loadConfig({ QUIRE_SMTP_URL: 'smtps://u:p@mail.example.com', QUIRE_PUBLIC_URL: 'https://cms.example.com' }).mail,
    ).toEqual({
      smtpUrl: 'smtps://u:p@mail.example.com',
      from: 'Quire <quire@cms.example.com>',
    });
    for (const from of ['news@example.com', 'Example News <news@example.com>'])
      expect(loadConfig({ QUIRE_SMTP_URL: 'smtp://127.0.0.1:25', QUIRE_MAIL_FROM: from }).mail?.from).toBe(from);
    for (const from of ['news', 'a@b@c', 'News <news@example.com>\r\nBcc: all@example.com', 'x <y>'])
      expect(failure({ QUIRE_MAIL_FROM: from }).variable, from).toBe('QUIRE_MAIL_FROM');
    expect(failure({ QUIRE_SMTP_URL: 'http://mail.example.com' }).variable).toBe('QUIRE_SMTP_URL');
  });

  it('keeps shared caches a minute without a CDN purge target and a day with one', () => {
    expect(loadConfig({}).cdn).toEqual({ purgeUrl: null, sharedMaxAge: 60 });
    expect(loadConfig({ QUIRE_CDN_PURGE_URL: 'http://127.0.0.1:6081' }).cdn.sharedMaxAge).toBe(86_400);
    expect(() => loadConfig({ QUIRE_CDN_PURGE_URL: 'ftp://varnish' })).toThrow(/QUIRE_CDN_PURGE_URL/);
  });

  it('removes the GPS position of uploads unless QUIRE_MEDIA_KEEP_GPS=true', () => {
    expect(loadConfig({}).mediaKeepGps).toBe(false);
    expect(loadConfig({ QUIRE_MEDIA_KEEP_GPS: 'true' }).mediaKeepGps).toBe(true);
    expect(failure({ QUIRE_MEDIA_KEEP_GPS: 'yes' }).variable).toBe('QUIRE_MEDIA_KEEP_GPS');
  });

  it('lets webhooks reach private addresses only with QUIRE_WEBHOOK_ALLOW_PRIVATE=true', () => {
    expect(loadConfig({}).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ QUIRE_WEBHOOK_ALLOW_PRIVATE: 'true' }).webhookAllowPrivate).toBe(true);
    expect(failure({ QUIRE_WEBHOOK_ALLOW_PRIVATE: 'yes' }).variable).toBe('QUIRE_WEBHOOK_ALLOW_PRIVATE');
  });

  it('keeps 50 revisions of each post and page unless QUIRE_REVISIONS_KEPT says otherwise, and refuses a bad count', () => {
    expect(loadConfig({}).revisionsKept).toBe(50);
    expect(loadConfig({ QUIRE_REVISIONS_KEPT: '3' }).revisionsKept).toBe(3);
    for (const bad of ['0', '-1', 'ten', '2.5', '10001'])
      expect(failure({ QUIRE_REVISIONS_KEPT: bad }).variable).toBe('QUIRE_REVISIONS_KEPT');
  });

  it('signs on through an OpenID provider only with issuer, client id and secret, and reads the domain rules', () => {
    const given = {
      QUIRE_OIDC_ISSUER: 'https://id.example.com',
      QUIRE_OIDC_CLIENT_ID: 'quire',
      QUIRE_OIDC_CLIENT_SECRET: 'shh',
    };
    expect(loadConfig({}).oidc).toBeNull();
    expect(loadConfig(given).oidc).toEqual({
      issuer: 'https://id.example.com',
      clientId: 'quire',
      clientSecret: 'shh',
      name: 'single sign-on',
      domains: [],
    });
    expect(
      loadConfig({
        ...given,
        QUIRE_OIDC_NAME: 'Corp ID',
        QUIRE_OIDC_DOMAINS: 'Corp.example=news:Editor, lab.example=lab:admin',
      }).oidc,
    ).toMatchObject({
      name: 'Corp ID',
      domains: [
        { domain: 'corp.example', workspace: 'news', role: 'editor' },
        { domain: 'lab.example', workspace: 'lab', role: 'admin' },
      ],
    });
    expect(loadConfig({ ...given, QUIRE_OIDC_ISSUER: 'http://127.0.0.1:9000' }).oidc?.issuer).toBe(
      'http://127.0.0.1:9000',
    );
    expect(failure({ QUIRE_OIDC_ISSUER: 'https://id.example.com' }).variable).toBe('QUIRE_OIDC_CLIENT_ID');
    expect(failure({ ...given, QUIRE_OIDC_ISSUER: 'http://id.example.com' }).variable).toBe('QUIRE_OIDC_ISSUER');
    for (const bad of ['corp.example', 'corp.example=news', 'corp.example=news:owner', 'corp=news:editor'])
      expect(failure({ ...given, QUIRE_OIDC_DOMAINS: bad }).variable).toBe('QUIRE_OIDC_DOMAINS');
  });

  it('keeps audit entries 365 days unless QUIRE_AUDIT_RETENTION_DAYS says otherwise, and refuses a bad count', () => {
    expect(loadConfig({}).auditRetentionDays).toBe(365);
    expect(loadConfig({ QUIRE_AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
    for (const bad of ['0', 'a year', '1.5', '36501'])
      expect(failure({ QUIRE_AUDIT_RETENTION_DAYS: bad }).variable).toBe('QUIRE_AUDIT_RETENTION_DAYS');
  });

  it('coalesces the saves of a draft for 300 seconds unless QUIRE_REVISION_WINDOW_SECONDS says otherwise (0: never)', () => {
    expect(loadConfig({}).revisionWindowSeconds).toBe(300);
    expect(loadConfig({ QUIRE_REVISION_WINDOW_SECONDS: '0' }).revisionWindowSeconds).toBe(0);
    expect(loadConfig({ QUIRE_REVISION_WINDOW_SECONDS: '86400' }).revisionWindowSeconds).toBe(86_400);
    for (const bad of ['-1', 'five', '2.5', '86401'])
      expect(failure({ QUIRE_REVISION_WINDOW_SECONDS: bad }).variable).toBe('QUIRE_REVISION_WINDOW_SECONDS');
  });

  it('allows 20 webhook endpoints a workspace unless QUIRE_WEBHOOK_ENDPOINTS_MAX says otherwise, and refuses a bad count', () => {
    expect(loadConfig({}).webhookEndpointsMax).toBe(20);
    expect(loadConfig({ QUIRE_WEBHOOK_ENDPOINTS_MAX: '3' }).webhookEndpointsMax).toBe(3);
    for (const bad of ['0', '-1', 'ten', '2.5', '10001'])
      expect(failure({ QUIRE_WEBHOOK_ENDPOINTS_MAX: bad }).variable).toBe('QUIRE_WEBHOOK_ENDPOINTS_MAX');
  });

  it('accepts both PostgreSQL schemes and TLS Redis', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/quire' }).databaseUrl).toBe('postgresql://db/quire');
    expect(loadConfig({ REDIS_URL: 'rediss://cache:6380' }).redisUrl).toBe('rediss://cache:6380');
  });

  it('accepts the boundaries of the numeric ranges', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
    expect(loadConfig({ QUIRE_RATE_LIMIT_MAX: '1' }).rateLimit.max).toBe(1);
  });

  it('accepts a master key with or without base64 padding', () => {
    const key = crypto.randomBytes(32);
    const padded = key.toString('base64');
    expect(padded.endsWith('=')).toBe(true);
    expect(loadConfig({ QUIRE_MASTER_KEY: padded }).masterKey).toEqual(key);
    expect(loadConfig({ QUIRE_MASTER_KEY: padded.replace(/=+$/, '') }).masterKey).toEqual(key);
  });

  it('reads every form of QUIRE_TRUST_PROXY', () => {
    expect(loadConfig({ QUIRE_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ QUIRE_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ QUIRE_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ QUIRE_TRUST_PROXY: '10.0.0.0/8, 192.168.1.1,::1, fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.1',
      '::1',
      'fd00::/8',
    ]);
    expect(loadConfig({ QUIRE_TRUST_PROXY: '10.0.0.0/255.0.0.0' }).trustProxy).toEqual(['10.0.0.0/255.0.0.0']);
    expect(loadConfig({ QUIRE_TRUST_PROXY: 'loopback,uniquelocal' }).trustProxy).toEqual(['loopback', 'uniquelocal']);
  });

  it('keeps media in the data dir unless QUIRE_MEDIA_STORAGE=s3', () => {
    expect(loadConfig({}).mediaStorage).toEqual({ driver: 'local' });
    expect(loadConfig({ QUIRE_MEDIA_STORAGE: 'local', QUIRE_S3_BUCKET: 'ignored' }).mediaStorage).toEqual({
      driver: 'local',
    });
  });

  it('reads the S3 settings, with region us-east-1 and path-style addressing by default', () => {
    expect(loadConfig(S3_ENV).mediaStorage).toEqual({
      driver: 's3',
      endpoint: 'https://s3.example.com',
      bucket: 'quire-media',
      region: 'us-east-1',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI',
      forcePathStyle: true,
    });
    const custom = loadConfig({
      ...S3_ENV,
      QUIRE_S3_REGION: 'eu-central-1',
      QUIRE_S3_FORCE_PATH_STYLE: 'false',
    }).mediaStorage;
    expect(custom).toMatchObject({ region: 'eu-central-1', forcePathStyle: false });
  });

  it('accepts every log level', () => {
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) {
      expect(loadConfig({ LOG_LEVEL: level }).logLevel).toBe(level);
    }
  });
});

describe('loadConfig refuses bad values with a one-line message naming the variable', () => {
  const cases: Array<[variable: string, value: string]> = [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['PORT', '80\n81'],
    ['QUIRE_PUBLIC_URL', 'not a url'],
    ['QUIRE_PUBLIC_URL', 'ftp://cms.example.com'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'db.example.com'],
    ['QUIRE_MASTER_KEY', crypto.randomBytes(16).toString('base64')],
    ['QUIRE_MASTER_KEY', crypto.randomBytes(33).toString('base64')],
    ['QUIRE_MASTER_KEY', 'not base64 at all!'],
    ['QUIRE_MASTER_KEY', crypto.randomBytes(32).toString('hex')],
    ['REDIS_URL', 'http://x'],
    ['QUIRE_RATE_LIMIT_MAX', '0'],
    ['QUIRE_RATE_LIMIT_MAX', 'many'],
    ['QUIRE_RATE_LIMIT_WINDOW_MS', '99'],
    ['QUIRE_MAX_UPLOAD_BYTES', '0'],
    ['QUIRE_RESPONSE_CACHE_MB', '-1'],
    ['LOG_LEVEL', 'loud'],
    ['QUIRE_TRUST_PROXY', 'bogus!!'],
    ['QUIRE_TRUST_PROXY', '10.0.0.1,'],
    ['QUIRE_TRUST_PROXY', 'cafe'],
    ['QUIRE_TRUST_PROXY', '10.0.0.0/33'],
  ];

  it.each(cases)('%s=%j', (variable, value) => {
    const error = failure({ [variable]: value });
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(`${variable} `)).toBe(true);
    expect(error.message).not.toMatch(/[\r\n]/);
  });

  it.each([
    ['QUIRE_MEDIA_STORAGE', { QUIRE_MEDIA_STORAGE: 'ftp' }],
    ['QUIRE_S3_ENDPOINT', { ...S3_ENV, QUIRE_S3_ENDPOINT: '' }],
    ['QUIRE_S3_ENDPOINT', { ...S3_ENV, QUIRE_S3_ENDPOINT: 's3.example.com' }],
    ['QUIRE_S3_BUCKET', { ...S3_ENV, QUIRE_S3_BUCKET: '' }],
    ['QUIRE_S3_BUCKET', { ...S3_ENV, QUIRE_S3_BUCKET: 'Has_Capitals' }],
    ['QUIRE_S3_REGION', { ...S3_ENV, QUIRE_S3_REGION: 'mars 1' }],
    ['QUIRE_S3_ACCESS_KEY_ID', { ...S3_ENV, QUIRE_S3_ACCESS_KEY_ID: ' ' }],
    ['QUIRE_S3_SECRET_ACCESS_KEY', { ...S3_ENV, QUIRE_S3_SECRET_ACCESS_KEY: '' }],
    ['QUIRE_S3_FORCE_PATH_STYLE', { ...S3_ENV, QUIRE_S3_FORCE_PATH_STYLE: 'yes' }],
  ])('media storage: %s', (variable, env) => {
    const error = failure(env);
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(`${variable} `)).toBe(true);
    expect(error.message).not.toMatch(/[\r\n]/);
    expect(error.message).not.toContain(S3_ENV.QUIRE_S3_SECRET_ACCESS_KEY);
  });

  it('never echoes a secret: the master key and credentials in URLs stay out of the message', () => {
    const shortKey = crypto.randomBytes(16).toString('base64');
    expect(failure({ QUIRE_MASTER_KEY: shortKey }).message).not.toContain(shortKey);
    expect(failure({ DATABASE_URL: 'mysql://root:hunter2@db/quire' }).message).not.toContain('hunter2');
    expect(failure({ REDIS_URL: 'http://:hunter2@cache' }).message).not.toContain('hunter2');
  });
});

describe('metrics (QUIRE_METRICS_*)', () => {
  it('are off unless a token or a port is set; the port listens on loopback unless told otherwise', () => {
    expect(loadConfig({}).metrics).toEqual({ token: null, port: null, host: '127.0.0.1' });
    expect(loadConfig({ QUIRE_METRICS_TOKEN: 'a'.repeat(16), QUIRE_METRICS_PORT: '9464' }).metrics).toEqual({
      token: 'a'.repeat(16),
      port: 9464,
      host: '127.0.0.1',
    });
    expect(loadConfig({ QUIRE_METRICS_PORT: '9464', QUIRE_METRICS_HOST: '0.0.0.0' }).metrics.host).toBe('0.0.0.0');
  });

  it.each([
    ['QUIRE_METRICS_TOKEN', { QUIRE_METRICS_TOKEN: 'short' }],
    ['QUIRE_METRICS_TOKEN', { QUIRE_METRICS_TOKEN: 'has a space in it, long enough' }],
    ['QUIRE_METRICS_PORT', { QUIRE_METRICS_PORT: '70000' }],
    ['QUIRE_METRICS_HOST', { QUIRE_METRICS_PORT: '9464', QUIRE_METRICS_HOST: 'metrics.example.com' }],
  ])('refuses a bad %s in one line, without echoing a token', (variable, env) => {
    const error = failure(env);
    expect(error.variable).toBe(variable);
    expect(error.message).not.toContain('has a space');
  });
});
