// The RSS 2.0 feed of one language's verses of the day: the year's 366 days in calendar order, each item a day's passage and text.
import type { Lang } from '../contract/books.ts';
import { staticPaths } from '../contract/layout.ts';
import type { VerseOfTheDayResponse } from '../contract/response-schemas.ts';
import type { OutputFile, VersionInfo } from './types.ts';

/** The feed's words in each language. */
const FEED_WORDS: Record<Lang, { title: string; description: string }> = {
  fr: { title: 'Verset du jour', description: 'Un passage de la Bible pour chaque jour de l’année, le même dans les cinq langues.' },
  en: { title: 'Verse of the day', description: 'A Bible passage for each day of the year, the same in all five languages.' },
  es: { title: 'Versículo del día', description: 'Un pasaje de la Biblia para cada día del año, el mismo en los cinco idiomas.' },
  pt: { title: 'Versículo do dia', description: 'Uma passagem da Bíblia para cada dia do ano, a mesma nas cinco línguas.' },
  nl: { title: 'Tekst van de dag', description: 'Een bijbelgedeelte voor elke dag van het jaar, hetzelfde in alle vijf talen.' },
};

/**
 * The feed of one language. A static file cannot know today's date, so the feed is the calendar:
 * every day of the year in order, without publication dates (a date needs a year, and the files are
 * the same every year); each item's `guid` names its day, and its link is the day's endpoint,
 * which answers today's passage. The same bytes for the same days and public URL.
 *
 * @example verseOfTheDayFeed(info, days, 'https://api.example.org').path // 'api/v1/bible/verse-of-the-day/fr.rss'
 */
export function verseOfTheDayFeed(
  info: Pick<VersionInfo, 'lang' | 'name' | 'attribution'>,
  days: readonly VerseOfTheDayResponse[],
  publicBaseUrl: string,
): OutputFile {
  const words = FEED_WORDS[info.lang];
  const link = `${publicBaseUrl}/api/v1/bible/verse-of-the-day?lang=${info.lang}`;
  const dayName = new Intl.DateTimeFormat(info.lang, { day: 'numeric', month: 'long', timeZone: 'UTC' });
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0">',
    '<channel>',
    element('title', `${words.title} · ${info.name}`),
    element('link', link),
    element('description', `${words.description} ${info.attribution}`),
    element('language', info.lang),
    element('docs', 'https://www.rssboard.org/rss-specification'),
  ];
  for (const day of days) {
    const [month, date] = day.day.split('-').map(Number) as [number, number];
    const text = day.verses.map((verse) => `${verse.verse} ${verse.text}`).join(' ');
    lines.push(
      '<item>',
      element('title', `${dayName.format(Date.UTC(2024, month - 1, date))} · ${day.reference}`),
      element('link', link),
      element('description', `${text} (${day.reference}. ${info.attribution})`),
      `<guid isPermaLink="false">${escapeXml(`${publicBaseUrl}/api/v1/bible/verse-of-the-day/${info.lang}/${day.day}`)}</guid>`,
      '</item>',
    );
  }
  lines.push('</channel>', '</rss>', '');
  return { path: staticPaths.verseOfTheDayFeed(info.lang), content: lines.join('\n') };
}

function element(name: string, text: string): string {
  return `<${name}>${escapeXml(text)}</${name}>`;
}

/** Text as XML character data and attribute values: the five predefined entities. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[char]};`);
}
