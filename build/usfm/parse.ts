// One USFM file → one Book of the model (or a note that it is not a canonical book), with the issues met on the way.
import { bookByUsfm } from '../contract/books.ts';
import type { Book, Chapter, SourceIssue, Verse } from '../model.ts';
import { FOOTNOTE_TEXT_PARTS, isMilestone, type MarkerKind, markerKind } from './markers.ts';
import { type TextToken, tokenizeUsfm, type UsfmToken } from './tokenize.ts';
import type { JoinedVerse, ParsedUsfmFile, UsfmFile } from './types.ts';

type ParagraphKind = 'body' | 'heading' | 'ignored';

interface OpenNote {
  kind: 'footnote' | 'crossref' | 'dropped-inline';
  name: string;
  /** The note-part marker in force (`ft`, `xt` …), or null before the first one. */
  part: string | null;
  text: string;
  /** The caller (`+`, `-`, `a`) right after `\f` / `\x` is not yet consumed. */
  callerPending: boolean;
  line: number;
  column: number;
}

interface OpenVerse {
  verse: Verse;
  text: string;
  line: number;
  column: number;
}

/**
 * Parses one USFM file. Parsing never throws: whatever it cannot turn into text is reported as a
 * SourceIssue located by file, line and column, and parsing goes on to the end of the file.
 *
 * @example
 * const parsed = parseUsfmFile({ fileName: 'GEN.sfm', text: '\\id GEN\n\\c 1\n\\p\n\\v 1 Au commencement…' });
 * if (parsed.type === 'book') parsed.book.chapters[0].verses[0].text; // "Au commencement…"
 */
export function parseUsfmFile(file: UsfmFile): ParsedUsfmFile {
  const tokens = tokenizeUsfm(file.text);
  const first = tokens.findIndex((token) => token.type !== 'text' || token.text.trim() !== '');
  const idToken = tokens[first];
  if (idToken === undefined || idToken.type !== 'marker' || idToken.name !== 'id') {
    return {
      type: 'other',
      fileName: file.fileName,
      idCode: '',
      issues: [{ kind: 'parse-error', where: `${file.fileName}:1:1`, detail: 'file does not start with \\id' }],
    };
  }
  const idText = tokens[first + 1];
  const idCode = idText?.type === 'text' ? (idText.text.trim().split(/\s+/)[0] ?? '').toUpperCase() : '';
  const canon = bookByUsfm(idCode);
  if (canon === undefined) return { type: 'other', fileName: file.fileName, idCode, issues: [] };
  const parser = new BookParser(file.fileName, canon.usfm);
  return { type: 'book', fileName: file.fileName, ...parser.parse(tokens, first + 2) };
}

/** The state of reading one book: a small push-down machine over the token list. */
class BookParser {
  private readonly issues: SourceIssue[] = [];
  private readonly joinedVerses: JoinedVerse[] = [];
  private readonly chapters: Chapter[] = [];
  private chapter: Chapter | undefined;
  private verse: OpenVerse | undefined;
  private paragraph: ParagraphKind = 'ignored';
  private headingText = '';
  private pendingHeadings: string[] = [];
  private characterStack: string[] = [];
  private note: OpenNote | undefined;
  private inMilestone = false;

  constructor(
    private readonly fileName: string,
    private readonly bookCode: string,
  ) {}

