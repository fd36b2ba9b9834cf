// The fictional demo churches (data/demo/churches.json): loaded into an empty church store at start, and named in examples.
import { readResourceText, resourcePath } from '../resources/resources.ts';
import { importChurchDocument } from './import/import-churches.ts';
import { validateChurchDocument } from './import/validate.ts';
import type { ImportSummary } from './records.ts';
import type { ChurchRepository } from './repository.ts';

export const DEMO_DATA_FILE = resourcePath('data/demo/churches.json');

/**
 * Imports the demo document when the store has no church yet; returns what was written, or
 * undefined when churches were already there (the operator's data is never touched).
 * Relative event times in the file are resolved against `now`, so the demo always has upcoming events.
 *
 * @example const loaded = await loadDemoDataIfEmpty(churches); // { churches: 5, events: …, … } on first start
 */
export async function loadDemoDataIfEmpty(
  churches: ChurchRepository,
  now: Date = new Date(),
  file: string = DEMO_DATA_FILE,
): Promise<ImportSummary | undefined> {
  if ((await churches.counts()).churches > 0) return undefined;
  const document: unknown = JSON.parse(readResourceText(file));
  return importChurchDocument(churches, document, { now });
}

/**
 * The slug of the demo data's first public church, for examples that should answer on a checkout
 * (`npm start` loads the demo data): the portal's guide names it.
 *
 * @example demoChurchSlug() // 'grace-paris'
 */
export function demoChurchSlug(file: string = DEMO_DATA_FILE): string {
  const records = validateChurchDocument(JSON.parse(readResourceText(file)));
  const church = records.find((record) => record.church.isPublic)?.church;
  if (church === undefined) throw new Error(`${file} has no public church`);
  return church.slug;
}
