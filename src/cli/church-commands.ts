// Operator commands for church data: `import-churches <file.json>` and `counts`.
import fs from 'node:fs';
import { CliError, type CliCommand } from './command.ts';
import { createSqliteChurchRepository } from '../church/sqlite-repository.ts';
import { importChurchDocument } from '../church/import/import-churches.ts';
import { ChurchImportError } from '../church/import/validate.ts';

const importChurches: CliCommand = {
  name: 'import-churches',
  usage: '<file.json>  validate a church document and import it in one transaction (churches with the same slug are replaced whole)',
  async run(args, { db, print }) {
    const [file, ...rest] = args;
    if (!file || rest.length > 0) throw new CliError('import-churches takes one argument: the JSON file to import');
    if (!fs.existsSync(file)) throw new CliError(`No such file: ${file}`);
    let document: unknown;
    try {
      document = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      throw new CliError(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const started = Date.now();
    try {
      const summary = await importChurchDocument(createSqliteChurchRepository(db), document);
      print(
        `Imported ${summary.churches} church(es) (${summary.replaced} replaced): ${summary.events} events, ${summary.posts} posts, ` +
          `${summary.libraryItems} library items, ${summary.products} products, ${summary.albums} albums, ${summary.photos} photos, ` +
          `${summary.liveStations} stations in ${Date.now() - started} ms.`,
      );
      return 0;
    } catch (error) {
      if (error instanceof ChurchImportError) throw new CliError(`${file}: ${error.message}\nNothing was imported.`);
      throw error;
    }
  },
};

const counts: CliCommand = {
  name: 'counts',
  usage: '  print the number of churches (and public ones), events, posts, library items, products, albums, photos, stations',
  async run(args, { db, print }) {
    if (args.length > 0) throw new CliError('counts takes no arguments');
    const result = await createSqliteChurchRepository(db).counts();
    const width = Math.max(...Object.keys(result).map((name) => name.length));
    for (const [name, value] of Object.entries(result)) print(`${name.padEnd(width)}  ${value}`);
    return 0;
  },
};

export const churchCommands: CliCommand[] = [importChurches, counts];
