import { Errors, type Hook, toConfiguredId } from '@oclif/core';

// What cw says for a command it does not have. The typed word is shown only when it passes the
// label check: a key pasted where a command was expected (`cw sk-live-…`) is never printed. On a
// terminal, @oclif/plugin-not-found asks "Did you mean …?" and can run the suggestion; elsewhere
// the suggestion is one line on stderr. Either way it is a usage error: exit 2 (docs/cli.md).

const USAGE_EXIT = 2;

const hook: Hook<'command_not_found'> = async function (options) {
  const { safeIdentifier, terminalSafe } = await import('@cw/core');
  const typed = toConfiguredId(options.id, options.config);
  const shown = options.id.split(':').every((word) => safeIdentifier(word) === word);
  const help = `Run ${options.config.bin} help for the commands.`;
  if (!shown) {
    process.stderr.write(
      `cw: that is not a ${options.config.bin} command (not shown: it does not look like one). ${help}\n`,
    );
    throw new Errors.ExitError(USAGE_EXIT);
  }
  if (process.stdin.isTTY && process.stderr.isTTY) {
    const { default: notFound } = await import('@oclif/plugin-not-found');
    // The plugin's own warning and exit, in cw's words and with cw's exit code.
    const context = {
      ...this,
      config: options.config,
      warn: (text: string | Error) => process.stderr.write(`cw: ${terminalSafe(String(text))}\n`),
      error: () => {
        process.stderr.write(`cw: ${help}\n`);
        throw new Errors.ExitError(USAGE_EXIT);
      },
    };
    return notFound.call(context as typeof this, options);
  }
  const hidden = new Set(options.config.commands.filter((command) => command.hidden).map((command) => command.id));
  const ids = [...options.config.commandIDs, ...options.config.commands.flatMap((command) => command.aliases)].filter(
    (id) => !hidden.has(id),
  );
  const { closestWord } = await import('@cw/core');
  const near = closestWord(options.id, ids, 3);
  const suggestion = near === undefined ? '' : ` Did you mean ${toConfiguredId(near, options.config)}?`;
  process.stderr.write(`cw: ${terminalSafe(typed)} is not a ${options.config.bin} command.${suggestion} ${help}\n`);
  throw new Errors.ExitError(USAGE_EXIT);
};

export default hook;
