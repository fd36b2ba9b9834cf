// Where the Bible build puts each artifact: shared by the writers and by the service that serves them.

/**
 * Bumped whenever the shape of any artifact changes; the service refuses a tree of another version.
 * 2: verses lost `through` (no source joins verses; the database lost the column).
 * 3: verses gained `paragraphs`, `poetry` and `wordsOfJesus` (the database's `layout` column), chapters
 *    their navigation (`verseCount`, `previous`, `next`, `attribution`), books their `verseCounts`.
 * 4: one download file per version ({lang}/download.json); versions and the stamp's versions gained `download`.
 * 5: the build stamp's versions gained `versionHash`; search indexes carry it instead of `buildHash`.
 * 6: each version's verse map ({lang}/verse-map.json) and the database's `verse_pivots`, which align the
 *    versions; the verse of the day (verse-of-the-day/{lang}/{MM-DD}.json) and its feeds (verse-of-the-day/{lang}.rss).
 */
export const BIBLE_SCHEMA_VERSION = 6;

/**
 * Paths inside the static tree (the `public/` folder), relative to it, with no leading slash.
 * The tree mirrors the spec's URLs; the query parameter `lang` becomes a path segment,
 * and the generated nginx and `_redirects` rules map one onto the other.
 */
export const staticPaths = {
  /** Build stamp: schema version, build hash, per-version counts. */
  stamp: 'api/v1/bible/build.json',
  /** Endpoint 9. */
  versions: 'api/v1/bible/versions.json',
  /** The folder of one language's books list and chapters. */
  versionFolder: (lang: string) => `api/v1/bible/${lang}`,
  /** Endpoint 10, one file per language. */
  books: (lang: string) => `api/v1/bible/${lang}/books.json`,
  /** Endpoint 11, keyed by the language-independent USFM code. */
  chapter: (lang: string, usfm: string, chapter: number | string) => `api/v1/bible/${lang}/${usfm}/${chapter}.json`,
  /** The whole version in one file, for offline apps; the API serves it at downloadUrl(lang). */
  download: (lang: string) => `api/v1/bible/${lang}/download.json`,
  /**
   * How the version's verses stand to the shared numbering (contract/verse-map.ts), one per language:
   * with `counterparts`, a client aligns any two versions verse by verse.
   */
  verseMap: (lang: string) => `api/v1/bible/${lang}/verse-map.json`,
  /** The verse of the day of one language, one file per day of the year ("03-01"), for the service and static hosts. */
  verseOfTheDay: (lang: string, day: string) => `api/v1/bible/verse-of-the-day/${lang}/${day}.json`,
  /** The folder of one language's days (reused with the version by an incremental build). */
  verseOfTheDayFolder: (lang: string) => `api/v1/bible/verse-of-the-day/${lang}`,
  /** The RSS 2.0 feed of one language's verses of the day: every day of the year, in calendar order. */
  verseOfTheDayFeed: (lang: string) => `api/v1/bible/verse-of-the-day/${lang}.rss`,
  /** MiniSearch index for client-side and offline search, one per language. */
  searchIndex: (lang: string) => `bible-search/${lang}.json`,
  /** Generated host rewrites. */
  nginx: 'nginx-bible.conf',
  redirects: '_redirects',
} as const;

/**
 * The URL of a version's download as `versions` lists it: a path on the API's host (the service
 * and the generated nginx and `_redirects` rules answer it), so it resolves against wherever the
 * versions list was fetched from, a static host or the service.
 *
 * @example downloadUrl('en') // '/api/v1/bible/download?lang=en'
 */
export function downloadUrl(lang: string): string {
  return `/api/v1/bible/download?lang=${lang}`;
}

/** Default locations of the generated artifacts, relative to the project root. */
export const defaultOutputs = {
  publicDir: 'public',
  database: 'var/bible.sqlite',
  report: 'var/bible-report.json',
} as const;
