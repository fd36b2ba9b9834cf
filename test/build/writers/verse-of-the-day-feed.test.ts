// The verse-of-the-day RSS feed: well-formed XML (checked by a real parser), one item per day in calendar order, with the day's passage and text.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { rulesFor } from '../../../build/alignment/mapping-data.ts';
import { PivotNumbering } from '../../../build/alignment/pivot-numbering.ts';
import { dayPassages, verseOfTheDayBodies } from '../../../build/alignment/verses-of-the-day.ts';
import { verseMapOrThrow } from '../../../build/alignment/version-verse-map.ts';
import { VerseAlignment } from '../../../build/contract/verse-map.ts';
import { verseOfTheDayFeed } from '../../../build/writers/verse-of-the-day-feed.ts';
import { SYNTHETIC_PASSAGES, syntheticVersesOfTheDay, syntheticVersification } from '../../helpers/synthetic-alignment.ts';
import { syntheticVersions } from '../../helpers/synthetic-model.ts';

/** The days' bodies of the synthetic version in `lang`, through the synthetic mapping. */
function daysOf(lang: 'fr' | 'en', mutate: (version: ReturnType<typeof syntheticVersions>[number]) => void = () => {}) {
  const [version] = syntheticVersions([lang]);
  mutate(version!);
  const mapping = syntheticVersification([{ code: version!.info.code, sha256: 'd'.repeat(64) }]);
  const rules = rulesFor(mapping, version!.info.code);
  const pivot = new PivotNumbering(mapping.pivot);
  const { map } = verseMapOrThrow(rules, { lang, code: version!.info.code }, version!.text, pivot);
  return { version: version!, days: verseOfTheDayBodies(dayPassages(syntheticVersesOfTheDay(), pivot), new VerseAlignment(map), version!) };
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

describe('the verse of the day feed', () => {
  it('is well-formed RSS 2.0 with one item per day, in calendar order, each with its date, passage and text', () => {
    const { version, days } = daysOf('fr');
    const feed = verseOfTheDayFeed(version.info, days, 'https://api.example.org');
    expect(feed.path).toBe('api/v1/bible/verse-of-the-day/fr.rss');
    const xml = String(feed.content);
    expect(XMLValidator.validate(xml)).toBe(true);
    const { rss } = parser.parse(xml);
    expect(rss['@version']).toBe('2.0');
    expect(rss.channel).toMatchObject({
      title: 'Verset du jour · Synthetic LSG',
      link: 'https://api.example.org/api/v1/bible/verse-of-the-day?lang=fr',
      language: 'fr',
    });
    const items = rss.channel.item as {
      title: string;
      link: string;
      description: string;
      guid: { '#text': string; '@isPermaLink': string };
    }[];
    expect(items).toHaveLength(366);
    expect(items[0]).toMatchObject({
      title: '1 janvier · Jean 3.16',
      description: '16 fr For God so loved the world (John 3:16). (Jean 3.16. Synthetic LSG, made for tests.)',
      guid: { '#text': 'https://api.example.org/api/v1/bible/verse-of-the-day/fr/01-01', '@isPermaLink': 'false' },
    });
    // 01-05 is Genesis 1:4, which the synthetic versions hold in verse 3: the item shows that verse.
    expect(SYNTHETIC_PASSAGES[4]).toBe('GEN 1:4');
    expect(items[4]).toMatchObject({
      title: '5 janvier · Genèse 1.3',
      description: '3 fr Genesis 1:3-4 text. (Genèse 1.3. Synthetic LSG, made for tests.)',
    });
    expect(items[59]!.title).toMatch(/^29 février · /);
    expect(items[365]!.title).toMatch(/^31 décembre · /);
  });

  it('escapes the text it carries, so any verse keeps the XML well-formed', () => {
    const { version, days } = daysOf('en', (built) => {
      built.text.books[2]!.chapters[2]!.verses[0]!.text = 'Fish & loaves <"bread"> and \'wine\'';
    });
    const xml = String(verseOfTheDayFeed({ ...version.info, name: 'A & B <C>' }, days, 'https://api.example.org/base').content);
    expect(XMLValidator.validate(xml)).toBe(true);
    const { rss } = parser.parse(xml);
    expect(rss.channel.title).toBe('Verse of the day · A & B <C>');
    expect(rss.channel.item[0].description).toBe('16 Fish & loaves <"bread"> and \'wine\' (John 3:16. Synthetic KJV, made for tests.)');
    expect(rss.channel.item[0].guid['#text']).toBe('https://api.example.org/base/api/v1/bible/verse-of-the-day/en/01-01');
  });
});
