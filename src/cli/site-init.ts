import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { badRequest } from '../errors.js';

/**
 * `quire site init DIR`: a new site from the Astro starter (starters/astro), pointed at a Quire installation.
 * The starter's own packages, @quire/blocks and @quire/client, are packed into DIR/vendor, as they are not on a
 * registry. With an API key, the command also makes the site's content key and reads the site settings, to say which
 * of those the starter's routes follow are still to be set (the owner sets them: the API only reads them).
 */

export interface SiteInitOptions {
  dir: string;
  quireUrl: string;
  siteUrl: string;
  contentKey?: string;
  apiKey?: string;
}

export interface SiteInitResult {
  dir: string;
  contentKey: 'given' | 'created';
  /** The site settings still to set, with the values the starter expects; unknown without an API key. */
  settingsToSet: Record<string, string> | null;
  next: string[];
}

/** What is never copied: what a build, a sync or a developer's machine made. */
const LEFT_OUT = new Set(['node_modules', 'dist', '.builds', '.quire', '.astro', '.env']);

/** The repository folder holding `relative`, looked for upwards from this file (compiled or bundled alike). */
function repositoryPath(relative: string): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, relative);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${relative} is not in this installation of Quire`);
  }
}

function httpUrl(name: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href.replace(/\/+$/, '');
  } catch {
    // Refused below, naming the flag.
  }
  throw badRequest(`--${name} must be an http or https URL`);
}

async function admin(quireUrl: string, apiKey: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${quireUrl}/api/v1/external${route}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000),
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok)
    throw badRequest(`Quire answered ${response.status} to ${method} ${route}: ${String(answer.message ?? '')}`);
  return answer;
}

/**
 * The settings the starter's routes follow, as its own lib/urls.mjs holds them (the paths it builds where the
 * workspace names no pattern, and its preview route), read from the starter being copied so that they cannot drift.
 */
async function starterSettings(starter: string, siteUrl: string): Promise<Record<string, string>> {
  const urls = (await import(pathToFileURL(path.join(starter, 'lib', 'urls.mjs')).href)) as {
    DEFAULT_PATTERNS: Record<string, string>;
    PREVIEW_PATTERN: string;
  };
  return { siteUrl, ...urls.DEFAULT_PATTERNS, previewUrlPattern: urls.PREVIEW_PATTERN };
}

/** The settings the starter needs that the workspace has not set, with the values it expects. */
async function settingsToSet(quireUrl: string, apiKey: string, wanted: Record<string, string>) {
  const current = await admin(quireUrl, apiKey, 'GET', '/site-settings');
  return Object.fromEntries(Object.entries(wanted).filter(([field]) => current[field] == null));
}

const kebab = (field: string) => field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The `quire workspace settings` command that sets them, for an owner on the server's machine. */
function settingsCommand(settings: Record<string, string>): string {
  const flags = Object.entries(settings).map(([field, value]) => `--${kebab(field)} '${value}'`);
  return `quire workspace settings --workspace <your workspace> ${flags.join(' ')}`;
}

function copyStarter(from: string, to: string) {
  fs.cpSync(from, to, {
    recursive: true,
    filter: (source) => !LEFT_OUT.has(path.basename(source)) || path.dirname(source) !== from,
  });
}

/*
 * Install scripts the site allows: none. npm reads `allowScripts` only at an install's root (a workspace's is
 * ignored, with a warning), so inside this repository the root's applies and a site of its own gets these. The
 * starter uses Quire's images, never Astro's, so sharp needs no native build; esbuild's binary comes as a package.
 */
const ALLOW_SCRIPTS = { esbuild: false, sharp: false };

/** Each of the starter's own packages as a tarball in vendor/, and the site's package.json pointed at them. */
function vendorPackages(dir: string) {
  const vendor = path.join(dir, 'vendor');
  fs.mkdirSync(vendor, { recursive: true });
  const manifestFile = path.join(dir, 'package.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as {
    name: string;
    dependencies: Record<string, string>;
    allowScripts?: Record<string, boolean>;
  };
  for (const [name, folder] of [
    ['@quire/blocks', 'packages/blocks'],
    ['@quire/client', 'packages/client'],
  ] as const) {
    const packageDir = repositoryPath(folder);
    if (!fs.existsSync(path.join(packageDir, 'dist')))
      throw new Error(`${name} is not built: run "npm run build" in Quire's folder first`);
    const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', vendor], {
      cwd: packageDir,
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .at(-1)!;
    manifest.dependencies[name] = `file:vendor/${tarball}`;
  }
  manifest.name =
    path
      .basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-') || 'site';
  manifest.allowScripts = ALLOW_SCRIPTS;
  fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
}

function writeEnv(dir: string, values: Record<string, string>) {
  const template = fs.readFileSync(path.join(dir, '.env.example'), 'utf8');
  const filled = template.replace(/^([A-Z_]+)=.*$/gm, (line, name: string) =>
    values[name] === undefined ? line : `${name}=${values[name]}`,
  );
  fs.writeFileSync(path.join(dir, '.env'), filled, { mode: 0o600 });
}

export async function siteInit(options: SiteInitOptions): Promise<SiteInitResult> {
  const dir = path.resolve(options.dir);
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) throw badRequest(`${options.dir} is not empty`);
  const quireUrl = httpUrl('quire-url', options.quireUrl);
  const siteUrl = httpUrl('site-url', options.siteUrl);
  if (!options.contentKey && !options.apiKey)
    throw badRequest('--content-key or --api-key is required (an API key lets the command make the content key)');
  if (options.contentKey && !/^quire_content_[A-Za-z0-9]{38}$/.test(options.contentKey))
    throw badRequest('--content-key must be a content key (quire_content_ and 38 letters and digits)');

  const starter = repositoryPath('starters/astro');
  const wanted = await starterSettings(starter, siteUrl);
  let settings: Record<string, string> | null = null;
  let contentKey = options.contentKey;
  if (options.apiKey) {
    settings = await settingsToSet(quireUrl, options.apiKey, wanted);
    contentKey ??= String(
      (await admin(quireUrl, options.apiKey, 'POST', '/content-keys', { name: `Site ${path.basename(dir)}` })).key,
    );
  }
  copyStarter(starter, dir);
  vendorPackages(dir);
  writeEnv(dir, { QUIRE_URL: quireUrl, QUIRE_CONTENT_KEY: contentKey!, SITE_URL: siteUrl });
  return {
    dir,
    contentKey: options.contentKey ? 'given' : 'created',
    settingsToSet: settings,
    next: [
      ...(settings === null || Object.keys(settings).length > 0 ? [settingsCommand(settings ?? wanted)] : []),
      `cd ${path.relative(process.cwd(), dir) || '.'}`,
      'npm install',
      'npm run build',
      'npm start',
    ],
  };
}
