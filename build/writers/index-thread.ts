// The index thread of the build: each version's database rows and search index, from the books the tree thread hands over (or copied from the previous build).
import { parentPort, workerData } from 'node:worker_threads';
import { bookByUsfm } from '../contract/books.ts';
import { staticPaths } from '../contract/layout.ts';
import { VerseAlignment, type VerseMap } from '../contract/verse-map.ts';
import type { Book } from '../model.ts';
import { DatabaseWriter } from './database.ts';
import { writeLargeFile } from './large-file.ts';
import { searchIndexChunks } from './search-index.ts';
import { SearchIndexBuilder } from './search-index-builder.ts';
import type { FromIndexThread, IndexJob, IndexThreadData, TreeToIndexMessage } from './version-messages.ts';

/** What the tree thread sends, taken one message at a time, in order. */
class TreeQueue {
  readonly #arrived: TreeToIndexMessage[] = [];
  #wake: (() => void) | undefined;

  constructor(port: NonNullable<IndexThreadData['fromTree']>) {
    port.on('message', (message: TreeToIndexMessage) => {
      this.#arrived.push(message);
      this.#wake?.();
    });
  }

  /** The verse map that opens each version's messages. */
  async verseMap(): Promise<VerseMap> {
    const message = await this.#next();
    if (message.kind !== 'verse-map') throw new Error(`the tree thread sent ${message.kind} where a verse map was due`);
    return message.map;
  }

  /** The next book of the version; undefined at the end of its books. */
  async nextBook(): Promise<Book | undefined> {
    const message = await this.#next();
    if (message.kind === 'verse-map') throw new Error('the tree thread sent a verse map where a book was due');
    return message.kind === 'book' ? message.book : undefined;
  }

  async #next(): Promise<TreeToIndexMessage> {
    while (this.#arrived.length === 0) await new Promise<void>((resolve) => (this.#wake = resolve));
    return this.#arrived.shift()!;
  }
}

const data = workerData as IndexThreadData | undefined;
if (parentPort && data?.job === 'bible-index') {
  const port = parentPort;
  const fromTreeQueue = new TreeQueue(data.fromTree);
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
        const alignment = new VerseAlignment(await fromTreeQueue.verseMap());
        database.startVersion(job.info);
        for (let book = await fromTreeQueue.nextBook(); book; book = await fromTreeQueue.nextBook()) {
          database.addBook(job.info.lang, book, alignment);
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
        Atomics.add(data!.consumed, 0, 1);
        Atomics.notify(data!.consumed, 0);
        const path = staticPaths.searchIndex(job.info.lang);
        const files = [writeLargeFile(data!.dir, path, searchIndexChunks(job.info, index, job.versionHash))];
        if (data!.precompressed) port.postMessage({ kind: 'compress', path } satisfies FromIndexThread);
        const timings = { [`index ${job.info.code}`]: Math.round(performance.now() - at) };
        return { kind: 'done', files, timings };
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
