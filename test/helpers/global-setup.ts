import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { services } from './services.js';

export default function setup(): void {
  // The end-to-end suites run the compiled server and CLI: the parts whose sources changed since they were
  // built are built again (after `npm ci`, whose prepare script built everything, none is).
  // QUIRE_TEST_SKIP_BUILD=1 skips even that check, for runs side by side that would race on dist/.
  if (process.env.QUIRE_TEST_SKIP_BUILD !== '1')
    execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/build-if-needed.mjs', import.meta.url))], {
      stdio: 'inherit',
    });
  // Say once, loudly, which suites cannot run here, so a skip is never mistaken for a pass.
  for (const line of services.skipNotes()) process.stdout.write(`\n  SKIPPED: ${line}\n`);
}
