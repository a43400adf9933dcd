import net from 'node:net';
import path from 'node:path';
import { DEFAULT_PASSWORD_COST, PASSWORD_COST_RANGE } from './security/password.js';

/** The validated configuration of one Quire process (contract §1). */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  publicUrl: string;
  databaseUrl: string | null;
  masterKey: Buffer | null;
  redisUrl: string | null;
  rateLimit: { max: number; windowMs: number };
  maxUploadBytes: number;
  /** The largest export file the dashboard's Import screen accepts (a Ghost zip with its images can be large). */
  importMaxBytes: number;
  /** Time a client has to send one whole request, headers and body (a trickled body is cut off). */
  requestTimeoutMs: number;
  /** Bytes of serialized GET responses kept in this process; 0 turns the cache off. */
  responseCacheBytes: number;
  mediaStorage: MediaStorageConfig;
  /** Uploads keep the GPS position of their EXIF; by default it is removed from the stored original. */
  mediaKeepGps: boolean;
  trustProxy: boolean | number | string[];
  logLevel: LogLevel;
  /** Days a content event is kept before the server prunes it (src/writes/event-retention.ts). */
  eventRetentionDays: number;
  /** Days an audit log entry is kept before the server prunes it (src/audit/audit-retention.ts). */
  auditRetentionDays: number;
  /** Revisions kept of each post and page; a write drops the older ones (src/writes/revisions.ts). */
  revisionsKept: number;
  /**
   * Seconds a draft's run of saves by one writer stays one revision (src/writes/revision-windows.ts); 0 keeps a
   * revision per save.
   */
  revisionWindowSeconds: number;
  /** Where GET /metrics answers, if anywhere (src/metrics): off unless a token or a port is set. */
  metrics: MetricsConfig;
  /** Webhooks may reach loopback and private addresses (tests, self-hosters with receivers on their network). */
  webhookAllowPrivate: boolean;
  /** The most webhook endpoints a workspace may have (src/modules/webhooks): each is a share of the dispatcher. */
  webhookEndpointsMax: number;
  /** New password hashes use scrypt with N = 2^passwordCost (src/security/password.ts). */
  passwordCost: number;
  /** The content API's shared caches (docs/content-api.md, "CDN"). */
  cdn: CdnConfig;
  /** Outgoing mail (invitations, password resets); null: none is sent and the dashboard shows links instead. */
  mail: MailConfig | null;
  /** Sign-on through an OpenID provider (docs/team.md, "Single sign-on"); null when not configured. */
  oidc: OidcConfig | null;
}

/** Who may join which workspace as what, by the domain of the email their provider vouches for. */
export interface OidcDomainRule {
  domain: string;
  /** A workspace's slug or id. */
  workspace: string;
  role: 'contributor' | 'editor' | 'admin';
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in button says: "Sign in with ‹name›". */
  name: string;
  domains: OidcDomainRule[];
}

/** `smtpUrl`: smtp:// or smtps://, with its credentials; `from`: the sender of every message, `Name <address>`. */
export interface MailConfig {
  smtpUrl: string;
  from: string;
}

/**
 * `purgeUrl`: the Varnish (with xkey) that every content write's surrogate keys are purged from; null: none.
 * `sharedMaxAge`: seconds a shared cache may keep a content answer (`s-maxage`); long when purges keep it fresh.
 */
export interface CdnConfig {
  purgeUrl: string | null;
  sharedMaxAge: number;
}

/**
 * `token`: GET /metrics on the server's own port, for a request carrying `Authorization: Bearer <token>`.
 * `port`: GET /metrics on a listener of its own (on `host`, loopback by default), for whatever can reach it.
 */
export interface MetricsConfig {
  token: string | null;
  port: number | null;
  host: string;
}

/** Where uploaded files live: the data dir, or an S3-compatible bucket shared by every instance. */
export type MediaStorageConfig =
  | { driver: 'local' }
  | {
      driver: 's3';
      endpoint: string;
      bucket: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      forcePathStyle: boolean;
    };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A bad configuration value; its message is one line naming the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  // JSON quoting keeps the message on one line whatever the value holds.
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${raw}`);
  return value;
}

function url(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be an absolute URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.map((p) => p.replace(':', '://')).join(' or ')}`);
  }
  return raw;
}

function masterKey(env: Env): Buffer | null {
  const raw = read(env, 'QUIRE_MASTER_KEY');
  if (raw === undefined) return null;
  const bytes = Buffer.from(raw, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw) || bytes.length !== 32) {
    throw new ConfigError('QUIRE_MASTER_KEY', 'must be the base64 encoding of exactly 32 bytes');
  }
  return bytes;
}

// The named ranges proxy-addr (Fastify's trustProxy) understands.
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * An address, CIDR or IPv4 address/netmask, checked here rather than left to Fastify, which would
 * stop the start with a stack trace instead of a line naming the variable.
 */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && net.isIPv4(range);
}

