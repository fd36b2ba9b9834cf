// Builds tiny SWORD zText module zips in memory (real .bzs/.bzv/.bzz layout, zlib blocks, conf) for reader tests.
import { deflateSync } from 'node:zlib';
import { strToU8, type Zippable, zipSync } from 'fflate';
import type { Testament } from '../../build/contract/books.ts';
import { testamentEntryCount, testamentLayout } from '../../build/sword/verse-index.ts';
import { type Versification, versificationByName } from '../../build/versification.ts';

export interface SyntheticSwordModule {
  /** Module name, used for the conf's section header and file names (default "TEST"). */
  name?: string;
  /** Versification whose index layout the module follows (default KJV). */
  versification?: Versification;
  /** Versification name written into the conf (default the versification's name). */
  confVersification?: string;
  /** Raw entry text by OSIS reference: "Gen.1.1" for a verse, "Gen.1.0" for a chapter intro, "Gen.0.0" for a book intro. */
  entries: Record<string, string>;
  /** Entries per compressed block (default 7, so that modules have several blocks). */
  entriesPerBlock?: number;
  /** Conf Encoding= value; "Latin-1" encodes entries as ISO-8859-1 (default UTF-8). */
  encoding?: string;
  /** Conf ModDrv= value (default zText). */
  driver?: string;
  /** Extra conf lines appended verbatim. */
  confExtra?: string;
}

/**
 * Writes a zText module zip: `mods.d/<name>.conf` and `modules/texts/ztext/<name>/{ot,nt}.{bzs,bzv,bzz}`.
 *
 * @example syntheticSwordZip({ entries: { 'Gen.1.1': 'In the beginning…' } })
 */
export function syntheticSwordZip(module: SyntheticSwordModule): Uint8Array {
  const name = module.name ?? 'TEST';
  const lower = name.toLowerCase();
  const versification = module.versification ?? versificationByName('KJV');
  const encoding = module.encoding ?? 'UTF-8';
  const dataPath = `modules/texts/ztext/${lower}/`;
  const conf = [
    `[${name}]`,
    `DataPath=./${dataPath}`,
    `ModDrv=${module.driver ?? 'zText'}`,
    'SourceType=OSIS',
    `Encoding=${encoding}`,
    'CompressType=ZIP',
    'BlockType=BOOK',
    `Versification=${module.confVersification ?? versification.name}`,
    'Lang=en',
    'Version=1.0',
    'DistributionLicense=Public Domain',
    `Description=Synthetic test module ${name}`,
    module.confExtra ?? '',
  ].join('\n');

  const files: Zippable = { [`mods.d/${lower}.conf`]: strToU8(conf) };
  for (const testament of ['OT', 'NT'] as Testament[]) {
    if (!versification.books.some((book) => book.testament === testament)) continue;
    const texts = testamentEntries(versification, testament, module.entries);
    const encode = (text: string) => (/^utf-?8$/i.test(encoding) ? strToU8(text) : latin1(text));
    const { bzs, bzv, bzz } = writeZText(texts.map(encode), module.entriesPerBlock ?? 7);
    const prefix = testament.toLowerCase();
    files[`${dataPath}${prefix}.bzs`] = bzs;
    files[`${dataPath}${prefix}.bzv`] = bzv;
    files[`${dataPath}${prefix}.bzz`] = bzz;
  }
  return zipSync(files);
}

/** Entry texts of one testament in index order, placed by the versification's layout. */
function testamentEntries(versification: Versification, testament: Testament, entries: Record<string, string>): string[] {
  const texts: string[] = new Array(testamentEntryCount(versification, testament)).fill('');
  const indexByReference = new Map<string, number>();
  for (const layout of testamentLayout(versification, testament)) {
    indexByReference.set(`${layout.book.osis}.0.0`, layout.introIndex);
    layout.chapterIntroIndex.forEach((introIndex, chapter) => {
      for (let verse = 0; verse <= layout.book.verses[chapter]; verse++) {
        indexByReference.set(`${layout.book.osis}.${chapter + 1}.${verse}`, introIndex + verse);
      }
    });
  }
  for (const [reference, text] of Object.entries(entries)) {
    const index = indexByReference.get(reference);
    if (index === undefined) {
      const otherTestament = versification.books.some((book) => reference.startsWith(`${book.osis}.`) && book.testament !== testament);
      if (otherTestament) continue;
      throw new Error(`Synthetic module: ${reference} is not in versification ${versification.name}`);
    }
    texts[index] = text;
  }
  return texts;
}

function writeZText(entries: Uint8Array[], entriesPerBlock: number): { bzs: Uint8Array; bzv: Uint8Array; bzz: Uint8Array } {
  const bzv = new DataView(new ArrayBuffer(entries.length * 10));
  const blockRecords: number[][] = [];
  const compressedBlocks: Uint8Array[] = [];
  let bzzSize = 0;
  for (let first = 0; first < entries.length; first += entriesPerBlock) {
    const blockNumber = blockRecords.length;
    const members = entries.slice(first, first + entriesPerBlock);
    const uncompressed = new Uint8Array(members.reduce((sum, entry) => sum + entry.length, 0));
    let offset = 0;
    members.forEach((entry, position) => {
      const record = (first + position) * 10;
      bzv.setUint32(record, blockNumber, true);
      bzv.setUint32(record + 4, offset, true);
      bzv.setUint16(record + 8, entry.length, true);
      uncompressed.set(entry, offset);
      offset += entry.length;
    });
    const compressed = new Uint8Array(deflateSync(uncompressed));
    blockRecords.push([bzzSize, compressed.length, uncompressed.length]);
    compressedBlocks.push(compressed);
    bzzSize += compressed.length;
  }
  const bzs = new DataView(new ArrayBuffer(blockRecords.length * 12));
  blockRecords.forEach((record, block) => {
    record.forEach((value, field) => {
      bzs.setUint32(block * 12 + field * 4, value, true);
    });
  });
  const bzz = new Uint8Array(bzzSize);
  let at = 0;
  for (const block of compressedBlocks) {
    bzz.set(block, at);
    at += block.length;
  }
  return { bzs: new Uint8Array(bzs.buffer), bzv: new Uint8Array(bzv.buffer), bzz };
}

function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (character) => {
    const code = character.charCodeAt(0);
    if (code > 0xff) throw new Error(`"${character}" has no Latin-1 byte`);
    return code;
  });
}
