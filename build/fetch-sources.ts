// Downloading the pinned Bible sources: temp file, SHA-256 check, then rename into place.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { SourceMismatchError, SourceMissingError, sourcePath, verifySourceFile } from './sources.ts';
import type { VersionManifestEntry } from './version-manifest.ts';

export interface FetchSourcesOptions {
  /** Directory the files go into; created if needed. */
  dir: string;
  entries: readonly VersionManifestEntry[];
  /** Base address that replaces each upstream URL with `<mirror>/<file>`. */
  mirror?: string;
  /** One line per file; quiet when omitted. */
  log?: (line: string) => void;
}

export interface FetchedSource {
  entry: VersionManifestEntry;
  path: string;
  /** `present`: already there with the pinned hash; `downloaded`: fetched and verified now. */
  status: 'present' | 'downloaded';
  sha256: string;
  /** Bytes downloaded (0 when present). */
  bytes: number;
}

/** The download of a source failed (network, HTTP status); the message names the URL. */
export class SourceDownloadError extends Error {
  override name = 'SourceDownloadError';
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
  }
}

/** One or more sources could not be fetched; `failures` holds each file's error. */
export class FetchSourcesError extends Error {
  override name = 'FetchSourcesError';
  constructor(
    readonly failures: readonly { entry: VersionManifestEntry; error: Error }[],
    readonly fetched: readonly FetchedSource[],
  ) {
    super(
      `${failures.length} Bible source(s) could not be fetched:\n` +
        failures.map(({ entry, error }) => `  ${entry.code} (${entry.file}): ${error.message}`).join('\n'),
    );
  }
}

/**
 * Makes sure every entry's file is in `dir` with its pinned SHA-256: files already there and
 * right are kept; others are downloaded to a temporary file in `dir`, hashed while they
 * stream, and renamed into place only when the hash matches, so `dir` never holds a
 * half-written file and a download with the wrong hash is deleted. Goes on past a failing
 * file and throws FetchSourcesError, listing every failure, at the end.
 *
 * @example await fetchSources({ dir: 'data/sources', entries: loadVersionManifest().versions, log: console.log });
 */
export async function fetchSources(options: FetchSourcesOptions): Promise<FetchedSource[]> {
  const { dir, entries, mirror, log = () => {} } = options;
  await mkdir(dir, { recursive: true });
  const fetched: FetchedSource[] = [];
  const failures: { entry: VersionManifestEntry; error: Error }[] = [];
  for (const entry of entries) {
    try {
      const result = await fetchOne(dir, entry, mirror, log);
      fetched.push(result);
    } catch (error) {
      log(`${entry.code} ${entry.file}: FAILED ${(error as Error).message}`);
      failures.push({ entry, error: error as Error });
    }
  }
  if (failures.length > 0) throw new FetchSourcesError(failures, fetched);
  return fetched;
}

/** Where the entry is downloaded from: its pinned URL, or `<mirror>/<file>`. */
export function sourceUrl(entry: VersionManifestEntry, mirror?: string): string {
  if (!mirror) return entry.url;
  return `${mirror.replace(/\/+$/, '')}/${encodeURIComponent(entry.file)}`;
}

async function fetchOne(
  dir: string,
  entry: VersionManifestEntry,
  mirror: string | undefined,
  log: (line: string) => void,
): Promise<FetchedSource> {
  const path = sourcePath(dir, entry);
  try {
    const { sha256 } = await verifySourceFile(path, entry);
    log(`${entry.code} ${entry.file}: present, SHA-256 ok`);
    return { entry, path, status: 'present', sha256, bytes: 0 };
  } catch (error) {
    if (error instanceof SourceMismatchError) log(`${entry.code} ${entry.file}: present but not the pinned file, downloading again`);
    else if (!(error instanceof SourceMissingError)) throw error;
  }

  const url = sourceUrl(entry, mirror);
  log(`${entry.code} ${entry.file}: downloading ${url}`);
  const temporary = join(dir, `.${entry.file}.${randomBytes(6).toString('hex')}.part`);
  try {
    const { sha256, bytes } = await download(url, temporary);
    if (sha256 !== entry.sha256) throw new SourceMismatchError(path, entry.sha256, sha256, entry, url);
    await rename(temporary, path);
    log(`${entry.code} ${entry.file}: downloaded ${formatBytes(bytes)}, SHA-256 ok`);
    return { entry, path, status: 'downloaded', sha256, bytes };
  } finally {
    // After a successful rename there is nothing left to remove.
    await rm(temporary, { force: true });
  }
}

/** Streams `url` into `file`, hashing on the way; answers the SHA-256 and byte count. */
async function download(url: string, file: string): Promise<{ sha256: string; bytes: number }> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'follow' });
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause;
    throw new SourceDownloadError(`cannot reach ${url}: ${cause?.message ?? (error as Error).message}`, url);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new SourceDownloadError(`${url} answered HTTP ${response.status} ${response.statusText}`.trim(), url);
  }
  const hash = createHash('sha256');
  let bytes = 0;
  await pipeline(
    Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
    async function* hashing(source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk);
        bytes += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(file, { flags: 'wx' }),
  );
  return { sha256: hash.digest('hex'), bytes };
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
