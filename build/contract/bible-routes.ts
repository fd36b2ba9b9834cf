// The Bible's URLs, one list for both sides: the service's endpoint table answers each (src/bible/endpoints.ts), the host rewrites serve it from the tree or send it to the service (build/writers/host-rewrites.ts).
import { staticPaths } from './layout.ts';

/** Where the Bible's endpoints live, on the service and on a static host alike. */
export const BIBLE_PREFIX = '/api/v1/bible';

/** One URL of the Bible. */
export interface BibleRoute {
  /** The path template, as the OpenAPI document writes it. */
  path: string;
  /** Reads `?lang=` (absent: the first language of the build). */
  lang: boolean;
  /**
   * The file of the static tree that holds the answer, from the language and the path's `{abbr}`
   * (as a USFM code) and `{chapter}`: given as placeholders of the host's rules, it names the file
   * of any request. Absent when only the service can answer (ranges, passages, search): a static
   * host sends those to it.
   */
  tree?: (lang: string, usfm: string, chapter: string) => string;
}

/** Every Bible URL, in the order the OpenAPI document lists them. */
export const bibleRoutes = {
  versions: { path: `${BIBLE_PREFIX}/versions`, lang: false, tree: () => staticPaths.versions },
  books: { path: `${BIBLE_PREFIX}/books`, lang: true, tree: (lang) => staticPaths.books(lang) },
  download: { path: `${BIBLE_PREFIX}/download`, lang: true, tree: (lang) => staticPaths.download(lang) },
  chapter: {
    path: `${BIBLE_PREFIX}/{abbr}/{chapter}`,
    lang: true,
    tree: (lang, usfm, chapter) => staticPaths.chapter(lang, usfm, chapter),
  },
  range: { path: `${BIBLE_PREFIX}/{abbr}/{chapter}/{from}/{to}`, lang: true },
  verse: { path: `${BIBLE_PREFIX}/{abbr}/{chapter}/{verse}`, lang: true },
  passage: { path: `${BIBLE_PREFIX}/passage`, lang: true },
  search: { path: `${BIBLE_PREFIX}/search`, lang: true },
  parallel: { path: `${BIBLE_PREFIX}/parallel`, lang: false },
  references: { path: `${BIBLE_PREFIX}/references`, lang: true },
  // The day's file is in the tree (staticPaths.verseOfTheDay), but "today" and a full date are the service's to read.
  verseOfTheDay: { path: `${BIBLE_PREFIX}/verse-of-the-day`, lang: true },
} as const satisfies Record<string, BibleRoute>;
