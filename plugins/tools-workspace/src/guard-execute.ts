import { errorCode } from './fs-error-message.js';
import { fail, type ToolArguments, type ToolContext, type ToolOutcome } from './tool-types.js';

/**
 * Wraps an executor so nothing it throws escapes: an unexpected error becomes a failed outcome naming only
 * its kind, since Node's messages carry absolute paths of the machine.
 */
export function guarded(
  tool: string,
  run: (args: ToolArguments, context: ToolContext) => Promise<ToolOutcome>,
): (args: ToolArguments, context: ToolContext) => Promise<ToolOutcome> {
  return async (args, context) => {
    try {
      return await run(args, context);
    } catch (error) {
      const kind = errorCode(error) ?? (error instanceof Error ? error.name : 'unknown error');
      return fail(`${tool} failed unexpectedly (${kind})`);
    }
  };
}
