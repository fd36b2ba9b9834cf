// Parser for a SWORD module's mods.d/<name>.conf: [Name] section, key=value lines, backslash continuations.

/** The conf fields the build uses; `entries` keeps every key (repeated keys keep all values). */
export interface SwordConf {
  /** Module name from the `[Name]` section header ("KJV"). */
  name: string;
  /** Where the data files sit, relative to the module library root ("./modules/texts/ztext/kjv/"). */
  dataPath?: string;
  modDrv?: string;
  sourceType?: string;
  versification?: string;
  compressType?: string;
  encoding?: string;
  lang?: string;
  version?: string;
  distributionLicense?: string;
  description?: string;
  entries: Record<string, string[]>;
}

/**
 * Parses conf text. A line ending in a backslash continues on the next line (SWORD joins
 * the two with a newline); lines starting with `#` are comments.
 *
 * @example parseSwordConf('[KJV]\nVersification=KJV\n').versification // 'KJV'
 */
export function parseSwordConf(text: string): SwordConf {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let name = '';
  const entries: Record<string, string[]> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const section = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (section) {
      if (!name) name = section[1].trim();
      continue;
    }
    if (/^\s*(#|$)/.test(line)) continue;
    const equals = line.indexOf('=');
    if (equals < 0) continue;
    const key = line.slice(0, equals).trim();
    let value = line.slice(equals + 1);
    while (/\\\s*$/.test(value) && i + 1 < lines.length) {
      value = `${value.replace(/\\\s*$/, '')}\n${lines[++i]}`;
    }
    (entries[key] ??= []).push(value.trim());
  }
  if (!name) throw new Error('SWORD conf has no [ModuleName] section header');
  const first = (key: string): string | undefined => entries[key]?.[0];
  return {
    name,
    dataPath: first('DataPath'),
    modDrv: first('ModDrv'),
    sourceType: first('SourceType'),
    versification: first('Versification'),
    compressType: first('CompressType'),
    encoding: first('Encoding'),
    lang: first('Lang'),
    version: first('Version'),
    distributionLicense: first('DistributionLicense'),
    description: first('Description'),
    entries,
  };
}
