// Checks the SWORD reader against the SWORD library itself (mod2imp: raw entries, and its plain renderer) on the four real modules.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { openSwordModuleZip } from '../../../build/sword/module-zip.ts';
import { osisToText } from '../../../build/sword/osis-text.ts';
import { rawCanonicalVerses, readSwordModule } from '../../../build/sword/read-module.ts';
import { describeWith, requirement } from '../../helpers/requirements.ts';

const sourcesDir = requirement('BIBLE_SOURCES_DIR').path;
const mod2imp = requirement('mod2imp').path;

interface Expected {
  file: string;
  verses: number;
  missing: string[];
  golden: Record<string, string>;
}

// Measured once from the modules (and cross-checked against mod2imp below).
const MODULES: Expected[] = [
  {
    file: 'KJV.zip',
    verses: 31102,
    missing: [],
    golden: {
      'GEN 1:1': 'In the beginning God created the heaven and the earth.',
      'PSA 23:1': 'The LORD is my shepherd; I shall not want.',
      'PSA 110:1': 'The LORD said unto my Lord, Sit thou at my right hand, until I make thine enemies thy footstool.',
      'JHN 3:16':
        'For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him should not perish, but have everlasting life.',
      'REV 22:21': 'The grace of our Lord Jesus Christ be with you all. Amen.',
    },
  },
  {
    file: 'SpaRV.zip',
    verses: 31084,
    missing: [
      'NUM 12:16',
      'NUM 29:40',
      '1SA 23:29',
      '2SA 20:26',
      '2CH 33:25',
      'JOB 35:16',
      'JOB 38:39',
      'JOB 38:40',
      'JOB 38:41',
      'JOB 40:20',
      'JOB 40:21',
      'JOB 40:22',
      'JOB 40:23',
      'JOB 40:24',
      'HOS 11:12',
      'JON 1:17',
      'ACT 19:41',
      '2CO 13:14',
    ],
    golden: {
      'GEN 1:1': 'EN el principio crió Dios los cielos y la tierra.',
      'PSA 23:1': 'Salmo de David. JEHOVÁ es mi pastor; nada me faltará.',
      'JHN 3:16':
        'Porque de tal manera amó Dios al mundo, que ha dado á su Hijo unigénito, para que todo aquel que en él cree, no se pierda, mas tenga vida eterna.',
      'REV 22:21': 'La gracia de nuestro Señor Jesucristo sea con todos vosotros. Amén.',
    },
  },
  {
    file: 'PorBLivre.zip',
    verses: 31102,
    missing: ['PSA 46:3', '3JN 1:15'],
    golden: {
      'GEN 1:1': 'No princípio criou Deus os céus e a terra.',
      'PSA 23:1': 'O SENHOR é meu pastor, nada me faltará.',
      'JHN 3:16':
        'Porque Deus amou ao mundo de tal maneira, que deu o seu Filho unigênito; para que todo aquele que nele crê não pereça, mas tenha a vida eterna.',
      'REV 22:21': 'A graça do nosso Senhor Jesus Cristo seja com todos.',
    },
  },
  {
    file: 'DutSVV.zip',
    verses: 31100,
    missing: ['1SA 23:29', 'ACT 19:41'],
    golden: {
      'GEN 1:1': 'In den beginne schiep God den hemel en de aarde.',
      'PSA 23:1': 'Een psalm van David. De HEERE is mijn Herder, mij zal niets ontbreken.',
      'JHN 3:16':
        'Want alzo lief heeft God de wereld gehad, dat Hij Zijn eniggeboren Zoon gegeven heeft, opdat een iegelijk die in Hem gelooft, niet verderve, maar het eeuwige leven hebbe.',
      'REV 22:21': 'De genade van onzen Heere Jezus Christus zij met u allen. Amen.',
    },
  },
];

