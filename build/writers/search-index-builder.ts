// A MiniSearch index built verse by verse in compact arrays and written out in chunks, byte for byte as MiniSearch serialises it.
import MiniSearch, { type Options } from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import { ByteChunks } from './byte-chunks.ts';
import { PackedStrings } from './packed-strings.ts';
import { type SearchDocument, searchOptions } from './search-options.ts';
import { findWords, WordBounds } from './split-words.ts';
import { TokenTable } from './token-table.ts';

type ProcessTerm = NonNullable<Options<SearchDocument>['processTerm']>;

/** About how many bytes each chunk of the serialised index holds. */
const CHUNK_BYTES = 64 * 1024;
const COMMA = 0x2c;
const QUOTE = 0x22;
/** Written as bytes, not `ascii('":')`: that is a call into C++ per posting (millions), measured at 0.2 s of the index thread. */
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Why not `new MiniSearch().addAll(documents)` then `JSON.stringify(miniSearch)`: measured on
 * the KJV (31,102 verses), MiniSearch's radix tree of Maps takes 2.2 s and 60 MB of heap to
 * build, `toJSON` copies it into 40 MB of plain objects, and `JSON.stringify` makes one 9 MB
 * string; five of them made the build's search step the longest and its largest. This builder
 * keeps every posting in three typed arrays (about 8 MB for a Bible, off V8's heap), each distinct
 * raw token once, not the verse texts, and writes the same JSON text in 64 kB chunks of bytes.
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
  /** JSON text of each document's id (off the heap: packed-strings.ts says why). */
  readonly #ids = new PackedStrings();
  /** JSON text of each document's stored fields. */
  readonly #stored = new PackedStrings();
  /** Each document's field length (distinct raw tokens). */
  readonly #lengths: number[] = [];
  #averageLength = 0;
  /** Term → its number, in order of first appearance. */
  readonly #termNumbers = new Map<string, number>();
  /**
   * Every posting (a term in a document, with its frequency), in the order the documents came, in
   * typed arrays: off V8's heap and without one growing array per term, which measured as most of
   * the thread's garbage collection. `chunks` groups them by term.
   */
  readonly #postingTerm = new GrowableInt32Array();
  readonly #postingDocument = new GrowableInt32Array();
  readonly #postingFrequency = new GrowableInt32Array();
  /** Per term number: its last posting (documents come in order, so a document that has the term already has it there), or -1. */
  readonly #lastPosting = new GrowableInt32Array();
  /**
   * Each distinct raw token's number, found by its place in the verse (token-table.ts): a verse's
   * tokens are looked up once each, and `processTerm` (lower case, accents stripped) runs once per
   * distinct token, not per word.
   */
  readonly #tokens = new TokenTable();
  /** Per token number: its term's number, -1 when `processTerm` drops it, or -2 - i for several terms (`#tokenTermLists[i]`). */
  readonly #tokenTerm = new GrowableInt32Array();
  readonly #tokenTermLists: number[][] = [];
  /** Per token number: the last document it was counted in, for the field length. */
  readonly #tokenLastDocument = new GrowableInt32Array();
  /** Where the words of the verse being added are: MiniSearch's default tokenizer, the same words by a faster scan (split-words.ts). */
  readonly #words = new WordBounds();
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
    return this.#ids.size;
  }

  /** Adds one document; its text is not kept. */
  add(document: SearchDocument): void {
    const shortId = this.#ids.size;
    this.#ids.push(JSON.stringify(document.id));
    const stored: Record<string, unknown> = {};
    for (const field of this.#storeFields) if (document[field] !== undefined) stored[field] = document[field];
    this.#stored.push(JSON.stringify(stored));
    // The field length is the number of distinct raw tokens (MiniSearch's `new Set(tokens).size`), counted with
    // each token's mark of the last document it was seen in rather than a Set per verse.
    let length = 0;
    const text = document.text;
    const words = this.#words;
    findWords(text, words);
    for (let word = 0; word < words.count; word++) {
      const start = words.offsets[2 * word];
      const end = words.offsets[2 * word + 1];
      let number = this.#tokens.find(text, start, end);
      if (number < 0) number = this.#newToken(text.slice(start, end));
      if (this.#tokenLastDocument.data[number] !== shortId) {
        this.#tokenLastDocument.data[number] = shortId;
        length++;
      }
      const term = this.#tokenTerm.data[number];
      if (term >= 0) this.#addPosting(term, shortId);
      else if (term < -1) for (const each of this.#tokenTermLists[-2 - term]) this.#addPosting(each, shortId);
    }
    this.#lengths.push(length);
    this.#averageLength = (this.#averageLength * shortId + length) / (shortId + 1);
  }

  /**
   * The serialised index, in chunks of about 64 kB: the UTF-8 bytes of `JSON.stringify(miniSearch)`
   * for a MiniSearch that was given the same documents (written as bytes: byte-chunks.ts says why).
   */
  *chunks(): Generator<Uint8Array> {
    const count = this.#ids.size;
    const out = new ByteChunks(CHUNK_BYTES);
    out.ascii(`{"documentCount":${count},"nextId":${count},"documentIds":{`);
    yield* entriesByShortId(out, count, (id) => out.bytes(this.#ids.bytes(id)));
    out.ascii('},"fieldIds":{"text":0},"fieldLength":{');
    yield* entriesByShortId(out, count, (id) => {
      out.byte(OPEN_BRACKET);
      out.integer(this.#lengths[id]);
      out.byte(CLOSE_BRACKET);
    });
    out.ascii(`},"averageFieldLength":[${count === 0 ? '' : JSON.stringify(this.#averageLength)}],"storedFields":{`);
    yield* entriesByShortId(out, count, (id) => out.bytes(this.#stored.bytes(id)));
    out.ascii('},"dirtCount":0,"index":[');
    const { start, documents, frequencies } = this.#postingsByTerm();
    let first = true;
    for (const [term, number] of this.#radixOrder()) {
      if (!first) out.byte(COMMA);
      out.byte(OPEN_BRACKET);
      out.utf8(JSON.stringify(term));
      out.ascii(',{"0":{');
      for (let at = start[number]; at < start[number + 1]; at++) {
        if (at !== start[number]) out.byte(COMMA);
        out.byte(QUOTE);
        out.integer(documents[at]);
        out.byte(QUOTE);
        out.byte(COLON);
        out.integer(frequencies[at]);
        if (out.full) yield out.take();
      }
      out.ascii('}}]');
      first = false;
      if (out.full) yield out.take();
    }
    out.ascii('],"serializationVersion":2}');
    yield out.take();
  }

  /** A raw token seen for the first time, numbered: its terms (processTerm's output) numbered, new ones in order of first appearance. */
  #newToken(token: string): number {
    const processed = this.#processTerm(token, 'text');
    const terms = (Array.isArray(processed) ? processed : processed ? [processed] : []).map((term) => {
      let number = this.#termNumbers.get(term);
      if (number === undefined) {
        number = this.#termNumbers.size;
        this.#termNumbers.set(term, number);
        this.#lastPosting.push(-1);
      }
      return number;
    });
    const number = this.#tokens.add(token);
    if (terms.length === 1) this.#tokenTerm.push(terms[0]);
    else if (terms.length === 0) this.#tokenTerm.push(-1);
    else this.#tokenTerm.push(-2 - (this.#tokenTermLists.push(terms) - 1));
    this.#tokenLastDocument.push(-1);
    return number;
  }

  #addPosting(term: number, shortId: number): void {
    const last = this.#lastPosting.data[term];
    if (last >= 0 && this.#postingDocument.data[last] === shortId) {
      this.#postingFrequency.data[last]++;
      return;
    }
    this.#lastPosting.data[term] = this.#postingTerm.length;
    this.#postingTerm.push(term);
    this.#postingDocument.push(shortId);
    this.#postingFrequency.push(1);
  }

  /** The postings grouped by term (a counting sort, stable: each term's documents stay in order); term t's are at start[t] to start[t + 1]. */
  #postingsByTerm(): { start: Int32Array; documents: Int32Array; frequencies: Int32Array } {
    const terms = this.#termNumbers.size;
    const count = this.#postingTerm.length;
    const term = this.#postingTerm.data;
    const start = new Int32Array(terms + 1);
    for (let at = 0; at < count; at++) start[term[at] + 1]++;
    for (let t = 0; t < terms; t++) start[t + 1] += start[t];
    const next = start.slice(0, terms);
    const documents = new Int32Array(count);
    const frequencies = new Int32Array(count);
    for (let at = 0; at < count; at++) {
      const to = next[term[at]]++;
      documents[to] = this.#postingDocument.data[at];
      frequencies[to] = this.#postingFrequency.data[at];
    }
    return { start, documents, frequencies };
  }

  /** The terms in MiniSearch's serialisation order: its radix tree fed the distinct terms in order of first appearance. */
  #radixOrder(): Iterable<[string, number]> {
    const tree = new SearchableMap<number>();
    for (const [term, number] of this.#termNumbers) tree.set(term, number);
    return tree;
  }
}

/** An Int32Array that grows as values are pushed (doubling); `data` may have room past `length`. */
class GrowableInt32Array {
  data = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const larger = new Int32Array(this.data.length * 2);
      larger.set(this.data);
      this.data = larger;
    }
    this.data[this.length++] = value;
  }
}

/**
 * The members `"0":…,"1":…` of an object keyed by short id, for every id below `count`, each value
 * written by `value`; full chunks are handed out as they fill.
 */
function* entriesByShortId(out: ByteChunks, count: number, value: (id: number) => void): Generator<Uint8Array> {
  for (let id = 0; id < count; id++) {
    if (id > 0) out.byte(COMMA);
    out.byte(QUOTE);
    out.integer(id);
    out.byte(QUOTE);
    out.byte(COLON);
    value(id);
    if (out.full) yield out.take();
  }
}
