// The download of one version: every book, chapter and verse in one file (the Download body), with its size and SHA-256.
import { createHash } from 'node:crypto';
import { downloadUrl, staticPaths } from '../contract/layout.ts';
import type { DownloadLink } from '../contract/response-schemas.ts';
import { downloadVersion } from '../contract/responses.ts';
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
 * `chapterFiles`, when given, are the bytes of the version's chapter files in the tree's order
 * (what `versionTree` yields after the books list), already serialised by the caller that wrote
 * them: the build's tree thread passes them rather than serialising every chapter twice.
 *
 * @example downloadFile(version).link // { url: '/api/v1/bible/download?lang=en', bytes: 5712345, sha256: '…' }
 */
export function downloadFile(version: BuiltVersion, chapterFiles?: readonly Uint8Array[]): Download {
  const { lang } = version.info;
  // Chapter by chapter into buffers, never one string of the whole version: a 6 MB text with accents
  // is a 12 MB two-byte string on the thread's bounded heap, on top of its bytes.
  const chapters = chapterFiles ?? [...versionChapters(version)].map(({ body }) => Buffer.from(JSON.stringify(body)));
  const parts: Uint8Array[] = [
    Buffer.from(`{"version":${JSON.stringify(downloadVersion(version.info, versionCounts(version)))}`),
    Buffer.from(`,"books":${JSON.stringify(versionBooks(version).books)}`),
    Buffer.from(',"chapters":['),
  ];
  for (const [index, chapter] of chapters.entries()) {
    if (index > 0) parts.push(COMMA);
    parts.push(chapter);
  }
  parts.push(Buffer.from(']}'));
  const content = Buffer.concat(parts);
  return {
    file: { path: staticPaths.download(lang), content },
    link: { url: downloadUrl(lang), bytes: content.byteLength, sha256: createHash('sha256').update(content).digest('hex') },
  };
}

const COMMA = Buffer.from(',');
