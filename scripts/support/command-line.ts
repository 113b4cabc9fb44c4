import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * An operator command's options: a mistyped one stops the command with the message and the usage
 * (exit 2), `--help` prints the usage (exit 0). The config must declare `help`.
 */
export function parseCommandLine<T extends ParseArgsConfig & { options: { help: { type: 'boolean' } } }>(
  config: T,
  usage: string,
): ReturnType<typeof parseArgs<T>>['values'] {
  let values: ReturnType<typeof parseArgs<T>>['values'];
  try {
    ({ values } = parseArgs(config));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    process.exit(2);
  }
  if ((values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return values;
}
