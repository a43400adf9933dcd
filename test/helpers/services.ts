import fs from 'node:fs';

/** The real services the suites can use here, from the environment `.ci/run` sets. */
export const services = {
  postgresUrl: process.env.QUIRE_TEST_DATABASE_URL || null,
  redisUrl: process.env.QUIRE_TEST_REDIS_URL || null,
  chromium: fs.existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : null,
  skipNotes(): string[] {
    const notes: string[] = [];
    if (!this.postgresUrl) notes.push('PostgreSQL suites (QUIRE_TEST_DATABASE_URL is not set; `bash .ci/run` sets it)');
    if (!this.redisUrl) notes.push('Redis suites (QUIRE_TEST_REDIS_URL is not set; `bash .ci/run` sets it)');
    if (!this.chromium) notes.push('browser suites (/usr/bin/chromium is absent; `bash .ci/run` installs it)');
    return notes;
  },
};
