// The download of one version: every book, chapter and verse in one file (the Download body), with its size, SHA-256 and compressed copies.
import { createHash } from 'node:crypto';
import { downloadUrl, staticPaths } from '../contract/layout.ts';
import type { DownloadLink } from '../contract/response-schemas.ts';
import { downloadVersion } from '../contract/responses.ts';
import { type CompressOptions, compressedCopiesOffThread } from './compress.ts';
import type { BuiltVersion, OutputFile } from './types.ts';
import { versionBooks, versionChapters, versionCounts } from './version-bodies.ts';

/** A version's download file and the link the versions list gives for it. */
export interface Download {
  file: OutputFile;
  link: DownloadLink;
}

/**
 * The download of one version, made from the same bodies as the static tree (books list,
 * chapter files), so each chapter in it is exactly what the chapter endpoint answers. Serialised
 * deterministically, without the build hash: the SHA-256 changes only when the content does, so
 * an offline app that keeps the hash re-downloads only then.
 *
 * @example downloadFile(version).link // { url: '/api/v1/bible/download?lang=en', bytes: 5712345, sha256: '…' }
 */
export function downloadFile(version: BuiltVersion): Download {
  const { lang } = version.info;
  const parts = [
    `{"version":${JSON.stringify(downloadVersion(version.info, versionCounts(version)))}`,
    `,"books":${JSON.stringify(versionBooks(version).books)}`,
    ',"chapters":[',
  ];
  let first = true;
  for (const { body } of versionChapters(version)) {
    parts.push(first ? JSON.stringify(body) : `,${JSON.stringify(body)}`);
    first = false;
  }
  parts.push(']}');
  const content = Buffer.from(parts.join(''));
  return {
    file: { path: staticPaths.download(lang), content },
    link: { url: downloadUrl(lang), bytes: content.byteLength, sha256: createHash('sha256').update(content).digest('hex') },
  };
}

/**
 * Writes each version's download as the build streams versions: the file at once, its .br and
 * .gz copies off the main thread (compressedCopiesOffThread), while the build reads the next
 * version. At most one version's download is in memory beside the version being read: `add`
 * first waits for the previous one's copies.
 *
 * @example const downloads = new DownloadWriter((file) => staging.write(file)); const link = await downloads.add(version); await downloads.finish();
 */
export class DownloadWriter {
  #pending: Promise<void> = Promise.resolve();
  #stopped = false;

  /** `write` puts a file into the output (the plain file, then its two copies); nothing else is written. */
  constructor(
    private readonly write: (file: OutputFile) => void,
    private readonly options: CompressOptions = {},
  ) {}

  /** Writes the download of `version` and starts its compressed copies; resolves with its link. */
  async add(version: BuiltVersion): Promise<DownloadLink> {
    await this.#pending;
    const { file, link } = downloadFile(version);
    this.write(file);
    this.#pending = compressedCopiesOffThread(file, this.options).then((copies) => {
      if (this.#stopped) return;
      for (const copy of copies) this.write(copy);
    });
    // Handled when awaited (the next add, finish or abort); this keeps a failure meanwhile from being "unhandled".
    this.#pending.catch(() => {});
    return link;
  }

  /** Resolves once the last copies are written; rejects if any compression failed. */
  async finish(): Promise<void> {
    await this.#pending;
  }

  /** After a failed build: writes nothing more, and waits for the compression in flight to end. */
  async abort(): Promise<void> {
    this.#stopped = true;
    await this.#pending.catch(() => {});
  }
}
