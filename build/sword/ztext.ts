// Random access to the raw entries of one zText testament (.bzs block index, .bzv verse index, .bzz zlib blocks).
import { TextDecoder } from 'node:util';
import { inflateSync } from 'node:zlib';
import type { ZTextFiles } from './module-zip.ts';

/** Bytes per .bzs record: u32 offset into .bzz, u32 compressed size, u32 uncompressed size. */
const BLOCK_RECORD_SIZE = 12;
/** Bytes per .bzv record: u32 block number, u32 offset in the uncompressed block, u16 size. */
const VERSE_RECORD_SIZE = 10;

/**
 * One testament of a zText module. Entries are read in index order by every caller we
 * have, so the last decompressed block is kept and reused.
 *
 * @example new ZTextTestament(files.nt!, 'UTF-8').rawEntry(4) // Matthew 1:1
 */
export class ZTextTestament {
  /** Number of entries in the verse index. */
  readonly entryCount: number;
  /** Number of compressed blocks. */
  readonly blockCount: number;
  private readonly bzs: DataView;
  private readonly bzv: DataView;
  private readonly bzz: Uint8Array;
  private readonly decoder: TextDecoder;
  private cachedBlockNumber = -1;
  private cachedBlock: Uint8Array = new Uint8Array(0);

  constructor(files: ZTextFiles, encoding: string | undefined) {
    this.bzs = new DataView(files.bzs.buffer, files.bzs.byteOffset, files.bzs.byteLength);
    this.bzv = new DataView(files.bzv.buffer, files.bzv.byteOffset, files.bzv.byteLength);
    this.bzz = files.bzz;
    this.entryCount = Math.floor(files.bzv.byteLength / VERSE_RECORD_SIZE);
    this.blockCount = Math.floor(files.bzs.byteLength / BLOCK_RECORD_SIZE);
    // SWORD modules are UTF-8 or Latin-1: a conf without Encoding= means Latin-1 (decoded as its superset windows-1252).
    this.decoder = new TextDecoder(encoding && /^utf-?8$/i.test(encoding.trim()) ? 'utf-8' : 'windows-1252');
  }

  /**
   * The raw (markup) text of entry `index` as the SWORD library returns it: trailing
   * whitespace trimmed (stored entries often end in a space; `mod2imp` shows them without).
   * Empty for an index past the end or an empty entry.
   */
  rawEntry(index: number): string {
    const bytes = this.rawEntryBytes(index);
    return bytes.length === 0 ? '' : this.decoder.decode(bytes).trimEnd();
  }

  /** The stored bytes of entry `index`, untrimmed: a view into the cached block, valid until the next block is read. */
  rawEntryBytes(index: number): Uint8Array {
    if (index < 0 || index >= this.entryCount) return new Uint8Array(0);
    const record = index * VERSE_RECORD_SIZE;
    const blockNumber = this.bzv.getUint32(record, true);
    const start = this.bzv.getUint32(record + 4, true);
    const size = this.bzv.getUint16(record + 8, true);
    if (size === 0) return new Uint8Array(0);
    const block = this.block(blockNumber);
    if (start + size > block.length) {
      throw new Error(`zText entry ${index} runs past the end of block ${blockNumber} (${start}+${size} > ${block.length})`);
    }
    return block.subarray(start, start + size);
  }

  private block(blockNumber: number): Uint8Array {
    if (blockNumber === this.cachedBlockNumber) return this.cachedBlock;
    if (blockNumber >= this.blockCount) throw new Error(`zText block ${blockNumber} is not in the block index`);
    const record = blockNumber * BLOCK_RECORD_SIZE;
    const offset = this.bzs.getUint32(record, true);
    const compressedSize = this.bzs.getUint32(record + 4, true);
    const compressed = this.bzz.subarray(offset, offset + compressedSize);
    this.cachedBlock = new Uint8Array(inflateSync(compressed));
    this.cachedBlockNumber = blockNumber;
    return this.cachedBlock;
  }
}
