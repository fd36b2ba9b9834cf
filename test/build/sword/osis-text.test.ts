import { describe, expect, it } from 'vitest';
import { osisToText } from '../../../build/sword/osis-text.ts';

// Raw entries as the modules store them (KJV, PorBLivre, SpaRV, DutSVV).
const KJV_GEN_1_4 =
  '<w lemma="strong:H0430">And God</w> <w lemma="strong:H0853 strong:H07200" morph="strongMorph:TH8799">saw</w> <w lemma="strong:H0216">the light</w>, <w lemma="strong:H03588">that</w> <transChange type="added">it was</transChange> <w lemma="strong:H02896">good</w>: <w lemma="strong:H0430">and God</w> <w lemma="strong:H0996 strong:H0914" morph="strongMorph:TH8686">divided</w> <w lemma="strong:H0216">the light</w> <w lemma="strong:H0996">from</w> <w lemma="strong:H02822">the darkness</w>.<note type="study"><catchWord>the light from…</catchWord>: Heb. <rdg type="x-literal">between the light and between the darkness</rdg></note>';
const KJV_PSA_3_1 =
  '<div type="x-milestone" subType="x-preverse" sID="pv1"/><title canonical="true" type="psalm"><w lemma="strong:H04210">A Psalm</w> <w lemma="strong:H01732">of David</w>, <w lemma="strong:H01272" morph="strongMorph:TH8800">when he fled</w> <w lemma="strong:H06440">from</w> <w lemma="strong:H053">Absalom</w> <w lemma="strong:H01121">his son</w>.</title><div type="x-milestone" subType="x-preverse" eID="pv1"/><w lemma="strong:H03068"><divineName>Lord</divineName></w>, <w lemma="strong:H07231" morph="strongMorph:TH8804">how are they increased</w>';
const KJV_PSA_119_1 =
  '<div type="x-milestone" subType="x-preverse" sID="pv94"/><title canonical="true" type="acrostic"><foreign xml:lang="hbo">א ALEPH.</foreign></title> <div type="x-milestone" subType="x-preverse" eID="pv94"/><w lemma="strong:H0835">Blessed</w> <transChange type="added">are</transChange> <w lemma="strong:H08549">the undefiled</w>';
const KJV_JHN_3_16_START =
  '<q marker="" who="Jesus"><w lemma="strong:G1063">For</w> <w lemma="strong:G2316">God</w> <w lemma="strong:G3779">so</w> <w lemma="strong:G25" morph="robinson:V-AAI-3S">loved</w> <w lemma="strong:G3588 strong:G2889" morph="robinson:T-ASM robinson:N-ASM">the world</w></q>';
const KJV_GEN_1_6 =
  '<milestone marker="¶" type="x-p"/><w lemma="strong:H0430">And God</w> <w lemma="strong:H0559" morph="strongMorph:TH8799">said</w>';
const PORBLIVRE_MAL_4_6 =
  'Ele converterá o coração dos pais aos filhos.<div eID="gen1742" type="x-p"/><chapter eID="Mal.4.seID.24067"/><div eID="gen1735" type="majorSection"/><div canonical="true" eID="gen1734" osisID="Mal" type="book"/> <div canonical="true" eID="gen3" type="bookGroup"/> <div canonical="true" sID="gen1743" type="bookGroup"/> <title>New Testament</title>';
const PORBLIVRE_PSA_3_1 =
  '<div type="x-milestone" subType="x-preverse" sID="pv1"/><title canonical="true" type="psalm">Salmo de Davi, quando ele fugia da presença de seu filho Absalão:</title><div sID="gen648" type="x-p"/> <div type="x-milestone" subType="x-preverse" eID="pv1"/>Ah SENHOR, como têm se multiplicado meus adversários!';
const PORBLIVRE_FOOTNOTE_QUOTE = 'Disse<q sID="gen991" type="x-footnote" who="unknown"/> o SENHOR<q eID="gen991" type="x-footnote"/>.';

