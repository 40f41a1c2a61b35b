import { describe, expect, it } from 'vitest';
import { SLASH_COMMANDS, commandsStartingWith, parseSlashCommand, slashHelp } from './slash-commands.js';

describe('parseSlashCommand', () => {
  it('reads a command and the rest of the line, trimmed', () => {
    expect(parseSlashCommand('/route  deepseek ')).toEqual({ kind: 'command', name: 'route', rest: 'deepseek' });
    expect(parseSlashCommand('/preview fix the test')).toEqual({
      kind: 'command',
      name: 'preview',
      rest: 'fix the test',
    });
    expect(parseSlashCommand('/exit')).toEqual({ kind: 'command', name: 'exit', rest: '' });
  });

  it('/server:prompt names an MCP server prompt, with its name=value words', () => {
    expect(parseSlashCommand('/everything:args-prompt city=Lyon  state=RA ')).toEqual({
      kind: 'mcp-prompt',
      ref: 'everything/args-prompt',
      args: ['city=Lyon', 'state=RA'],
    });
    expect(parseSlashCommand('/fs:review')).toEqual({ kind: 'mcp-prompt', ref: 'fs/review', args: [] });
    // A path typed after // is still a prompt, colon or not.
    expect(parseSlashCommand('//c:/temp is full')).toBeNull();
  });

  it('leaves prompts alone, and // sends a prompt that starts with /', () => {
    expect(parseSlashCommand('explain /etc/hosts')).toBeNull();
    expect(parseSlashCommand('//tmp is full, why?')).toBeNull();
  });

  it('an unknown command is an error that says what to do, naming the nearest command', () => {
    const typo = parseSlashCommand('/modle gpt');
    expect(typo).toEqual({ kind: 'error', text: expect.stringContaining('Did you mean /model?') });
    expect(typo?.kind === 'error' && typo.text).toContain('/help lists the commands');
    const prefix = parseSlashCommand('/prev');
    expect(prefix?.kind === 'error' && prefix.text).toContain('Did you mean /preview?');
    const none = parseSlashCommand('/zzzzzz');
    expect(none?.kind === 'error' && none.text).not.toContain('Did you mean');
  });

  it('never echoes a line that is not a command name (it may be a pasted secret)', () => {
    const parsed = parseSlashCommand('/sk-ABCDEF0123456789');
    expect(parsed?.kind).toBe('error');
    expect(parsed?.kind === 'error' && parsed.text).not.toContain('ABCDEF');
  });
});

describe('the command list', () => {
  it('has every command the session offers, each with help', () => {
    expect(SLASH_COMMANDS.map((command) => command.name).sort()).toEqual(
      [
        'approval',
        'compact',
        'exit',
        'goal',
        'help',
        'mcp',
        'model',
        'new',
        'preview',
        'reasoning',
        'resume',
        'route',
        'sessions',
        'skills',
      ].sort(),
    );
    for (const command of SLASH_COMMANDS) expect(slashHelp()).toContain(`/${command.name}`);
  });

  it('completes names by prefix', () => {
    expect(commandsStartingWith('re')).toEqual(['reasoning', 'resume']);
    expect(commandsStartingWith('')).toHaveLength(SLASH_COMMANDS.length);
  });
});
