// The church import: a whole document validated first, then written by the repository in one transaction.

import type { ChurchImportRecord, ImportSummary } from '../records.ts';
import type { ChurchRepository } from '../repository.ts';
import { type ImportOptions, validateChurchDocument } from './validate.ts';

export interface ImportChurchesOptions extends ImportOptions {
  /**
   * Called once the whole document is valid, just before the one transaction that writes it: a long
   * import's sign of progress (the CLI prints it), and where a crash test knows the writing begins.
   */
  onValid?: (records: readonly ChurchImportRecord[]) => void;
}

/**
 * Validates the whole document first, then writes it in one transaction: nothing is written when
 * any record is invalid.
 *
 * @example await importChurchDocument(churches, JSON.parse(fs.readFileSync('churches.json', 'utf8')))
 */
export async function importChurchDocument(
  repository: ChurchRepository,
  document: unknown,
  options: ImportChurchesOptions = {},
): Promise<ImportSummary> {
  const records = validateChurchDocument(document, options);
  options.onValid?.(records);
  return repository.importChurches(records);
}