  parse(tokens: UsfmToken[], start: number): { book: Book; joinedVerses: JoinedVerse[]; issues: SourceIssue[] } {
    for (let index = start; index < tokens.length; index += 1) {
      const token = tokens[index];
      switch (token.type) {
        case 'text':
          this.addText(token.text, token);
          break;
        case 'stray':
          this.report('unknown-markup', token, 'backslash not followed by a marker name');
          break;
        case 'end':
          this.closeMarker(token.name, token);
          break;
        case 'marker': {
          if (token.name === 'c' || token.name === 'v') {
            const next = tokens[index + 1];
            const argument = next?.type === 'text' ? next : undefined;
            if (argument !== undefined) index += 1;
            if (token.name === 'c') this.startChapter(argument, token);
            else this.startVerse(argument, token);
          } else {
            this.openMarker(token.name, token);
          }
          break;
        }
      }
    }
    this.endParagraph();
    this.finishVerse();
    this.finishChapter();
    if (this.pendingHeadings.length > 0) {
      this.issues.push({
        kind: 'parse-error',
        where: `${this.bookCode} end`,
        detail: `heading with no verse after it: ${this.pendingHeadings.join(' / ')}`,
      });
    }
    return { book: { code: this.bookCode, chapters: this.chapters }, joinedVerses: this.joinedVerses, issues: this.issues };
  }

  private startChapter(argument: TextToken | undefined, at: Position): void {
    this.endParagraph();
    this.finishVerse();
    this.finishChapter();
    const match = /^\s*(\d+)\s*/.exec(argument?.text ?? '');
    if (match === null) {
      this.report('parse-error', at, `\\c without a chapter number`);
      this.chapter = undefined;
      return;
    }
    const number = Number(match[1]);
    const previous = this.chapters.at(-1);
    if (previous !== undefined && number <= previous.number) {
      this.report('parse-error', at, `chapter ${number} follows chapter ${previous.number}`);
    }
    this.chapter = { number, verses: [] };
    this.paragraph = 'body';
    const rest = argument!.text.slice(match[0].length);
    if (rest.trim() !== '') this.report('parse-error', at, `text after the chapter number: "${rest.trim()}"`);
  }

  private startVerse(argument: TextToken | undefined, at: Position): void {
    this.finishVerse();
    if (this.note !== undefined) this.closeUnfinishedNote();
    const match = /^\s*(\d+)[a-z]?(?:\s*[-\u2013]\s*(\d+)[a-z]?)?(?:\s+|$)/.exec(argument?.text ?? '');
    if (match === null) {
      this.report('parse-error', at, `\\v without a verse number`);
      return;
    }
    if (this.chapter === undefined) {
      this.report('parse-error', at, `verse ${match[1]} before any chapter`);
      return;
    }
    let number = Number(match[1]);
    let rest = argument!.text.slice(match[0].length);
    const previous = this.chapter.verses.at(-1);
    const previousNumber = previous === undefined ? 0 : this.lastNumberCovered(previous);
    // A space typed inside the number ("\v 11 5Éloignez-vous", PSA 119:115 in the LSG source):
    // when the split number is exactly the verse that comes next, join it again and say so.
    const split = /^(\d+)/.exec(rest);
    if (number <= previousNumber && split !== null && Number(match[1] + split[1]) === previousNumber + 1) {
      this.report('parse-error', at, `"\\v ${match[1]} ${split[1]}…" read as verse ${previousNumber + 1} (space inside the verse number)`);
      number = previousNumber + 1;
      rest = rest.slice(split[1].length);
    }
    const verse: Verse = { number, text: '' };
    if (match[2] !== undefined) {
      const through = Number(match[2]);
      if (through > number) {
        this.joinedVerses.push({ chapter: this.chapter.number, verse: number, through });
        this.issues.push({
          kind: 'merged-verse',
          where: `${this.bookCode} ${this.chapter.number}:${number}-${through}`,
          detail: `verses ${number} to ${through} are one verse in the source`,
        });
      } else {
        this.report('parse-error', at, `verse range ${number}-${through} does not go forward`);
      }
    }
    if (previous !== undefined && number <= previousNumber) {
      this.report('parse-error', at, `verse ${number} follows verse ${previousNumber}`);
    }
    const headings = this.takeHeadings();
    if (headings !== undefined) verse.heading = headings;
    this.verse = { verse, text: '', line: at.line, column: at.column };
    if (this.paragraph !== 'body') {
      this.endParagraph();
      this.paragraph = 'body';
    }
    if (rest !== '') {
      const consumed = argument!.text.length - rest.length;
      const onOneLine = !argument!.text.slice(0, consumed).includes('\n');
      this.addText(rest, onOneLine ? { line: argument!.line, column: argument!.column + consumed } : argument!);
    }
  }

