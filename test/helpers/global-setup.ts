import { execFileSync } from 'node:child_process';
import { services } from './services.js';

export default function setup(): void {
  // The end-to-end suites run the compiled server and CLI. QUIRE_TEST_SKIP_BUILD=1 skips the build
  // for a run that has none of them (several runs at once would otherwise race on dist/).
  if (process.env.QUIRE_TEST_SKIP_BUILD !== '1')
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  // Say once, loudly, which suites cannot run here, so a skip is never mistaken for a pass.
  for (const line of services.skipNotes()) process.stdout.write(`\n  SKIPPED: ${line}\n`);
}
