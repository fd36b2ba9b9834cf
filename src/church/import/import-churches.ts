// The church import: a whole document validated first, then written by the repository in one transaction.

import type { ImportSummary } from '../records.ts';
import type { ChurchRepository } from '../repository.ts';
import { type ImportOptions, validateChurchDocument } from './validate.ts';

/**
 * Validates the whole document first, then writes it in one transaction: nothing is written when
 * any record is invalid.
 *
 * @example await importChurchDocument(churches, JSON.parse(fs.readFileSync('churches.json', 'utf8')))
 */
export async function importChurchDocument(
  repository: ChurchRepository,
  document: unknown,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  return repository.importChurches(validateChurchDocument(document, options));
}