  private openMarker(name: string, at: Position): void {
    if (this.inMilestone) this.report('parse-error', at, `\\${name} inside a milestone`);
    if (isMilestone(name)) {
      this.inMilestone = true;
      return;
    }
    const kind = markerKind(name);
    if (this.note !== undefined) {
      this.openMarkerInNote(name, kind, at);
      return;
    }
    switch (kind) {
      case 'body':
      case 'heading':
      case 'ignored':
        this.startParagraph(kind);
        return;
      case 'table-cell':
        if (this.paragraph === 'body' && this.verse !== undefined) this.verse.text += ' ';
        return;
      case 'character':
        this.characterStack.push(name);
        return;
      case 'footnote':
      case 'crossref':
      case 'dropped-inline':
        this.note = {
          kind,
          name,
          part: null,
          text: '',
          callerPending: kind !== 'dropped-inline',
          line: at.line,
          column: at.column,
        };
        return;
      case 'note-part':
        this.report('unknown-markup', at, `\\${name} outside a note`);
        return;
      case undefined:
        // The marker is reported and left out; the words after it are kept, since they are most
        // likely scripture under a style this reader does not know yet.
        this.report('unknown-markup', at, `unknown marker \\${name}`);
        this.characterStack.push(name);
        return;
    }
  }

  private openMarkerInNote(name: string, kind: MarkerKind | undefined, at: Position): void {
    const note = this.note!;
    switch (kind) {
      case 'note-part':
        note.part = name;
        note.callerPending = false;
        if (note.text !== '' && FOOTNOTE_TEXT_PARTS.has(name)) note.text += ' ';
        return;
      case 'character':
        return;
      case 'footnote':
      case 'crossref':
      case 'dropped-inline':
        this.report('parse-error', at, `\\${name} inside an unclosed \\${note.name}`);
        return;
      case undefined:
        this.report('unknown-markup', at, `unknown marker \\${name} in a note`);
        return;
      default:
        // A paragraph marker ends the note that was never closed.
        this.closeUnfinishedNote();
        this.openMarker(name, at);
    }
  }

  private closeMarker(name: string, at: Position): void {
    if (name === '') {
      if (!this.inMilestone) this.report('parse-error', at, '\\* with no milestone open');
      this.inMilestone = false;
      return;
    }
    const note = this.note;
    if (note !== undefined) {
      if (name === note.name) {
        this.finishNote(note);
        this.note = undefined;
        return;
      }
      const kind = markerKind(name);
      if (kind === 'note-part' || kind === 'character') return;
      this.report('parse-error', at, `\\${name}* inside \\${note.name}`);
      return;
    }
    const depth = this.characterStack.lastIndexOf(name);
    if (depth === -1) {
      this.report('parse-error', at, `\\${name}* closes nothing`);
      return;
    }
    this.characterStack.length = depth;
  }

  private startParagraph(kind: ParagraphKind): void {
    this.endParagraph();
    this.paragraph = kind;
    if (kind === 'body' && this.verse !== undefined) this.verse.text += ' ';
  }

  private endParagraph(): void {
    if (this.note !== undefined) this.closeUnfinishedNote();
    this.characterStack.length = 0;
    this.inMilestone = false;
    if (this.paragraph === 'heading') {
      const heading = plainText(this.headingText);
      if (heading !== '') this.pendingHeadings.push(heading);
      this.headingText = '';
    }
  }

