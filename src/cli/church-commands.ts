// Operator commands for church data: `import-churches <file.json>` and `counts`.
import fs from 'node:fs';
import { importChurchDocument } from '../church/import/import-churches.ts';
import { ChurchImportError } from '../church/import/validate.ts';
import { parseCommandLine } from './arguments.ts';
import { type CliCommand, CliError } from './command.ts';

export const churchCommands: CliCommand[] = [
  {
    name: 'import-churches',
    arguments: '<file.json>',
    summary: 'validate a church document and import it in one transaction (churches with the same slug are replaced whole)',
    async run(args, { churches, print }) {
      const {
        positionals: [file],
      } = parseCommandLine(this.name, args, { options: {}, positionals: ['file.json'] });
      if (!fs.existsSync(file)) throw new CliError(`No such file: ${file}`);
      let document: unknown;
      try {
        document = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (error) {
        throw new CliError(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
      }
      const started = Date.now();
      try {
        const summary = await importChurchDocument(churches, document, {
          onValid: (records) => print(`${file} is valid: importing ${records.length} church(es) in one transaction.`),
        });
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
  },
  {
    name: 'counts',
    arguments: '',
    summary: 'print the number of churches (and public ones), events, posts, library items, products, albums, photos, stations',
    async run(args, { churches, print }) {
      parseCommandLine(this.name, args, { options: {} });
      const result = await churches.counts();
      const width = Math.max(...Object.keys(result).map((name) => name.length));
      for (const [name, value] of Object.entries(result)) print(`${name.padEnd(width)}  ${value}`);
      return 0;
    },
  },
];