function trustProxy(env: Env): Config['trustProxy'] {
  const raw = read(env, 'QUIRE_TRUST_PROXY');
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  if (!entries.every(isProxyAddress)) {
    throw new ConfigError(
      'QUIRE_TRUST_PROXY',
      'must be true, false, a hop count or a comma-separated list of addresses, CIDRs, loopback, linklocal or uniquelocal',
    );
  }
  return entries;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false') throw new ConfigError(name, 'must be true or false');
  return raw === 'true';
}

function required(env: Env, name: string, because: string): string {
  const value = read(env, name);
  if (value === undefined) throw new ConfigError(name, `is required ${because}`);
  return value;
}

// S3's bucket naming rules; a bad name would otherwise surface only at the first upload.
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function mediaStorage(env: Env): MediaStorageConfig {
  const driver = read(env, 'QUIRE_MEDIA_STORAGE') ?? 'local';
  if (driver === 'local') return { driver };
  if (driver !== 's3') throw new ConfigError('QUIRE_MEDIA_STORAGE', 'must be local or s3');
  const because = 'when QUIRE_MEDIA_STORAGE=s3';
  const endpoint = url(env, 'QUIRE_S3_ENDPOINT', ['http:', 'https:']);
  if (endpoint === undefined) throw new ConfigError('QUIRE_S3_ENDPOINT', `is required ${because}`);
  const bucket = required(env, 'QUIRE_S3_BUCKET', because);
  if (!BUCKET_NAME.test(bucket))
    throw new ConfigError('QUIRE_S3_BUCKET', 'must be 3 to 63 characters of a-z, 0-9, dots and hyphens');
  const region = read(env, 'QUIRE_S3_REGION') ?? 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/.test(region))
    throw new ConfigError('QUIRE_S3_REGION', 'must be a region name such as us-east-1');
  return {
    driver,
    endpoint: endpoint.replace(/\/+$/, ''),
    bucket,
    region,
    accessKeyId: required(env, 'QUIRE_S3_ACCESS_KEY_ID', because),
    secretAccessKey: required(env, 'QUIRE_S3_SECRET_ACCESS_KEY', because),
    forcePathStyle: boolean(env, 'QUIRE_S3_FORCE_PATH_STYLE', true),
  };
}

function metrics(env: Env): MetricsConfig {
  const token = read(env, 'QUIRE_METRICS_TOKEN') ?? null;
  // A guessable token would put the server's traffic figures one dictionary away.
  if (token !== null && !/^[\x21-\x7e]{16,256}$/.test(token))
    throw new ConfigError('QUIRE_METRICS_TOKEN', 'must be 16 to 256 printable characters without spaces');
  const port = read(env, 'QUIRE_METRICS_PORT') === undefined ? null : integer(env, 'QUIRE_METRICS_PORT', 0, 0, 65535);
  const host = read(env, 'QUIRE_METRICS_HOST') ?? '127.0.0.1';
  if (net.isIP(host) === 0 && host !== 'localhost')
    throw new ConfigError('QUIRE_METRICS_HOST', 'must be an IP address or localhost');
  return { token, port, host };
}

