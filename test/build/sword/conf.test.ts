import { describe, expect, it } from 'vitest';
import { parseSwordConf } from '../../../build/sword/conf.ts';

describe('parseSwordConf', () => {
  const conf = parseSwordConf(
    [
      '## Sword module configuration file',
      '[KJV]',
      '# Short description of the module.',
      'Description=King James Version (1769)',
      'DataPath=./modules/texts/ztext/kjv/',
      'ModDrv=zText',
      'Encoding=UTF-8',
      'CompressType=ZIP',
      'Versification=KJV',
      'GlobalOptionFilter=OSISFootnotes',
      'GlobalOptionFilter=OSISHeadings',
      'History_2.11=(2023-06-27) Updated the TR data.\\',
      'MOD-448: many errors.\\',
      'Five locations.',
      'Version=3.1',
      'Lang=en',
      'DistributionLicense=GPL',
      '',
    ].join('\r\n'),
  );

  it('takes the module name from the section header and the fields the build keeps', () => {
    expect(conf).toMatchObject({
      name: 'KJV',
      description: 'King James Version (1769)',
      dataPath: './modules/texts/ztext/kjv/',
      modDrv: 'zText',
      encoding: 'UTF-8',
      compressType: 'ZIP',
      versification: 'KJV',
      version: '3.1',
      lang: 'en',
      distributionLicense: 'GPL',
    });
  });

  it('joins lines continued with a trailing backslash', () => {
    expect(conf.entries['History_2.11']).toEqual(['(2023-06-27) Updated the TR data.\nMOD-448: many errors.\nFive locations.']);
    expect(conf.entries.Version).toEqual(['3.1']);
  });

  it('keeps every value of a repeated key', () => {
    expect(conf.entries.GlobalOptionFilter).toEqual(['OSISFootnotes', 'OSISHeadings']);
  });

  it('refuses a conf without a module name', () => {
    expect(() => parseSwordConf('Versification=KJV\n')).toThrow(/section header/);
  });
});
