// Command lines parsed with node:util parseArgs, and its errors turned into one line naming the option.
import { parseArgs } from 'node:util';
import { CliError } from './command.ts';

/** One `--name` option: a string value (`--email E`) or a flag (`--verified`). */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** A required string option; a missing one is refused naming it. */
  required?: boolean;
}

export interface CommandSyntax<O extends Record<string, OptionSpec>> {
  options: O;
  /** Names of the positional arguments, all required (`['file']`); none by default. */
  positionals?: readonly string[];
}

/** Parsed values: required strings are strings, optional ones may be undefined, flags are booleans. */
export type OptionValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O]: O[K]['type'] extends 'boolean' ? boolean : O[K]['required'] extends true ? string : string | undefined;
};

export interface CommandLine<O extends Record<string, OptionSpec>> {
  values: OptionValues<O>;
  positionals: string[];
}

/**
 * Parses `args` strictly: unknown options, a missing or extra value, an option given twice, a
 * missing required option and a wrong number of positionals each end in a CliError of one line
 * that names the option and says what the command takes.
 *
 * @example
 * const { values } = parseCommandLine('create-key', args, { options: { email: { type: 'string', required: true } } });
 * values.email // string
 */
export function parseCommandLine<const O extends Record<string, OptionSpec>>(
  command: string,
  args: string[],
  syntax: CommandSyntax<O>,
): CommandLine<O> {
  const names = Object.keys(syntax.options);
  const expected = positionalsDescription(syntax.positionals ?? [], names.length > 0);
  const takes = [...names.map((name) => `--${name}`), ...(syntax.positionals ?? []).map((name) => `<${name}>`)].join(' ') || 'no arguments';
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      options: Object.fromEntries(names.map((name) => [name, { type: syntax.options[name].type }])),
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  } catch (error) {
    throw new CliError(describeParseError(error, command, takes));
  }

  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name)) throw new CliError(`--${token.name} is given twice; give it once.`);
    seen.add(token.name);
  }
  for (const name of names) {
    if (syntax.options[name].required && parsed.values[name] === undefined)
      throw new CliError(`--${name} is required (${command} takes ${takes}).`);
  }
  const wanted = syntax.positionals?.length ?? 0;
  if (parsed.positionals.length !== wanted) {
    const got = parsed.positionals.length > wanted ? `; unexpected "${parsed.positionals[wanted]}"` : '';
    throw new CliError(`${command} takes ${expected}${got}.`);
  }
  const values = Object.fromEntries(
    names.map((name) => [name, parsed.values[name] ?? (syntax.options[name].type === 'boolean' ? false : undefined)]),
  );
  return { values: values as OptionValues<O>, positionals: parsed.positionals };
}

/** parseArgs says e.g. "Option '--email <value>' argument missing"; the operator gets "--email needs a value." */
function describeParseError(error: unknown, command: string, takes: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-{1,2}[^' ]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `Unknown option ${option}; ${command} takes ${takes}.`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return /does not take an argument/.test(message) ? `${option} takes no value.` : `${option} needs a value.`;
  }
  if (error instanceof TypeError && code?.startsWith('ERR_PARSE_ARGS')) return message.split('\n')[0];
  throw error;
}

function positionalsDescription(positionals: readonly string[], hasOptions: boolean): string {
  if (positionals.length === 0) return hasOptions ? 'no arguments besides its options' : 'no arguments';
  const list = positionals.map((name) => `<${name}>`).join(' ');
  return positionals.length === 1 ? `one argument: ${list}` : `${positionals.length} arguments: ${list}`;
}
