import type { AddressInfo } from 'node:net';
import { buildApp } from './app.js';
import { cliEnvironment } from './operate/data-location.js';
import type { Config } from './config.js';
import { openRuntime } from './runtime.js';
import { holdServingLock } from './operate/serving-lock.js';
import { startDispatcher } from './modules/webhooks/dispatch/dispatcher.js';
import { startEventPruning } from './writes/event-retention.js';
import { reviewsRepository } from './modules/reviews/reviews.repository.js';
import { startCdnPurger } from './modules/cdn/cdn-purger.js';
import { varnishTarget } from './modules/cdn/varnish.js';
import { DEFAULT_PASSWORD_COST } from './security/password.js';

/** How long a start waits for a database that is away (restarting, failing over) before it gives up. */
const DATABASE_START_WAIT_MS = 120_000;

/** The first-start hint; its commands carry the variables that lead them to this server's data. */
function setupHint(url: string, config: Config): string {
  const quire = `${cliEnvironment(config)}npx quire`;
  return [
    '',
    'Quire is running on an empty database. Open this one-time setup page to create the first user and workspace:',
    '',
    `  ${url}/dashboard/setup`,
    '',
    'Or from the command line, the first user, workspace and API key:',
    '',
    `  ${quire} user create --email you@example.com --password-stdin`,
    `  ${quire} workspace create --name "My site" --owner you@example.com`,
    `  ${quire} key create --workspace my-site --email you@example.com --name "Site build"`,
    '',
    `Then: curl -H "X-API-Key: <the key>" ${url}/api/v1/external/api-keys`,
    '',
  ].join('\n');
}

/** Starts the server: data dir, migrations, listen, and a graceful close on SIGINT and SIGTERM. */
export async function serve(config: Config): Promise<void> {
  // Before the data dir is touched: a server must not start writing into an installation being moved.
  const servingLock = config.databaseUrl === null ? holdServingLock(config.dataDir) : null;
  const runtime = await openRuntime(config, {
    waitForDatabase: {
      timeoutMs: DATABASE_START_WAIT_MS,
      onWait: (reason, waitedMs) =>
        process.stderr.write(
          `quire: waiting for the database (${reason}); ${Math.round((DATABASE_START_WAIT_MS - waitedMs) / 1000)} s left before giving up\n`,
        ),
    },
  });
  // Imported only when configured: ioredis is a tenth of a second of every start that does not use it.
  const redisModule = config.redisUrl ? await import('./redis.js') : null;
  const redis = redisModule && config.redisUrl ? redisModule.connectRedis(config.redisUrl) : null;
  if (redisModule && redis) await redisModule.waitForRedis(redis);
  const app = await buildApp({ config, database: runtime.database, masterKey: runtime.masterKey, redis });
  if (runtime.migrated.names.length > 0)
    app.log.info({ migrations: runtime.migrated.names, ms: runtime.migrated.ms }, 'applied migrations');

  if (config.passwordCost < DEFAULT_PASSWORD_COST)
    app.log.warn(
      { passwordCost: config.passwordCost, productionCost: DEFAULT_PASSWORD_COST },
      'QUIRE_PASSWORD_COST is below the production cost: new passwords are hashed weakly (meant for test runs)',
    );
  const stopPruning = startEventPruning(runtime.database, {
    retentionDays: config.eventRetentionDays,
    auditRetentionDays: config.auditRetentionDays,
    auditCompanions: [reviewsRepository.pruneNotifications],
    log: app.log,
  });
  // Every server process sends webhooks; CLI commands never do (they open the runtime without this).
  const dispatcher = startDispatcher(runtime.database, runtime.masterKey, {
    allowPrivate: config.webhookAllowPrivate,
    log: app.log,
  });
  // With a purge target, every server purges what content writes made stale from the shared cache.
  const purger = config.cdn.purgeUrl
    ? startCdnPurger(runtime.database, { target: varnishTarget(config.cdn.purgeUrl), log: app.log })
    : null;
  const metricsServer =
    app.quireMetrics && config.metrics.port !== null
      ? await (await import('./metrics/metrics.js')).startMetricsServer(app.quireMetrics, config.metrics)
      : null;
  if (metricsServer) app.log.info({ address: metricsServer.address() }, 'metrics listening');
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'closing: finishing in-flight requests');
    stopPruning();
    purger?.stop();
    metricsServer?.close();
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    await app.close();
    // Sends under way end within their timeout and are recorded; the force above bounds the wait.
    await dispatcher.stop();
    redis?.disconnect();
    await runtime.close();
    servingLock?.release();
    clearTimeout(force);
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  // PORT=0 takes any free port: the hint names the one the system gave, unless QUIRE_PUBLIC_URL says otherwise.
  const url = new URL(config.publicUrl);
  if (url.port === '0') url.port = String((app.server.address() as AddressInfo).port);
  if ((await runtime.services.accounts.countUsers()) === 0)
    process.stdout.write(setupHint(url.toString().replace(/\/$/, ''), config));
}