export function loadConfig(env: Env = process.env): Config {
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const publicUrl = (
    url(env, 'QUIRE_PUBLIC_URL', ['http:', 'https:']) ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  ).replace(/\/+$/, '');
  const logLevel = read(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return {
    host,
    port,
    dataDir: path.resolve(read(env, 'QUIRE_DATA_DIR') ?? './data'),
    publicUrl,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']) ?? null,
    masterKey: masterKey(env),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']) ?? null,
    rateLimit: {
      max: integer(env, 'QUIRE_RATE_LIMIT_MAX', 1200, 1, 1_000_000_000),
      windowMs: integer(env, 'QUIRE_RATE_LIMIT_WINDOW_MS', 60_000, 100, 86_400_000),
    },
    maxUploadBytes: integer(env, 'QUIRE_MAX_UPLOAD_BYTES', 25 * 1024 * 1024, 1, 10 * 1024 * 1024 * 1024),
    importMaxBytes: integer(env, 'QUIRE_IMPORT_MAX_BYTES', 1024 * 1024 * 1024, 1, 64 * 1024 * 1024 * 1024),
    requestTimeoutMs: integer(env, 'QUIRE_REQUEST_TIMEOUT_MS', 300_000, 100, 3_600_000),
    responseCacheBytes: integer(env, 'QUIRE_RESPONSE_CACHE_MB', 64, 0, 65536) * 1024 * 1024,
    mediaStorage: mediaStorage(env),
    trustProxy: trustProxy(env),
    logLevel: logLevel as LogLevel,
    eventRetentionDays: integer(env, 'QUIRE_EVENT_RETENTION_DAYS', 30, 1, 36_500),
    auditRetentionDays: integer(env, 'QUIRE_AUDIT_RETENTION_DAYS', 365, 1, 36_500),
    revisionsKept: integer(env, 'QUIRE_REVISIONS_KEPT', 50, 1, 10_000),
    revisionWindowSeconds: integer(env, 'QUIRE_REVISION_WINDOW_SECONDS', 300, 0, 86_400),
    metrics: metrics(env),
    webhookAllowPrivate: boolean(env, 'QUIRE_WEBHOOK_ALLOW_PRIVATE', false),
    webhookEndpointsMax: integer(env, 'QUIRE_WEBHOOK_ENDPOINTS_MAX', 20, 1, 10_000),
    mediaKeepGps: boolean(env, 'QUIRE_MEDIA_KEEP_GPS', false),
    passwordCost: integer(
      env,
      'QUIRE_PASSWORD_COST',
      DEFAULT_PASSWORD_COST,
      PASSWORD_COST_RANGE.min,
      PASSWORD_COST_RANGE.max,
    ),
    cdn: cdn(env),
    mail: mail(env, publicUrl),
    oidc: oidc(env),
  };
}

const MAIL_FROM = /^(?:[^\r\n<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

function mail(env: Env, publicUrl: string): MailConfig | null {
  const smtpUrl = url(env, 'QUIRE_SMTP_URL', ['smtp:', 'smtps:']);
  const from = read(env, 'QUIRE_MAIL_FROM');
  // One line with one address: a newline would let the setting write headers of its own.
  if (from !== undefined && !MAIL_FROM.test(from.trim()))
    throw new ConfigError('QUIRE_MAIL_FROM', 'must be an address, as quire@example.com or Quire <quire@example.com>');
  if (smtpUrl === undefined) return null;
  return { smtpUrl, from: from?.trim() ?? `Quire <quire@${new URL(publicUrl).hostname}>` };
}

const OIDC_ROLES = new Set(['contributor', 'editor', 'admin']);

function oidc(env: Env): OidcConfig | null {
  const issuer = url(env, 'QUIRE_OIDC_ISSUER', ['https:', 'http:']);
  const clientId = read(env, 'QUIRE_OIDC_CLIENT_ID')?.trim();
  const clientSecret = read(env, 'QUIRE_OIDC_CLIENT_SECRET');
  if (issuer === undefined && clientId === undefined && clientSecret === undefined) return null;
  for (const [name, value] of [
    ['QUIRE_OIDC_ISSUER', issuer],
    ['QUIRE_OIDC_CLIENT_ID', clientId],
    ['QUIRE_OIDC_CLIENT_SECRET', clientSecret],
  ] as const)
    if (value === undefined)
      throw new ConfigError(
        name,
        'must be set with QUIRE_OIDC_ISSUER, QUIRE_OIDC_CLIENT_ID and QUIRE_OIDC_CLIENT_SECRET',
      );
  const host = new URL(issuer!).hostname;
  // Plain HTTP only to this machine: an ID token over the network must travel encrypted.
  if (issuer!.startsWith('http:') && !['127.0.0.1', 'localhost', '[::1]'].includes(host))
    throw new ConfigError('QUIRE_OIDC_ISSUER', 'must be an https:// URL (http:// only on this machine)');
  const domains = (read(env, 'QUIRE_OIDC_DOMAINS') ?? '')
    .split(',')
    .map((rule) => rule.trim())
    .filter((rule) => rule !== '')
    .map((rule): OidcDomainRule => {
      const match = /^([a-z0-9.-]+\.[a-z]{2,})=([^:\s]+):([a-z]+)$/i.exec(rule);
      if (!match || !OIDC_ROLES.has(match[3]!.toLowerCase()))
        throw new ConfigError(
          'QUIRE_OIDC_DOMAINS',
          `must be domain=workspace:role rules, comma-separated, the role contributor, editor or admin (not "${rule}")`,
        );
      return {
        domain: match[1]!.toLowerCase(),
        workspace: match[2]!,
        role: match[3]!.toLowerCase() as OidcDomainRule['role'],
      };
    });
  return {
    issuer: issuer!,
    clientId: clientId!,
    clientSecret: clientSecret!,
    name: read(env, 'QUIRE_OIDC_NAME')?.trim() || 'single sign-on',
    domains,
  };
}

function cdn(env: Env): CdnConfig {
  const purgeUrl = url(env, 'QUIRE_CDN_PURGE_URL', ['http:', 'https:']) ?? null;
  // Without purges a shared cache must come back soon on its own; with them it may keep an answer a day.
  return { purgeUrl, sharedMaxAge: integer(env, 'QUIRE_CDN_MAX_AGE', purgeUrl ? 86_400 : 60, 0, 31_536_000) };
}
