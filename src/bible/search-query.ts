// Turns a user's search text into a safe FTS5 expression: words ANDed, "quoted phrases" as phrases.

/**
 * The FTS5 MATCH expression for `q`, or undefined when it holds nothing searchable.
 *
 * Every word and every quoted phrase becomes an FTS5 string token (`"..."`, inner quotes
 * doubled), so FTS5 operators typed by a user (`NEAR`, `AND`, `*`, `-`, `:`, `^`, parentheses)
 * are searched as text, never parsed as syntax. Inside a string token the table's tokenizer
 * (unicode61, diacritics removed) splits and folds the text, so `l'Éternel` is the phrase
 * "l eternel" and case and accents never matter. Tokens are joined by spaces: FTS5's implicit AND.
 * An unbalanced quote is taken as ordinary punctuation.
 *
 * @example ftsQuery('amour "le monde"')  // '"amour" "le monde"'
 */
export function ftsQuery(q: string): string | undefined {
  const terms: string[] = [];
  const pattern = /"([^"]*)"|([^\s"]+)/g;
  // Control characters (NUL above all, which SQLite would cut the string at) are separators.
  const text = q.normalize('NFC').replace(/\p{Cc}/gu, ' ');
  for (const match of text.matchAll(pattern)) {
    const term = (match[1] ?? match[2] ?? '').trim();
    if (!SEARCHABLE.test(term)) continue;
    terms.push(`"${term.replace(/"/g, '""')}"`);
  }
  return terms.length > 0 ? terms.join(' ') : undefined;
}

/** A term the tokenizer keeps something of: at least one letter or digit. */
const SEARCHABLE = /[\p{L}\p{N}]/u;
