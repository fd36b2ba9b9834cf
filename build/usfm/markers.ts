// What each USFM marker means to the reader: which ones carry verse text, headings, notes, or nothing we keep.

/**
 * - `body`: a paragraph or poetry line of scripture; its text joins the current verse after a space.
 * - `heading`: a section heading; its text goes to the `heading` field of the next verse.
 * - `ignored`: a paragraph whose text is not scripture (book titles, running headers,
 *   introductions, parallel-passage references, comments); its text is dropped.
 * - `character`: an inline style whose text is kept as plain text (`\wj`, `\nd`, `\qs` …).
 * - `footnote` / `crossref` / `dropped-inline`: inline content taken out of the text.
 * - `note-part`: a marker inside a footnote or cross-reference (`\ft`, `\xo`, `\xt` …).
 * - `table-cell`: a cell inside a table row; the row itself is a `body` paragraph.
 */
export type MarkerKind =
  | 'body'
  | 'heading'
  | 'ignored'
  | 'character'
  | 'footnote'
  | 'crossref'
  | 'dropped-inline'
  | 'note-part'
  | 'table-cell';

/** Marker names with a trailing level digit written without it ("q" covers "q", "q1", "q2" …). */
const byBaseName: Record<string, MarkerKind> = {
  // Paragraphs and poetry: scripture text.
  p: 'body',
  m: 'body',
  po: 'body',
  pr: 'body',
  cls: 'body',
  pmo: 'body',
  pm: 'body',
  pmc: 'body',
  pmr: 'body',
  pi: 'body',
  mi: 'body',
  nb: 'body',
  pc: 'body',
  ph: 'body',
  b: 'body',
  pb: 'body',
  q: 'body',
  qr: 'body',
  qc: 'body',
  qm: 'body',
  qd: 'body',
  li: 'body',
  lh: 'body',
  lf: 'body',
  lim: 'body',
  tr: 'body',
  pgi: 'body',

  // Section headings. `\d` (a Psalm title) is scripture in the Hebrew text, but the model has no
  // place for text that stands before verse 1 without a number, and the KJV-style sources the other
  // readers handle give it the same place; so it goes to the heading of the verse it introduces.
  // The LSG source has no `\d` at all: it numbers Psalm titles as verse 1, as French Bibles do,
  // and those titles therefore stay in the verse text. `\qa` (the Hebrew letter over each stanza
  // of Psalm 119) and `\sp` (the speaker in Song of Songs and Job) are headings as well.
  s: 'heading',
  ms: 'heading',
  d: 'heading',
  qa: 'heading',
  sp: 'heading',

  // Not scripture: identification, running headers, titles, comments, parallel-passage references
  // (`\r`, `\mr`, `\sr` list references such as "(Ps 112; 128.)" under a heading), division marks.
  ide: 'ignored',
  h: 'ignored',
  toc: 'ignored',
  toca: 'ignored',
  mt: 'ignored',
  mte: 'ignored',
  rem: 'ignored',
  sts: 'ignored',
  restore: 'ignored',
  usfm: 'ignored',
  cl: 'ignored',
  cp: 'ignored',
  cd: 'ignored',
  periph: 'ignored',
  r: 'ignored',
  mr: 'ignored',
  sr: 'ignored',
  sd: 'ignored',
  lit: 'ignored',
  iex: 'ignored',

  // Introductions: editorial additions, never verse text.
  imt: 'ignored',
  imte: 'ignored',
  is: 'ignored',
  ip: 'ignored',
  ipi: 'ignored',
  im: 'ignored',
  imi: 'ignored',
  ipq: 'ignored',
  imq: 'ignored',
  ipr: 'ignored',
  ipc: 'ignored',
  iq: 'ignored',
  ib: 'ignored',
  ili: 'ignored',
  iot: 'ignored',
  io: 'ignored',
  ie: 'ignored',

  // Inline styles whose words are scripture.
  wj: 'character',
  add: 'character',
  nd: 'character',
  bk: 'character',
  qs: 'character',
  sc: 'character',
  it: 'character',
  bd: 'character',
  bdit: 'character',
  em: 'character',
  no: 'character',
  k: 'character',
  w: 'character',
  tl: 'character',
  pn: 'character',
  png: 'character',
  qt: 'character',
  sig: 'character',
  sls: 'character',
  ord: 'character',
  qac: 'character',
  litl: 'character',
  dc: 'character',
  addpn: 'character',
  wg: 'character',
  wh: 'character',
  wa: 'character',
  rb: 'character',
  jmp: 'character',
  sup: 'character',
  ior: 'character',
  iqt: 'character',
  lik: 'character',
  liv: 'character',

  // Inline content that is not verse text.
  f: 'footnote',
  fe: 'footnote',
  ef: 'footnote',
  x: 'crossref',
  ex: 'crossref',
  fig: 'dropped-inline',
  rq: 'dropped-inline',
  cat: 'dropped-inline',
  va: 'dropped-inline',
  vp: 'dropped-inline',
  ca: 'dropped-inline',

  // Parts of notes.
  fr: 'note-part',
  fk: 'note-part',
  fq: 'note-part',
  fqa: 'note-part',
  fl: 'note-part',
  fw: 'note-part',
  fp: 'note-part',
  fv: 'note-part',
  ft: 'note-part',
  fdc: 'note-part',
  fm: 'note-part',
  xo: 'note-part',
  xk: 'note-part',
  xq: 'note-part',
  xt: 'note-part',
  xta: 'note-part',
  xop: 'note-part',
  xot: 'note-part',
  xnt: 'note-part',
  xdc: 'note-part',

  th: 'table-cell',
  thr: 'table-cell',
  thc: 'table-cell',
  tc: 'table-cell',
  tcr: 'table-cell',
  tcc: 'table-cell',
};

/** Footnote parts whose text is the note itself (the origin reference `\fr` and the like are left out). */
export const FOOTNOTE_TEXT_PARTS: ReadonlySet<string> = new Set(['ft', 'fk', 'fq', 'fqa', 'fl', 'fw', 'fp']);

/** The kind of a marker, or undefined for a marker this reader does not know. */
export function markerKind(name: string): MarkerKind | undefined {
  if (Object.hasOwn(byBaseName, name)) return byBaseName[name];
  const base = name.replace(/\d+$/, '');
  return base !== name && Object.hasOwn(byBaseName, base) ? byBaseName[base] : undefined;
}

/** USFM 3 milestones (`\qt-s |who="Pilate"\*`, `\zaln-e\*`, `\ts\*`): markers that hold attributes, never text. */
export function isMilestone(name: string): boolean {
  return name === 'ts' || /-[se]$/.test(name);
}
