import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The messages `npm run lint` gives `code` as if it were the file at `file` (relative to the repository), from
 * the rules whose id starts with `rules`.
 */
export async function lintAs(file: string, code: string, rules: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId?.startsWith(rules)).map((m) => m.message);
}
