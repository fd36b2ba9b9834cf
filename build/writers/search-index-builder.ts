// A MiniSearch index built verse by verse in compact arrays and written out in chunks, byte for byte as MiniSearch serialises it.
import MiniSearch, { type Options } from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import { type SearchDocument, searchOptions } from './search-options.ts';

type ProcessTerm = NonNullable<Options<SearchDocument>['processTerm']>;
type Tokenize = NonNullable<Options<SearchDocument>['tokenize']>;

/** Bound on a term's occurrences in one document (a verse has a few dozen words), so a posting packs into one integer. */
const FREQUENCIES = 1024;

/** A raw token as the builder knows it. */
interface RawToken {
  /** Numbers of the terms `processTerm` makes of it (none when it drops the token). */
  terms: number[];
  /** The last document it was counted in, for the field length. */
  lastDocument: number;
}

/** About how many characters each chunk of the serialised index holds. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Why not `new MiniSearch().addAll(documents)` then `JSON.stringify(miniSearch)`: measured on
 * the KJV (31,102 verses), MiniSearch's radix tree of Maps takes 2.2 s and 60 MB of heap to
 * build, `toJSON` copies it into 40 MB of plain objects, and `JSON.stringify` makes one 9 MB
 * string; five of them made the build's search step the longest and its largest. This builder
 * keeps each term's postings as one array of small integers (about 7 MB for a Bible), does not keep
 * the verse texts, and writes the same JSON text in 64 kB chunks.
 *
 * Same text as MiniSearch 7's `toJSON` (serializationVersion 2) with `searchOptions()`: the same
 * tokenizer (MiniSearch's default) and `processTerm`; a field length is the number of distinct
 * raw tokens, and the average is updated as MiniSearch updates it (same floating-point steps);
 * terms come in the order of MiniSearch's radix tree (`SearchableMap`), which depends only on
 * the order in which distinct terms first appear, so the distinct terms are inserted into one
 * in that order; object keys that are document numbers come out in ascending order, as JSON
 * objects order integer keys. test/build/writers/search-index-builder.test.ts compares the
 * bytes with MiniSearch's own on synthetic verses, test/build/pipeline-full.test.ts on two real versions.
 *
 * @example const index = new SearchIndexBuilder(); for (const d of documents) index.add(d); for (const chunk of index.chunks()) out.write(chunk);
 */
export class SearchIndexBuilder {
  /** JSON text of each document's id. */
  readonly #ids: string[] = [];
  /** JSON text of each document's stored fields. */
  readonly #stored: string[] = [];
  /** Each document's field length (distinct raw tokens). */
  readonly #lengths: number[] = [];
  #averageLength = 0;
  /** Term → its number, in order of first appearance. */
  readonly #termNumbers = new Map<string, number>();
  /** Per term number: its postings in document order, each `document * FREQUENCIES + frequency` (one small integer, not two). */
  readonly #postings: number[][] = [];
  /**
   * Each distinct raw token and the numbers of the terms it stands for: a verse's tokens are looked up
   * once each, and `processTerm` (lower case, accents stripped) runs once per distinct token, not per word.
   */
  readonly #tokens = new Map<string, RawToken>();
  readonly #tokenize = MiniSearch.getDefault('tokenize') as Tokenize;
  readonly #processTerm: ProcessTerm;
  readonly #storeFields: readonly (keyof SearchDocument)[];

  constructor() {
    const options = searchOptions();
    if (options.fields.length !== 1 || options.fields[0] !== 'text' || options.idField !== 'id' || options.tokenize) {
      throw new Error('SearchIndexBuilder writes indexes of one field, "text", with MiniSearch’s default tokenizer');
    }
    this.#processTerm = options.processTerm ?? (MiniSearch.getDefault('processTerm') as ProcessTerm);
    this.#storeFields = (options.storeFields ?? []) as (keyof SearchDocument)[];
  }

  /** Number of documents added. */
  get documentCount(): number {
    return this.#ids.length;
  }

