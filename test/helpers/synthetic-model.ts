// A small, hand-made Bible model in five languages, for writer and pipeline tests without the real sources.
import { LANGS, type Lang } from '../../build/contract/books.ts';
import type { Book, VersionText } from '../../build/model.ts';
import type { BuiltVersion, VersionInfo } from '../../build/writers/types.ts';

const CODES: Record<Lang, string> = { fr: 'LSG', en: 'KJV', es: 'RVR', pt: 'BLIVRE', nl: 'STV' };

const GENESIS_1: Record<Lang, string> = {
  fr: "Au commencement, Dieu créa les cieux et la terre. L'Éternel est bon.",
  en: 'In the beginning God created the heaven and the earth.',
  es: 'En el principio crió Dios los cielos y la tierra.',
  pt: 'No princípio criou Deus os céus e a terra.',
  nl: 'In den beginne schiep God den hemel en de aarde.',
};

/** Two poetry lines in Psalm 1:1: the second starts after "<lang> Psalm 1:1 text, " and is indented. */
const POETRY_PSALM_1_1: Record<Lang, { at: number; indent: number }[]> = Object.fromEntries(
  LANGS.map((lang) => [
    lang,
    [
      { at: 0, indent: 1 },
      { at: `${lang} Psalm 1:1 text, `.length, indent: 2 },
    ],
  ]),
) as Record<Lang, { at: number; indent: number }[]>;

/** Metadata of the synthetic version in `lang`, shaped like a manifest entry. */
export function syntheticInfo(lang: Lang): VersionInfo {
  return {
    lang,
    code: CODES[lang],
    name: `Synthetic ${CODES[lang]}`,
    languageName: lang.toUpperCase(),
    year: 1900,
    licence: 'Public domain',
    attribution: `Synthetic ${CODES[lang]}, made for tests.`,
  };
}

/**
 * Genesis (2 chapters, with a heading, a note, and verse 1:4 left out: its text sits in 1:3, as
 * some sources have it), Psalm 1 (poetry lines) and John 1-3 (a paragraph and words of Jesus
 * in 3:17), with "Éternel"-style accents in French, in the given language.
 */
export function syntheticText(lang: Lang): VersionText {
  const books: Book[] = [
    {
      code: 'GEN',
      chapters: [
        {
          number: 1,
          verses: [
            { number: 1, text: GENESIS_1[lang], heading: 'La création' },
            { number: 2, text: `${lang} Genesis 1:2 text.`, notes: ['A note on verse 2.'] },
            { number: 3, text: `${lang} Genesis 1:3-4 text.` },
            { number: 5, text: `${lang} Genesis 1:5 text.` },
          ],
        },
        { number: 2, verses: [{ number: 1, text: `${lang} Genesis 2:1 text.` }] },
      ],
    },
    {
      code: 'PSA',
      chapters: [{ number: 1, verses: [{ number: 1, text: `${lang} Psalm 1:1 text, blessed.`, poetry: POETRY_PSALM_1_1[lang] }] }],
    },
    {
      code: 'JHN',
      chapters: [
        { number: 1, verses: [{ number: 1, text: `${lang} John 1:1 text.` }] },
        { number: 2, verses: [{ number: 1, text: `${lang} John 2:1 text.` }] },
        {
          number: 3,
          verses: [
            { number: 16, text: `${lang} For God so loved the world (John 3:16).` },
            // Spoken by Jesus from its 3rd character, in a paragraph of its own: the layout fields beside the text.
            { number: 17, text: `${lang} John 3:17 text.`, paragraphs: [0], wordsOfJesus: [{ start: 3, end: 18 }] },
          ],
        },
      ],
    },
  ];
  return {
    code: CODES[lang],
    books,
    issues: [
      { kind: 'missing-verse', where: 'JHN 3:15', detail: 'not in the source' },
      { kind: 'unknown-markup', where: 'GEN 1:2', detail: '<foo>' },
    ],
  };
}

/** The five synthetic versions, in the order of the spec's table. */
export function syntheticVersions(langs: readonly Lang[] = LANGS): BuiltVersion[] {
  return langs.map((lang) => ({ info: syntheticInfo(lang), text: syntheticText(lang) }));
}
