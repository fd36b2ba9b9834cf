// The index thread of the build: each version's database rows and search index, from the books the tree thread hands over (or copied from the previous build).
import { parentPort, workerData } from 'node:worker_threads';
import { bookByUsfm } from '../contract/books.ts';
import { staticPaths } from '../contract/layout.ts';
import type { Book } from '../model.ts';
import { DatabaseWriter } from './database.ts';
import { writeLargeFile } from './large-file.ts';
import { searchIndexChunks } from './search-index.ts';
import { SearchIndexBuilder } from './search-index-builder.ts';
import type { BookMessage, ConsumedMessage, FromIndexThread, IndexJob, IndexThreadData } from './version-messages.ts';

/** The books the tree thread sends, taken one at a time; undefined at the end of a version. */
class BookQueue {
  readonly #arrived: BookMessage[] = [];
  #wake: (() => void) | undefined;

  constructor(port: NonNullable<IndexThreadData['fromTree']>) {
    port.on('message', (message: BookMessage) => {
      this.#arrived.push(message);
      this.#wake?.();
    });
  }

  async next(): Promise<Book | undefined> {
    while (this.#arrived.length === 0) await new Promise<void>((resolve) => (this.#wake = resolve));
    const message = this.#arrived.shift()!;
    return message.kind === 'book' ? message.book : undefined;
  }
}

const data = workerData as IndexThreadData | undefined;
if (parentPort && data?.job === 'bible-index') {
  const port = parentPort;
  const fromTree = data.fromTree;
  const books = new BookQueue(fromTree);
  const opened = DatabaseWriter.open(data.databasePath, data.buildHash);
  opened.catch(() => {});
  let queue: Promise<unknown> = Promise.resolve();
  port.on('message', (job: IndexJob) => {
    queue = queue.then(async () => {
      try {
        port.postMessage(await run(await opened, job));
      } catch (error) {
        port.postMessage({ kind: 'failed', message: (error as Error).message, stack: (error as Error).stack } satisfies FromIndexThread);
      }
    });
  });

  async function run(database: DatabaseWriter, job: IndexJob): Promise<FromIndexThread> {
    const at = performance.now();
    switch (job.kind) {
      case 'build': {
        const index = new SearchIndexBuilder();
        database.startVersion(job.info);
        for (let book = await books.next(); book; book = await books.next()) {
          database.addBook(job.info.lang, book);
          const usfm = bookByUsfm(book.code)?.usfm ?? book.code;
          for (const chapter of book.chapters) {
            for (const verse of chapter.verses) {
              index.add({
                id: `${usfm}.${chapter.number}.${verse.number}`,
                usfm,
                chapter: chapter.number,
                verse: verse.number,
                text: verse.text,
              });
            }
          }
        }
        database.endVersion();
        // The books are in: the tree thread may hand over the next version while this index is written.
        fromTree.postMessage({ kind: 'consumed' } satisfies ConsumedMessage);
        const files = writeLargeFile(
          data!.dir,
          staticPaths.searchIndex(job.info.lang),
          searchIndexChunks(job.info, index, job.versionHash),
        );
        return { kind: 'done', files, timings: { [`index ${job.info.code}`]: Math.round(performance.now() - at) } };
      }
      case 'copy':
        database.copyVersion(job.previousDatabase, job.lang);
        return { kind: 'done', files: [], timings: {} };
      case 'finish': {
        const { bytes } = await database.finish();
        return { kind: 'finished', databaseBytes: bytes, timings: { 'database merge': Math.round(performance.now() - at) } };
      }
    }
  }
}