  /** Adds one document; its text is not kept. */
  add(document: SearchDocument): void {
    const shortId = this.#ids.length;
    this.#ids.push(JSON.stringify(document.id));
    const stored: Record<string, unknown> = {};
    for (const field of this.#storeFields) if (document[field] !== undefined) stored[field] = document[field];
    this.#stored.push(JSON.stringify(stored));
    // The field length is the number of distinct raw tokens (MiniSearch's `new Set(tokens).size`), counted with
    // each token's mark of the last document it was seen in rather than a Set per verse.
    let length = 0;
    for (const token of this.#tokenize(document.text, 'text')) {
      const known = this.#tokens.get(token) ?? this.#newToken(token);
      if (known.lastDocument !== shortId) {
        known.lastDocument = shortId;
        length++;
      }
      for (const number of known.terms) this.#addPosting(number, shortId);
    }
    this.#lengths.push(length);
    this.#averageLength = (this.#averageLength * shortId + length) / (shortId + 1);
  }

  /**
   * The serialised index, in chunks of about 64 kB: the text of `JSON.stringify(miniSearch)`
   * for a MiniSearch that was given the same documents.
   */
  *chunks(): Generator<string> {
    const count = this.#ids.length;
    let buffer = `{"documentCount":${count},"nextId":${count},"documentIds":{`;
    for (let id = 0; id < count; id++) {
      buffer += `${id === 0 ? '' : ','}"${id}":${this.#ids[id]}`;
      if (buffer.length >= CHUNK_CHARS) {
        yield buffer;
        buffer = '';
      }
    }
    buffer += '},"fieldIds":{"text":0},"fieldLength":{';
    for (let id = 0; id < count; id++) {
      buffer += `${id === 0 ? '' : ','}"${id}":[${this.#lengths[id]}]`;
      if (buffer.length >= CHUNK_CHARS) {
        yield buffer;
        buffer = '';
      }
    }
    buffer += `},"averageFieldLength":[${count === 0 ? '' : JSON.stringify(this.#averageLength)}],"storedFields":{`;
    for (let id = 0; id < count; id++) {
      buffer += `${id === 0 ? '' : ','}"${id}":${this.#stored[id]}`;
      if (buffer.length >= CHUNK_CHARS) {
        yield buffer;
        buffer = '';
      }
    }
    buffer += '},"dirtCount":0,"index":[';
    let first = true;
    for (const [term, number] of this.#radixOrder()) {
      const postings = this.#postings[number];
      let entry = `${first ? '' : ','}[${JSON.stringify(term)},{"0":{`;
      for (let at = 0; at < postings.length; at++) {
        entry += `${at === 0 ? '' : ','}"${Math.floor(postings[at] / FREQUENCIES)}":${postings[at] % FREQUENCIES}`;
      }
      buffer += `${entry}}}]`;
      first = false;
      if (buffer.length >= CHUNK_CHARS) {
        yield buffer;
        buffer = '';
      }
    }
    yield `${buffer}],"serializationVersion":2}`;
  }

  /** A raw token seen for the first time: its terms (processTerm's output) numbered, new ones in order of first appearance. */
  #newToken(token: string): RawToken {
    const processed = this.#processTerm(token, 'text');
    const terms = (Array.isArray(processed) ? processed : processed ? [processed] : []).map((term) => {
      let number = this.#termNumbers.get(term);
      if (number === undefined) {
        number = this.#postings.length;
        this.#termNumbers.set(term, number);
        this.#postings.push([]);
      }
      return number;
    });
    const entry = { terms, lastDocument: -1 };
    this.#tokens.set(token, entry);
    return entry;
  }

  #addPosting(number: number, shortId: number): void {
    const postings = this.#postings[number];
    // Documents arrive in order, so this document, if it has the term already, is the last one listed.
    const last = postings.length - 1;
    if (last < 0 || Math.floor(postings[last] / FREQUENCIES) !== shortId) postings.push(shortId * FREQUENCIES + 1);
    else if (postings[last] % FREQUENCIES === FREQUENCIES - 1)
      throw new Error(`a term occurs ${FREQUENCIES} times or more in document ${shortId}`);
    else postings[last]++;
  }

  /** The terms in MiniSearch's serialisation order: its radix tree fed the distinct terms in order of first appearance. */
  #radixOrder(): Iterable<[string, number]> {
    const tree = new SearchableMap<number>();
    for (const [term, number] of this.#termNumbers) tree.set(term, number);
    return tree;
  }
}
