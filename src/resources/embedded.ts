// What the single binary carries in its bundle: nothing here; scripts/binary/bundle.ts puts a generated module in this one's place.

/** The files and scripts a bundle carries, so that it needs no checkout around it. */
export interface EmbeddedBundle {
  /** Contents of the files the service reads at run time, by their path in the repository (`data/migrations/001_church_data.sql`). */
  files: Readonly<Record<string, string>>;
  /** The search worker, bundled on its own: the code a worker thread evaluates. */
  searchWorker: string;
  /** The commit the bundle was built from, `-dirty` when the work tree had changes; undefined outside a git checkout. */
  commit: string | undefined;
}

/** Undefined when the service runs from the checkout (tsx): resources are then read from disk. */
export const embedded: EmbeddedBundle | undefined = undefined;
