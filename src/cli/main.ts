import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { AppError } from '../errors.js';
import { openRuntime } from '../runtime.js';
import type { Command } from './command.js';
import { COMMANDS, describe } from './commands.js';
import { dataDirMissing, dataLocation, displayDir } from '../operate/data-location.js';
import { commandProgress } from '../operate/progress.js';

function usage(): string {
  return [
    'Usage:',
    '  quire serve',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
    '',
    'Every command takes --json.',
  ].join('\n');
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function fail(message: string, code = 1): never {
  process.stderr.write(`quire: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(code);
}

function findCommand(words: string[]): { name: string; command: Command; rest: string[] } | null {
  for (const length of [2, 1]) {
    const name = words.slice(0, length).join(' ');
    const command = COMMANDS[name];
    if (command && words.slice(0, length).every((w) => !w.startsWith('-')))
      return { name, command, rest: words.slice(length) };
  }
  return null;
}

function noDataDir(config: Config): string {
  return (
    `there is no data dir at ${displayDir(config.dataDir)} (QUIRE_DATA_DIR): set QUIRE_DATA_DIR to the server's, ` +
    'or start with "npm start" or "quire user create", which create it'
  );
}

/** `quire …`: every command prints one line on stderr and exits non-zero when it fails. */
export async function main(argv: string[]): Promise<void> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(`${usage()}\n`);
    return;
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2);
    throw error;
  }

  if (argv[0] === 'serve') {
    // The server (Fastify, its routes and schemas) is loaded only to serve: the other commands need none of it.
    const { serve } = await import('../main.js');
    await serve(config).catch((error: Error) => fail(`could not start: ${error.message}`));
    return;
  }

  const found = findCommand(argv);
  if (!found) {
    // Name only the command words: `quire frob --json` is about "frob", not "frob --json".
    const end = argv.findIndex((word) => word.startsWith('-'));
    const words = argv.slice(0, end === -1 ? 2 : Math.min(end, 2));
    fail(
      words.length === 0
        ? 'a command is required; run "quire --help"'
        : `unknown command "${words.join(' ')}"; run "quire --help"`,
      2,
    );
  }
  const { command, rest } = found;
  let flags: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries([
      ...command.options.map((name) => [name, { type: 'string' as const }]),
      ...['json', ...(command.switches ?? [])].map((name) => [name, { type: 'boolean' as const }]),
    ]);
    const parsed = parseArgs({ args: rest, options, strict: true, allowPositionals: command.positional !== undefined });
    flags = parsed.values as Record<string, string | boolean | undefined>;
    if (parsed.positionals.length > 1) throw new Error(`one ${command.positional} is expected`);
    if (command.positional && parsed.positionals[0] !== undefined) flags[command.positional] = parsed.positionals[0];
  } catch (error) {
    fail(`${(error as Error).message}; usage: ${command.usage}`, 2);
  }
  const missing = command.required.filter((name) => typeof flags[name] !== 'string');
  if (missing.length > 0)
    fail(
      `missing ${missing.map((name) => (name === command.positional ? name.toUpperCase() : `--${name}`)).join(', ')}; usage: ${command.usage}`,
      2,
    );
  const input = { flags, readStdin, progress: commandProgress(flags.json === true) };
  const print = (result: unknown) =>
    process.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : `${describe(result, command)}\n`);

  if (command.runWithoutRuntime) {
    try {
      print(await command.runWithoutRuntime(config, input));
    } catch (error) {
      input.progress.abandon();
      fail(error instanceof AppError ? error.message : `unexpected error: ${(error as Error).message}`);
    }
    return;
  }

  const creating = dataDirMissing(config);
  // Anything else would open an empty data dir with a new master key, and then not find what it was asked for.
  if (creating && !command.createsData) fail(noDataDir(config), 2);

  // `migrate` opens the database as it is, so that it can report what it applied.
  const runtime = await openRuntime(config, {
    migrate: found.name !== 'migrate',
    bulkWrites: command.bulkWrites === true,
  }).catch((error: Error) => fail(`could not open the database: ${error.message}`));
  if (creating)
    process.stderr.write(`quire: created a new data dir at ${displayDir(config.dataDir)} (QUIRE_DATA_DIR)\n`);
  try {
    print(await command.run(runtime, input));
  } catch (error) {
    input.progress.abandon();
    // What was not found was looked for in one place: say which, since a command run without the server's
    // QUIRE_DATA_DIR or DATABASE_URL reads another database and finds nothing.
    if (error instanceof AppError)
      fail(error.code === 'NOT_FOUND' ? `${error.message} in ${dataLocation(config)}` : error.message);
    fail(`unexpected error: ${(error as Error).message}`);
  } finally {
    await runtime.close();
  }
}