describeWith(['BIBLE_SOURCES_DIR'], 'SWORD modules read in full', () => {
  const tempDirs: string[] = [];
  afterAll(() => {
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });

  describe.each(MODULES)('$file', (expected) => {
    const zipBytes = () => new Uint8Array(readFileSync(join(sourcesDir!, expected.file)));

    describeWith(['mod2imp'], 'against the SWORD library', () => {
      it('has the same raw entry as mod2imp for every canonical verse, and the same plain text as its renderer, case for case', () => {
        const bytes = zipBytes();
        const files = openSwordModuleZip(bytes);
        const reference = mod2impEntries(bytes, files.conf.name, tempDirs);
        // `mod2imp -s` renders through SWORD's plain filter: divine names in capitals, no titles or notes.
        const rendered = mod2impEntries(bytes, files.conf.name, tempDirs, ['-s']);
        let compared = 0;
        const mismatches: string[] = [];
        for (const slot of rawCanonicalVerses(files)) {
          const key = `${slot.swordBookName} ${slot.chapter}:${slot.verse}`;
          const theirs = reference.get(key);
          if (theirs === undefined) {
            mismatches.push(`${key}: not in mod2imp output`);
            continue;
          }
          compared++;
          if (slot.raw !== theirs) mismatches.push(`${key}: raw differs`);
          const ours = osisToText(slot.raw).text;
          const plain = collapseWhitespace(rendered.get(key) ?? '');
          if (ours !== plain) mismatches.push(`${key}: text differs: ${JSON.stringify(ours)} vs SWORD's ${JSON.stringify(plain)}`);
        }
        expect(mismatches.slice(0, 10)).toEqual([]);
        expect(compared).toBeGreaterThanOrEqual(31102);
      });
    });

    it('has the measured verse count, missing verses and golden verses, and no leaked markup', () => {
      const { version } = readSwordModule(zipBytes(), expected.file);
      const verses = version.books.flatMap((book) =>
        book.chapters.flatMap((chapter) =>
          chapter.verses.map((verse) => ({ ref: `${book.code} ${chapter.number}:${verse.number}`, verse })),
        ),
      );
      expect(version.books).toHaveLength(66);
      expect(verses).toHaveLength(expected.verses);
      expect(version.issues.filter((issue) => issue.kind === 'missing-verse').map((issue) => issue.where)).toEqual(expected.missing);
      expect(version.issues.filter((issue) => issue.kind !== 'missing-verse')).toEqual([]);

      const byRef = new Map(verses.map(({ ref, verse }) => [ref, verse.text]));
      for (const [ref, text] of Object.entries(expected.golden)) expect(byRef.get(ref), ref).toBe(text);

      const leaks = verses.filter(({ verse }) =>
        [verse.text, verse.heading ?? '', ...(verse.notes ?? [])].some((field) => /[<>\\]|\b[HG]\d{3,5}\b|&\w+;/.test(field)),
      );
      expect(leaks.slice(0, 5)).toEqual([]);
    });
  });
});

/** SWORD's plain renderer breaks lines at paragraphs and poetry lines; our text is one line. */
function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Unzips the module into a temporary SWORD library and parses `mod2imp <name> [options]`: key → entry. */
function mod2impEntries(zipBytes: Uint8Array, moduleName: string, tempDirs: string[], options: string[] = []): Map<string, string> {
  const library = mkdtempSync(join(tmpdir(), 'sword-'));
  tempDirs.push(library);
  for (const [path, bytes] of Object.entries(unzipSync(zipBytes))) {
    if (path.endsWith('/')) continue;
    mkdirSync(dirname(join(library, path)), { recursive: true });
    writeFileSync(join(library, path), bytes);
  }
  const output = execFileSync(mod2imp!, [moduleName, ...options], {
    env: { ...process.env, SWORD_PATH: library },
    maxBuffer: 256 * 1024 * 1024,
    encoding: 'utf8',
  });
  const entries = new Map<string, string>();
  let key: string | undefined;
  let lines: string[] = [];
  const flush = () => {
    if (key !== undefined) entries.set(key, lines.join('\n'));
  };
  // Entries never end in a newline (SWORD trims them), so trailing newlines end the last entry.
  for (const line of output.replace(/\n+$/, '').split('\n')) {
    if (line.startsWith('$$$')) {
      flush();
      key = line.slice(3);
      lines = [];
    } else {
      lines.push(line);
    }
  }
  flush();
  return entries;
}
