// Opens a SWORD module zip in memory: its conf and the raw zText files of both testaments.
import { strFromU8 } from 'fflate';
import { unzipEntries } from '../zip-archive.ts';
import { parseSwordConf, type SwordConf } from './conf.ts';

/** The three files of one testament: block index, verse index, compressed blocks. */
export interface ZTextFiles {
  bzs: Uint8Array;
  bzv: Uint8Array;
  bzz: Uint8Array;
}

export interface SwordModuleFiles {
  conf: SwordConf;
  /** Path of the conf inside the zip ("mods.d/kjv.conf"). */
  confPath: string;
  ot?: ZTextFiles;
  nt?: ZTextFiles;
}

/**
 * Unzips only what a zText reader needs. When the zip holds several confs, `moduleName`
 * picks one (case-insensitive); otherwise the first is used.
 *
 * @example const { conf, nt } = openSwordModuleZip(readFileSync('KJV.zip'));
 */
export function openSwordModuleZip(zipBytes: Uint8Array, moduleName?: string): SwordModuleFiles {
  const files = unzipEntries(zipBytes, (file) => /(^|\/)mods\.d\/[^/]+\.conf$/i.test(file.name) || /\.bz[svz]$/i.test(file.name));
  const byLowerPath = new Map(Object.entries(files).map(([path, bytes]) => [path.toLowerCase(), { path, bytes }]));

  const confs = [...byLowerPath.values()]
    .filter(({ path }) => /\.conf$/i.test(path))
    .map(({ path, bytes }) => ({ path, conf: parseSwordConf(strFromU8(bytes)) }));
  if (confs.length === 0) throw new Error('No mods.d/*.conf in the SWORD module zip');
  const chosen = moduleName ? confs.find(({ conf }) => conf.name.toLowerCase() === moduleName.toLowerCase()) : confs[0];
  if (!chosen) throw new Error(`No conf for module "${moduleName}" in the SWORD module zip`);

  // The zip root is the module library root, unless everything sits under one folder before mods.d/.
  const root = chosen.path.slice(0, chosen.path.toLowerCase().lastIndexOf('mods.d/'));
  const dataPath = (chosen.conf.dataPath ?? `./modules/texts/ztext/${chosen.conf.name.toLowerCase()}/`)
    .replace(/^\.?\//, '')
    .replace(/\/?$/, '/');
  const testamentFiles = (prefix: 'ot' | 'nt'): ZTextFiles | undefined => {
    const file = (extension: string) => byLowerPath.get(`${root}${dataPath}${prefix}.${extension}`.toLowerCase())?.bytes;
    const bzs = file('bzs');
    const bzv = file('bzv');
    const bzz = file('bzz');
    return bzs && bzv && bzz ? { bzs, bzv, bzz } : undefined;
  };
  return { conf: chosen.conf, confPath: chosen.path, ot: testamentFiles('ot'), nt: testamentFiles('nt') };
}
