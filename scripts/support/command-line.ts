import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CommandIo } from './command-io';

type Values<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>['values'];

/**
 * An operator command's options: a mistyped one is the message and the usage on stderr (exit 2),
 * `--help` the usage on stdout (exit 0); either way the command stops with that exit code. The config
 * must declare `help`.
 */
export function readCommandLine<T extends ParseArgsConfig & { options: { help: { type: 'boolean' } } }>(
  config: T,
  usage: string,
  args: readonly string[],
  io: CommandIo,
): { values: Values<T> } | { exitCode: 0 | 2 } {
  let values: Values<T>;
  try {
    ({ values } = parseArgs({ ...config, args: [...args] } as T));
  } catch (error) {
    io.error(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    return { exitCode: 2 };
  }
  if ((values as { help?: boolean }).help) {
    io.log(usage);
    return { exitCode: 0 };
  }
  return { values };
}
