import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

// Kept free of heavy imports: bin/run.js reads it before oclif starts, to place oclif's plugin data.

/** Why the cw home is where it is (docs/config.md). */
export type HomeSource = 'CW_HOME' | 'legacy ~/.cw' | 'XDG_CONFIG_HOME' | 'default';

/** Every folder cw keeps things in, and why the home is where it is. */
export interface CwPaths {
  /** config.json, sessions/, mcp/, recovered/, AGENTS.md and (by default) plugins/. */
  readonly home: string;
  readonly homeSource: HomeSource;
  readonly configFile: string;
  readonly sessions: string;
  /** oclif's data folder: installed and linked plugins. */
  readonly plugins: string;
  readonly pluginsSource: 'CW_DATA_DIR' | 'legacy XDG data folder' | 'home';
}

function setting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

function homeOf(env: NodeJS.ProcessEnv): { home: string; source: HomeSource } {
  const fromEnv = setting(env, 'CW_HOME');
  if (fromEnv !== undefined) return { home: fromEnv, source: 'CW_HOME' };
  // Earlier versions kept everything in ~/.cw; a home that is already there stays where it is.
  const legacy = join(homedir(), '.cw');
  if (existsSync(legacy)) return { home: legacy, source: 'legacy ~/.cw' };
  // The XDG base directory spec ignores a relative value.
  const xdg = setting(env, 'XDG_CONFIG_HOME');
  if (xdg !== undefined && isAbsolute(xdg)) return { home: join(xdg, 'cw'), source: 'XDG_CONFIG_HOME' };
  return { home: join(homedir(), '.config', 'cw'), source: 'default' };
}

/** The folder that holds config.json, sessions and the rest: `$CW_HOME`, else `~/.cw` if it exists, else `${XDG_CONFIG_HOME:-~/.config}/cw`. */
export function cwHome(env: NodeJS.ProcessEnv = process.env): string {
  return homeOf(env).home;
}

/** Where each thing cw keeps lives, with the same rules as cwHome; plugins go in `<home>/plugins` unless `CW_DATA_DIR` says otherwise. */
export function cwPaths(env: NodeJS.ProcessEnv = process.env): CwPaths {
  const { home, source } = homeOf(env);
  const common = { home, homeSource: source, configFile: join(home, 'config.json'), sessions: join(home, 'sessions') };
  const dataDir = setting(env, 'CW_DATA_DIR');
  if (dataDir !== undefined) return { ...common, plugins: dataDir, pluginsSource: 'CW_DATA_DIR' };
  // Plugins installed before the home held them stay usable where oclif put them.
  if (source !== 'CW_HOME') {
    const xdgData = setting(env, 'XDG_DATA_HOME');
    const legacy = join(
      xdgData !== undefined && isAbsolute(xdgData) ? xdgData : join(homedir(), '.local', 'share'),
      'cw',
    );
    if (existsSync(join(legacy, 'package.json')))
      return { ...common, plugins: legacy, pluginsSource: 'legacy XDG data folder' };
  }
  return { ...common, plugins: join(home, 'plugins'), pluginsSource: 'home' };
}
