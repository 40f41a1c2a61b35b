import { describe, expect, it } from 'vitest';
import { PluginRegistry } from '../plugins/plugin-registry.js';
import type { CommandSandbox } from '../sandbox/command-sandbox.js';
import type { ToolContext, ToolImplementation } from '../tools/tool-contract.js';
import { type AskedCall, type RunToolCallsOptions, runToolCalls } from './run-tool-calls.js';
import { workspaceFiles } from '../sandbox/workspace-files.js';

const LIMITS = { outputBytes: 4096, outputLines: 100, commandTimeoutMs: 1_000 };

/** A command tool that reports what its context offered it, and fails inside a sandbox unless let out. */
function commandTool(onRun?: (context: ToolContext) => Promise<void>): ToolImplementation {
  return {
    name: 'run',
    description: 'runs',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } }, additionalProperties: false },
    readOnly: false,
    commandOf: (args) => String(args['command']),
    execute: async (_args, context) => {
      await onRun?.(context);
      if (context.sandbox === undefined) return { status: 'ok', content: 'ran unconfined' };
      const outside = await context.offerUnsandboxedRun?.('[sandbox: refused]');
      return outside === true
        ? { status: 'ok', content: 'ran outside, once' }
        : { status: 'error', content: 'refused inside' };
    },
  };
}

const fakeSandbox = { kind: 'bubblewrap', network: 'off' } as unknown as CommandSandbox;
const call = { id: 'c1', name: 'run', arguments: '{"command":"make"}' };

function options(tool: ToolImplementation, extra: Partial<RunToolCallsOptions> = {}): RunToolCallsOptions {
  return {
    registry: new PluginRegistry(),
    extraTools: new Map([[tool.name, tool]]),
    posture: 'workspace',
    rules: { allow: [], deny: [] },
    context: {
      workspace: '/nonexistent',
      signal: new AbortController().signal,
      env: {},
      limits: LIMITS,
      files: workspaceFiles('/nonexistent', []),
    },
    ...extra,
  };
}

describe('runToolCalls and the sandbox', () => {
  it('with no sandbox found and no one to ask, a command the posture would run is refused, saying why', async () => {
    const [record] = await runToolCalls([call], options(commandTool(), { askForCommands: true }));
    expect(record?.status).toBe('refused');
    expect(record?.content).toContain('no sandbox is available');
  });

  it('with no sandbox found, a person is asked about each command', async () => {
    const asked: AskedCall[] = [];
    const [record] = await runToolCalls(
      [call],
      options(commandTool(), {
        askForCommands: true,
        ask: async (question) => {
          asked.push(question);
          return 'yes';
        },
      }),
    );
    expect(record?.status).toBe('ok');
    expect(asked).toEqual([{ id: call.id, name: 'run', summary: '', arguments: call.arguments, rule: 'run(make)' }]);
  });

  it('under ask, a command that failed inside the sandbox is offered once outside it, with the reason', async () => {
    const asked: AskedCall[] = [];
    const answers = ['yes', 'yes'] as const;
    const context = { ...options(commandTool()).context, sandbox: fakeSandbox };
    const [record] = await runToolCalls(
      [call],
      options(commandTool(), {
        posture: 'ask',
        context,
        ask: async (question) => {
          asked.push(question);
          return answers[asked.length - 1] ?? 'no';
        },
      }),
    );
    expect(record?.content).toBe('ran outside, once');
    expect(asked[1]).toEqual({
      id: call.id,
      name: 'run',
      summary: '',
      arguments: call.arguments,
      outsideSandbox: '[sandbox: refused]',
    });
  });

  it('under workspace, no one is offered a run outside the sandbox', async () => {
    const context = { ...options(commandTool()).context, sandbox: fakeSandbox };
    const [record] = await runToolCalls([call], options(commandTool(), { context }));
    expect(record).toMatchObject({ status: 'error', content: 'refused inside' });
  });

  it('a call stopped by Ctrl-C is stored as cancelled, not error', async () => {
    const controller = new AbortController();
    const tool: ToolImplementation = {
      ...commandTool(),
      execute: async () => {
        controller.abort();
        return { status: 'error', content: 'killed: the call was cancelled' };
      },
    };
    const base = options(tool);
    const [record] = await runToolCalls([call], { ...base, context: { ...base.context, signal: controller.signal } });
    expect(record?.status).toBe('cancelled');
  });
});

describe('runToolCalls marks calls started before they start', () => {
  it('records each batch before any of its calls runs, read-only calls as one batch', async () => {
    const events: string[] = [];
    const reader: ToolImplementation = {
      name: 'look',
      description: 'reads',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      readOnly: true,
      execute: async () => {
        events.push('look ran');
        return { status: 'ok', content: 'seen' };
      },
    };
    const writer = commandTool(async () => {
      events.push('run ran');
    });
    const records = await runToolCalls(
      [
        { id: 'r1', name: 'look', arguments: '{}' },
        { id: 'r2', name: 'look', arguments: '{}' },
        { id: 'w1', name: 'run', arguments: '{"command":"make"}' },
      ],
      {
        ...options(writer),
        extraTools: new Map([
          [reader.name, reader],
          [writer.name, writer],
        ]),
        beforeStart: async (calls) => {
          events.push(`marked ${calls.map((one) => one.id).join(',')}`);
        },
      },
    );
    expect(records.map((record) => record.status)).toEqual(['ok', 'ok', 'ok']);
    expect(events).toEqual(['marked r1,r2', 'look ran', 'look ran', 'marked w1', 'run ran']);
  });

  it('a call whose start cannot be recorded does not run, and says so', async () => {
    let ran = false;
    const [record] = await runToolCalls(
      [call],
      options(
        commandTool(async () => {
          ran = true;
        }),
        {
          beforeStart: async () => {
            throw new Error('ENOSPC');
          },
        },
      ),
    );
    expect(ran).toBe(false);
    expect(record?.status).toBe('not-executed');
    expect(record?.content).toContain('could not record');
  });
});

describe('runToolCalls and the approval store', () => {
  it('an MCP call is asked with its server and its paths in the workspace relative; a reason reaches the result', async () => {
    const workspace = '/projects/example';
    const tool: ToolImplementation = {
      name: 'mcp__files__write_file',
      description: '',
      inputSchema: { type: 'object' },
      readOnly: false,
      mcpServer: 'files',
      describeForApproval: (args) => Object.entries(args).map(([key, value]) => `${key}: ${JSON.stringify(value)}`),
      execute: async () => ({ status: 'ok', content: 'written' }),
    };
    const asked: AskedCall[] = [];
    const [record] = await runToolCalls(
      [{ id: 'w1', name: tool.name, arguments: JSON.stringify({ path: `${workspace}/docs/a.md` }) }],
      {
        ...options(tool, {
          posture: 'ask',
          ask: async (question) => {
            asked.push(question);
            return { answer: 'no', reason: 'write it under notes/ instead' };
          },
        }),
        context: { ...options(tool).context, workspace },
      },
    );
    expect(asked[0]?.server).toBe('files');
    expect(asked[0]?.details).toEqual(['path: "docs/a.md"']);
    expect(record?.status).toBe('refused');
    expect(record?.content).toContain('saying: write it under notes/ instead');
  });
});
