import { describe, expect, it } from 'vitest';
import { toolEnvironment } from './tool-environment.js';

describe('toolEnvironment', () => {
  it('drops every configured key variable and anything named like a credential, keeps the rest', () => {
    const env = {
      PATH: '/usr/bin',
      HOME: '/home/someone',
      DEEPSEEK_API_KEY: 'sk-test-1',
      MY_ROUTE_KEY: 'sk-test-2',
      CUSTOM_VAR_FOR_ROW: 'sk-test-3',
      GITHUB_TOKEN: 'ghp_x',
      AWS_SECRET_ACCESS_KEY: 'x',
      TOKENIZERS_PARALLELISM: 'false',
      LANG: 'C.UTF-8',
    };
    const rows = [
      { auth: { scheme: 'bearer', api_key_env: 'CUSTOM_VAR_FOR_ROW', key_header: null, headers: {} } },
    ] as const;
    const config = {
      routes: {
        mine: {
          provider: 'custom',
          dialect: 'chat-completions',
          base_url: 'http://x',
          model: 'm',
          api_key_env: 'MY_ROUTE_KEY',
        },
      },
    } as const;
    expect(toolEnvironment(env, rows, config as never)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/someone',
      TOKENIZERS_PARALLELISM: 'false',
      LANG: 'C.UTF-8',
    });
  });
});
