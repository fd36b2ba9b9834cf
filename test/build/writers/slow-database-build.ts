// Test helper run as a child process: writes a Bible database big enough to be killed mid-write (database.test.ts).
import { writeDatabase } from '../../../build/writers/database.ts';
import { syntheticVersions } from '../../helpers/synthetic-model.ts';

const [path] = process.argv.slice(2);
if (!path) throw new Error('usage: slow-database-build.ts <database path>');
const versions = syntheticVersions();
for (const { text } of versions) {
  const genesis = text.books[0];
  for (let chapter = 3; chapter <= 2000; chapter++) {
    genesis.chapters.push({
      number: chapter,
      verses: Array.from({ length: 100 }, (_, index) => ({
        number: index + 1,
        text: `Verse ${chapter}:${index + 1} ${'word '.repeat(30)}`,
      })),
    });
  }
}
await writeDatabase(path, versions, 'never-finished');