  private addText(raw: string, at: Position): void {
    if (this.inMilestone) return;
    let text = raw;
    const bar = text.indexOf('|');
    if (bar !== -1) {
      // `\w gracious|lemma="grace"\w*`: attributes run from the bar to the closing marker.
      if (this.characterStack.length === 0 && this.note === undefined && this.paragraph !== 'ignored') {
        this.report('unknown-markup', at, `attributes outside a character style: "${text.slice(bar).trim()}"`);
      }
      text = text.slice(0, bar);
    }
    if (text.includes('*') && this.paragraph !== 'ignored') {
      this.report('unknown-markup', at, `"*" outside a closing marker: "${plainText(text).slice(0, 60)}"`);
      text = text.replaceAll('*', '');
    }
    text = text.replaceAll('~', ' ').replaceAll('//', ' ');
    const note = this.note;
    if (note !== undefined) {
      if (note.callerPending) {
        const caller = /^\s*\S*\s?/.exec(text)!;
        text = text.slice(caller[0].length);
        if (caller[0].trim() !== '') note.callerPending = false;
      }
      if (note.kind === 'footnote' && (note.part === null || FOOTNOTE_TEXT_PARTS.has(note.part))) note.text += text;
      return;
    }
    switch (this.paragraph) {
      case 'ignored':
        return;
      case 'heading':
        this.headingText += text;
        return;
      case 'body':
        if (this.verse !== undefined) this.verse.text += text;
        // Text before the first chapter belongs to the book's front matter (titles, tables of the introduction).
        else if (text.trim() !== '' && this.chapters.length + (this.chapter ? 1 : 0) > 0) {
          this.report('parse-error', at, `text outside a verse: "${plainText(text).slice(0, 60)}"`);
        }
    }
  }

  private finishNote(note: OpenNote): void {
    if (note.kind !== 'footnote') return;
    const text = plainText(note.text);
    if (text === '') return;
    if (this.verse !== undefined && this.paragraph === 'body') (this.verse.verse.notes ??= []).push(text);
  }

  private closeUnfinishedNote(): void {
    const note = this.note!;
    this.report('parse-error', note, `\\${note.name} not closed with \\${note.name}*`);
    this.finishNote(note);
    this.note = undefined;
  }

  private finishVerse(): void {
    const open = this.verse;
    if (open === undefined || this.chapter === undefined) return;
    this.verse = undefined;
    open.verse.text = plainText(open.text);
    if (open.verse.text === '') {
      this.issues.push({
        kind: 'missing-verse',
        where: `${this.bookCode} ${this.chapter.number}:${open.verse.number}`,
        detail: `verse marker with no text (${this.fileName}:${open.line}:${open.column})`,
      });
    }
    this.chapter.verses.push(open.verse);
  }

  private finishChapter(): void {
    const chapter = this.chapter;
    if (chapter === undefined) return;
    this.chapter = undefined;
    if (chapter.verses.length === 0) {
      this.issues.push({ kind: 'missing-verse', where: `${this.bookCode} ${chapter.number}`, detail: 'chapter with no verses' });
    }
    this.chapters.push(chapter);
  }

  private takeHeadings(): string | undefined {
    if (this.paragraph === 'heading') {
      const heading = plainText(this.headingText);
      if (heading !== '') this.pendingHeadings.push(heading);
      this.headingText = '';
    }
    if (this.pendingHeadings.length === 0) return undefined;
    const joined = this.pendingHeadings.join(' / ');
    this.pendingHeadings = [];
    return joined;
  }

  /** The last number a verse of the current chapter stands for: its own, or the end of the verses it joins. */
  private lastNumberCovered(verse: Verse): number {
    const joined = this.joinedVerses.at(-1);
    return joined !== undefined && joined.chapter === this.chapter?.number && joined.verse === verse.number ? joined.through : verse.number;
  }

  private report(kind: SourceIssue['kind'], at: Position, detail: string): void {
    this.issues.push({ kind, where: `${this.fileName}:${at.line}:${at.column}`, detail });
  }
}

interface Position {
  line: number;
  column: number;
}

/** Collapses every run of whitespace to one space and trims. */
function plainText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
