// A source map cut down to one mapping per line of the sources: what a stack trace needs (file and line), at a fifth of the memory.
//
// Plain JavaScript: scripts/lib/bundle.mjs runs before anything can load TypeScript.
//
// Why: with source maps on (scripts/start.mjs), the first stack trace Node formats parses the bundle's
// map into one small array per mapping, kept for the process's life. esbuild maps every token: about
// 67,000 mappings for the service's own code, 7.5 MB of live heap, about a fifth of what the service
// keeps alive. One mapping where each line of a source begins names the same TypeScript file and line
// for any column of it: about 15,000 mappings, about 1.6 MB (issue 28). The bundle's whitespace is
// minified (many source lines share a generated line), so a mapping is kept where the source line
// changes, not only where the generated one does. Packages bundled in (node_modules) keep one mapping
// where each of their files' code begins, not one per line (some 77,000 more): a frame in a package
// names its file and the line its code starts at, the function's name comes from V8 itself.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((character, index) => [character, index]));

/**
 * The `mappings` of a source map (version 3) with, of the segments that have a source, only those where the
 * source or its line changes (the first of each generated line moved to column 0), without names; in the
 * sources `isPackage` picks out (their indexes), only those where that source begins. Lines with no such
 * segment stay empty.
 *
 * @example firstMappingPerLine('AAAA,IAAI;AACA') // 'AAAA;AACI'
 * @example firstMappingPerLine('AAAA,IACA') // 'AAAA,IACA': one generated line, two source lines
 */
export function firstMappingPerLine(mappings, isPackage = () => false) {
  // Source index, line and column are relative to the previous segment of the whole map, kept or not;
  // the generated column to the previous kept segment of the same line.
  const absolute = [0, 0, 0];
  const written = [0, 0, 0];
  let last;
  return mappings
    .split(';')
    .map((line) => {
      const kept = [];
      let column = 0;
      let writtenColumn = 0;
      for (const segment of line === '' ? [] : line.split(',')) {
        const fields = decodeVlq(segment);
        column += fields[0];
        if (fields.length < 4) continue;
        for (let index = 0; index < 3; index++) absolute[index] += fields[index + 1];
        const [source, sourceLine] = absolute;
        const same = last !== undefined && last[0] === source && (last[1] === sourceLine || isPackage(source));
        if (kept.length > 0 && same) continue;
        last = [source, sourceLine];
        const at = kept.length === 0 ? 0 : column;
        kept.push(encodeVlq([at - writtenColumn, ...absolute.map((value, index) => value - written[index])]));
        writtenColumn = at;
        written.splice(0, 3, ...absolute);
      }
      return kept.join(',');
    })
    .join(';');
}

/**
 * The map (its JSON text) with one mapping per source line (per file of a package under node_modules) and no names.
 *
 * @example const smaller = lineLevelSourceMap(readFileSync('dist/start/server.mjs.map', 'utf8'));
 */
export function lineLevelSourceMap(text) {
  const map = JSON.parse(text);
  const packages = new Set(map.sources.flatMap((source, index) => (source.includes('node_modules/') ? [index] : [])));
  return JSON.stringify({ ...map, names: [], mappings: firstMappingPerLine(map.mappings, (index) => packages.has(index)) });
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
