// A source map cut down to one mapping per generated line: what a stack trace needs (file and line), at a fifth of the memory.
//
// Plain JavaScript: scripts/lib/bundle.mjs runs before anything can load TypeScript.
//
// Why: with source maps on (scripts/start.mjs), the first stack trace Node formats parses the bundle's
// map into one small array per mapping, kept for the process's life. esbuild maps every token: about
// 67,000 mappings for the service, 7.5 MB of live heap, about a fifth of what the service keeps alive;
// and some stack is always formatted (the MCP SDK's request body reader makes Node build a TypeError
// on every process's first /mcp request). One mapping per line, at column 0, names the same TypeScript
// file and line for any column of that line: 14,600 mappings, about 1.6 MB (issue 28).

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((character, index) => [character, index]));

/**
 * The `mappings` of a source map (version 3) with only the first segment of each generated line that
 * has a source, moved to column 0, without names. Lines with no such segment stay empty.
 *
 * @example firstMappingPerLine('AAAA,IAAI;AACA') // 'AAAA;AACI'
 */
export function firstMappingPerLine(mappings) {
  // Source index, line and column are relative to the previous segment of the whole map, kept or not.
  const absolute = [0, 0, 0];
  const written = [0, 0, 0];
  return mappings
    .split(';')
    .map((line) => {
      let kept;
      for (const segment of line === '' ? [] : line.split(',')) {
        const fields = decodeVlq(segment);
        if (fields.length < 4) continue;
        for (let index = 0; index < 3; index++) absolute[index] += fields[index + 1];
        kept ??= [...absolute];
      }
      if (!kept) return '';
      const deltas = kept.map((value, index) => value - written[index]);
      written.splice(0, 3, ...kept);
      return encodeVlq([0, ...deltas]);
    })
    .join(';');
}

/**
 * The map (its JSON text) with one mapping per generated line and no names.
 *
 * @example const smaller = lineLevelSourceMap(readFileSync('dist/start/server.mjs.map', 'utf8'));
 */
export function lineLevelSourceMap(text) {
  const map = JSON.parse(text);
  return JSON.stringify({ ...map, names: [], mappings: firstMappingPerLine(map.mappings) });
}

function decodeVlq(segment) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const character of segment) {
    const digit = DIGIT.get(character);
    if (digit === undefined) throw new Error(`not a base64 VLQ digit in a source map: ${character}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

function encodeVlq(values) {
  let text = '';
  for (const value of values) {
    let rest = value < 0 ? (-value << 1) | 1 : value << 1;
    do {
      let digit = rest & 31;
      rest >>>= 5;
      if (rest > 0) digit |= 32;
      text += BASE64[digit];
    } while (rest > 0);
  }
  return text;
}
