// Loads the fictional demo churches (data/demo/churches.json) into an empty database at start.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/open.ts';
import { validateChurchDocument } from './import.ts';
import { createChurchWriter } from './sqlite-repository.ts';
import type { ImportSummary } from './types.ts';

export const DEMO_DATA_FILE = path.resolve(import.meta.dirname, '../../data/demo/churches.json');

/**
 * Imports the demo document when the database has no church yet; returns what was written, or
 * undefined when churches were already there (the operator's data is never touched).
 * Relative event times in the file are resolved against `now`, so the demo always has upcoming events.
 */
export function loadDemoDataIfEmpty(db: Db, now: Date = new Date(), file: string = DEMO_DATA_FILE): ImportSummary | undefined {
  const existing = db.prepare('SELECT count(*) AS n FROM churches').get() as { n: number };
  if (existing.n > 0) return undefined;
  const document: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  return createChurchWriter(db)(validateChurchDocument(document, { now }));
}
