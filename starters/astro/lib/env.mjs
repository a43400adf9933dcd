// @ts-check
import fs from 'node:fs';
import path from 'node:path';

/**
 * The site's settings, from the environment and `.env` in the site's folder (the environment wins, so a CI job or
 * a host can set them without a file).
 */

// The site runs from its own folder (npm runs its scripts there), built or not: bundling moves this file.
const root = process.cwd();

function fileValues() {
  const file = path.join(root, '.env');
  if (!fs.existsSync(file)) return {};
  /** @type {Record<string, string>} */
  const values = {};
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    const match = /^\s*([A-Z][A-Z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match) values[match[1]] = match[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return values;
}

/**
 * A reader of the variables, over the file as it is now (read once per call of siteEnv: the server sees an edit of
 * `.env`, such as a webhook secret added, without a restart).
 */
function reader() {
  const file = fileValues();
  /** @param {string} name */
  const read = (name) => {
    const value = process.env[name] ?? file[name];
    return value === undefined || value === '' ? undefined : value;
  };
  /** @param {string} name */
  const required = (name) => {
    const value = read(name);
    if (value === undefined)
      throw new Error(`${name} is not set: copy .env.example to .env and fill it in (README.md)`);
    return value;
  };
  return { read, required };
}

/**
 * @typedef {object} SiteEnv
 * @property {string} quireUrl          where Quire answers (QUIRE_URL)
 * @property {string} contentKey        a content key of the workspace (QUIRE_CONTENT_KEY)
 * @property {string | undefined} siteUrl  the site's own origin when the site settings name none (SITE_URL)
 * @property {string | undefined} webhookSecret  the webhook endpoint's signing secret, whsec_… (QUIRE_WEBHOOK_SECRET)
 * @property {string | undefined} reportKey  an API key allowed to report broken links (QUIRE_REPORT_KEY)
 * @property {string} root              the site's folder
 * @property {string} dataDir           where the synced content is kept (.quire)
 */

/** @returns {SiteEnv} */
export function siteEnv() {
  const { read, required } = reader();
  return {
    quireUrl: required('QUIRE_URL').replace(/\/+$/, ''),
    contentKey: required('QUIRE_CONTENT_KEY'),
    siteUrl: read('SITE_URL')?.replace(/\/+$/, ''),
    webhookSecret: read('QUIRE_WEBHOOK_SECRET'),
    reportKey: read('QUIRE_REPORT_KEY'),
    root,
    dataDir: path.resolve(root, read('QUIRE_DATA') ?? '.quire'),
  };
}
