// The TR39 skeleton of a string, from Unicode's confusables data (data/unicode/confusables.txt): strings that look alike share one.
import { readResourceText, resourcePath } from '../resources/resources.ts';

const CONFUSABLES_FILE = resourcePath('data/unicode/confusables.txt');

interface ConfusablesData {
  /** The data's Unicode version, from the file's header ("17.0.0"). */
  version: string;
  /** Prototype of each confusable code point. */
  prototypes: Map<number, string>;
}

let loaded: ConfusablesData | undefined;

/**
 * The skeleton of UTS #39, section 4: NFD, each code point replaced by its prototype, NFD again.
 * Two strings are confusable when their skeletons are equal; a skeleton is for comparing only
 * ("m" becomes "rn"), never for showing.
 *
 * @example skeleton('pаstor') === skeleton('pastor') // true: the first "а" is Cyrillic
 */
export function skeleton(text: string): string {
  const { prototypes } = confusables();
  let mapped = '';
  for (const character of text.normalize('NFD')) mapped += prototypes.get(character.codePointAt(0)!) ?? character;
  return mapped.normalize('NFD');
}

/** The Unicode version of the confusables data in use; part of every stored comparison key, so new data re-keys them. */
export function confusablesVersion(): string {
  return confusables().version;
}

/** Reads the data file once (about 6,500 mappings, a few milliseconds). */
function confusables(): ConfusablesData {
  if (loaded) return loaded;
  const text = readResourceText(CONFUSABLES_FILE);
  const version = /^# Version: (\d+\.\d+\.\d+)$/m.exec(text)?.[1];
  if (!version) throw new Error(`${CONFUSABLES_FILE} names no version in its header`);
  const prototypes = new Map<number, string>();
  for (const line of text.split('\n')) {
    // "0430 ;	0061 ;	MA	# ( а → a ) …": source code point ; prototype code points ; type, then a comment.
    const data = line.split('#', 1)[0].trim();
    if (data === '') continue;
    const [source, prototype] = data.split(';').map((field) => field.trim());
    const hex = (value: string) => Number.parseInt(value, 16);
    prototypes.set(hex(source), String.fromCodePoint(...prototype.split(/\s+/).map(hex)));
  }
  loaded = { version, prototypes };
  return loaded;
}
