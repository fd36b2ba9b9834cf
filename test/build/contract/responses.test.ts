// Response bodies of the Bible endpoints: published fields only, in the order the API sends them.
import { describe, expect, it } from 'vitest';
import { bookByUsfm } from '../../../build/contract/books.ts';
import { booksResponse, chapterResponse, versionsResponse } from '../../../build/contract/responses.ts';

describe('Bible response bodies', () => {
  it('copy only the published fields of a manifest entry into the versions list, in order', () => {
    const entry = {
      lang: 'en' as const,
      code: 'KJV',
      name: 'King James Version',
      languageName: 'English',
      year: 1769,
      licence: 'Public domain',
      attribution: 'KJV',
      format: 'sword',
      file: 'KJV.zip',
      sha256: '0'.repeat(64),
    };
    const download = { url: '/api/v1/bible/download?lang=en', bytes: 5_700_000, sha256: 'a'.repeat(64), path: 'en/download.json' };
    const body = versionsResponse([
      { info: entry, counts: { lang: 'en', code: 'KJV', books: 66, chapters: 1189, verses: 31102 }, download },
    ]);
    expect(JSON.stringify(body)).toBe(
      '{"versions":[{"code":"KJV","lang":"en","name":"King James Version","languageName":"English","year":1769,' +
        '"licence":"Public domain","attribution":"KJV","books":66,"chapters":1189,"verses":31102,' +
        `"download":{"url":"/api/v1/bible/download?lang=en","bytes":5700000,"sha256":"${'a'.repeat(64)}"}}]}`,
    );
  });

  it('name the books in the language asked for', () => {
    const body = booksResponse('fr', 'LSG', [{ canon: bookByUsfm('GEN')!, chapters: 2, verseCounts: [31, 25] }]);
    expect(body).toEqual({
      lang: 'fr',
      version: 'LSG',
      books: [{ usfm: 'GEN', abbr: 'Gn', name: 'Genèse', testament: 'OT', chapters: 2, verseCounts: [31, 25] }],
    });
  });

  it("give a chapter slice its first and last verse, then the whole chapter's navigation, in that order", () => {
    const navigation = { previous: null, next: { usfm: 'GEN', abbr: 'Gen', chapter: 2 }, verseCount: 31, attribution: 'KJV' };
    const body = chapterResponse(
      'en',
      'KJV',
      bookByUsfm('GEN')!,
      1,
      [
        { number: 2, text: 'Two.' },
        { number: 4, text: 'Four.' },
      ],
      navigation,
    );
    expect(body).toMatchObject({ chapter: 1, from: 2, to: 4, ...navigation });
    expect(Object.keys(body)).toEqual([
      'lang',
      'version',
      'book',
      'chapter',
      'from',
      'to',
      'verseCount',
      'previous',
      'next',
      'attribution',
      'verses',
    ]);
    expect(body.verses).toEqual([
      { verse: 2, text: 'Two.' },
      { verse: 4, text: 'Four.' },
    ]);
  });
});
