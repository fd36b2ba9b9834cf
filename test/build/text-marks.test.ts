// takeMarks removes the layout marks from a verse's text and turns them into offsets in what is left.
import { describe, expect, it } from 'vitest';
import { MARK, takeMarks } from '../../build/text-marks.ts';

describe('takeMarks', () => {
  it('leaves a text without marks as it is', () => {
    expect(takeMarks('In the beginning')).toEqual({ text: 'In the beginning', layout: {} });
  });

  it('drops the space a mark leaves doubled, leading or trailing, and points a mark on a space at the next word', () => {
    expect(takeMarks(`${MARK.paragraph} In the ${MARK.line(2)} beginning ${MARK.paragraph}`)).toEqual({
      text: 'In the beginning',
      layout: { paragraphs: [0], poetry: [{ at: 7, indent: 2 }] },
    });
  });

  it('collapses spaces inside a run between marks as it does around them', () => {
    expect(takeMarks(`a  b${MARK.paragraph}  c   d`).text).toBe('a b c d');
  });

  it('joins words of Jesus closed and reopened around a mark, and keeps characters beyond U+FFFF whole', () => {
    const marked = `${MARK.jesusStart}Verily 😀${MARK.jesusEnd} ${MARK.jesusStart}I say${MARK.jesusEnd} unto you`;
    expect(takeMarks(marked)).toEqual({ text: 'Verily 😀 I say unto you', layout: { wordsOfJesus: [{ start: 0, end: 15 }] } });
  });

  it('counts two paragraph marks at one place once, drops a line or a span left with no text, and lists the fields in one order', () => {
    const marked = `${MARK.jesusStart}Jesus${MARK.paragraph} ${MARK.paragraph}wept ${MARK.jesusEnd}${MARK.line(1)} ${MARK.jesusStart} ${MARK.jesusEnd}`;
    const { text, layout } = takeMarks(marked);
    expect(text).toBe('Jesus wept');
    // The span's trailing space is left out of it; the empty span and the line after the text are dropped.
    expect(JSON.stringify(layout)).toBe('{"paragraphs":[6],"wordsOfJesus":[{"start":0,"end":10}]}');
  });
});
