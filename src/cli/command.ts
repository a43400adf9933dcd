import type { Config } from '../config.js';
import type { Progress } from '../operate/progress.js';
import type { Runtime } from '../runtime.js';

/** A `quire` command: its flags, and what it runs (cli/commands.ts lists them, operate.commands.ts adds its own). */
export interface CommandInput {
  flags: Record<string, string | boolean | undefined>;
  readStdin: () => Promise<string>;
  /** Where long work reports how far it is (operate/progress.ts); silent with --json. */
  progress?: Progress;
}

export interface Command {
  usage: string;
  /** Flags that take a value; every command also takes --json. */
  options: string[];
  /** Flags that take no value. */
  switches?: string[];
  /** The name of the one positional argument (`quire import FILE`), read into `flags` under that name. */
  positional?: string;
  required: string[];
  /**
   * Whether the command may begin a data dir: it makes the first thing a server needs. Every other command
   * refuses a missing one rather than create it empty, with a master key of its own.
   */
  createsData?: true;
  /** Whether it writes item after item, each its own transaction (an import): see openRuntime's `bulkWrites`. */
  bulkWrites?: true;
  run(runtime: Runtime, input: CommandInput): Promise<unknown>;
  /**
   * Run instead of `run`, before any data dir or database is opened, for a command that must find the data
   * dir as it is (restore fills an empty one): it gets the configuration alone.
   */
  runWithoutRuntime?(config: Config, input: CommandInput): Promise<unknown>;
  /** How a person reads the result; --json prints the value itself. */
  human?(result: never): string;
}