describe('osisToText', () => {
  it("keeps the words of Strong's-tagged text and added words, without numbers or morphology", () => {
    const { text } = osisToText(KJV_GEN_1_4);
    expect(text).toBe('And God saw the light, that it was good: and God divided the light from the darkness.');
    expect(text).not.toMatch(/H0\d+|strong|morph/);
  });

  it('takes notes out of the text and returns them as plain notes', () => {
    expect(osisToText(KJV_GEN_1_4).notes).toEqual(['the light from…: Heb. between the light and between the darkness']);
  });

  it('returns a canonical psalm title as the heading, not as verse text', () => {
    expect(osisToText(KJV_PSA_3_1)).toEqual({
      text: 'LORD, how are they increased',
      heading: 'A Psalm of David, when he fled from Absalom his son.',
      layout: {},
      issues: [],
    });
    expect(osisToText(PORBLIVRE_PSA_3_1).heading).toBe('Salmo de Davi, quando ele fugia da presença de seu filho Absalão:');
    expect(osisToText(KJV_PSA_119_1)).toMatchObject({ text: 'Blessed are the undefiled', heading: 'א ALEPH.' });
  });

  it('keeps the words of Jesus and the divine name as text', () => {
    expect(osisToText(KJV_JHN_3_16_START).text).toBe('For God so loved the world');
  });

  it('prints a divine name in capitals, as SWORD does', () => {
    const psalm110 = '<w lemma="strong:H03068">The <divineName>Lord</divineName></w> <w>said</w> <w>unto my Lord</w>';
    expect(osisToText(psalm110).text).toBe('The LORD said unto my Lord');
    expect(osisToText('the Lord <divineName>God</divineName> of hosts').text).toBe('the Lord GOD of hosts');
  });

  it('adds no space for an empty word element, as SWORD does', () => {
    expect(osisToText('<w>thirst</w><w lemma="strong:G1519"/>; <w>but</w>').text).toBe('thirst; but');
  });

  it('drops paragraph milestones, division and chapter markers, and a title that closes a book', () => {
    expect(osisToText(KJV_GEN_1_6).text).toBe('And God said');
    expect(osisToText(PORBLIVRE_MAL_4_6)).toEqual({ text: 'Ele converterá o coração dos pais aos filhos.', layout: {}, issues: [] });
  });

  it('keeps paragraph starts, poetry lines and words of Jesus beside the text, as offsets into it', () => {
    expect(osisToText(KJV_GEN_1_6)).toMatchObject({ text: 'And God said', layout: { paragraphs: [0] } });
    expect(osisToText(KJV_JHN_3_16_START).layout).toEqual({ wordsOfJesus: [{ start: 0, end: 26 }] });
    const psalm = osisToText('<lg><l level="1">The LORD is my shepherd;</l> <l level="2">I shall not want.</l></lg>');
    expect(psalm).toMatchObject({
      text: 'The LORD is my shepherd; I shall not want.',
      layout: {
        poetry: [
          { at: 0, indent: 1 },
          { at: 25, indent: 2 },
        ],
      },
    });
    const spoken = osisToText('He said, <q who="Jesus" sID="q1"/>Follow me.<q eID="q1"/> And he arose.');
    expect(spoken.text.slice(spoken.layout.wordsOfJesus![0].start, spoken.layout.wordsOfJesus![0].end)).toBe('Follow me.');
  });

  it('drops quotation milestones without a marker', () => {
    expect(osisToText(PORBLIVRE_FOOTNOTE_QUOTE).text).toBe('Disse o SENHOR.');
  });

  it('writes the quotation mark a quotation milestone carries', () => {
    expect(osisToText('<q marker="“" sID="q1"/>Peace<q marker="”" eID="q1"/>').text).toBe('“Peace”');
  });

  it('decodes entities and collapses whitespace', () => {
    expect(osisToText('  Tom &amp; Jerry&#x2019;s\n\t &quot;house&quot;&#46; ').text).toBe('Tom & Jerry’s "house".');
  });

  it('never lets markup characters into the text', () => {
    const { text } = osisToText('a &lt;b&gt; c > d');
    expect(text).not.toMatch(/[<>]/);
  });

  it('reports unknown elements and entities instead of leaking them', () => {
    const result = osisToText('word <mystery type="x">kept</mystery> <odd/> &bogus; end', 'GEN 1:1');
    expect(result.text).toBe('word kept end');
    expect(result.issues.map((issue) => [issue.kind, issue.where])).toEqual([
      ['unknown-markup', 'GEN 1:1'],
      ['unknown-markup', 'GEN 1:1'],
      ['unknown-markup', 'GEN 1:1'],
    ]);
  });

  it('reports unbalanced tags', () => {
    const result = osisToText('<w>open and </q>shut');
    expect(result.text).toBe('open and shut');
    expect(result.issues.map((issue) => issue.detail)).toEqual(['</q> without an opening tag', '<w> never closed']);
  });
});
