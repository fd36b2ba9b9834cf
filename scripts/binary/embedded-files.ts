// The files the service reads at run time, which the single binary carries (src/resources/resources.ts reads them), and reading them for the bundle.
import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';

/**
 * Repository paths or patterns of every file the service reads through src/resources/resources.ts.
 * JSON the code imports (data/books.json, data/bible-versions.json, package.json) is bundled by
 * esbuild; the Bible build is not part of the binary (it is data, beside it).
 */
export const EMBEDDED_FILES: readonly string[] = [
  'data/migrations/*.sql',
  'data/migrations/postgres/*.sql',
  'data/demo/churches.json',
  'data/common-passwords.txt',
  'data/unicode/confusables.txt',
  'public/docs/*',
  'public/portal/*',
  'public/docs/vendor/scalar-api-reference.js',
  'public/examples/*',
  'public/widget/*',
  'node_modules/minisearch/dist/umd/index.js',
];

/**
 * The text of every embedded file by its repository path. A pattern that matches nothing fails
 * the build: the binary would otherwise start and fail at the first request for the file.
 *
 * @example const files = await readEmbeddedFiles(root); files['data/migrations/001_church_data.sql']
 */
export async function readEmbeddedFiles(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const pattern of EMBEDDED_FILES) {
    const matches = await fg(pattern, { cwd: root, onlyFiles: true });
    if (matches.length === 0) throw new Error(`nothing to embed matches ${pattern}`);
    for (const file of matches.sort()) files[file] = fs.readFileSync(path.join(root, file), 'utf8');
  }
  return files;
}
