import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has working defaults', () => {
    expect(loadConfig({})).toMatchObject({ port: 8080, host: '127.0.0.1', dataDir: './data', authCacheTtlMs: 1000, logLevel: 'info' });
  });

  it('reads and converts environment variables', () => {
    expect(loadConfig({ PORT: '9000', DATABASE_URL: 'postgres://u@h/db', APP_PORT: '9001' })).toMatchObject({
      port: 9000,
      appPort: 9001,
      databaseUrl: 'postgres://u@h/db',
    });
  });

  it('names each invalid variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', JWT_SECRET: 'short', AUTH_CACHE_TTL_MS: '5000' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', JWT_SECRET: 'short', AUTH_CACHE_TTL_MS: '5000' });
    } catch (e) {
      expect((e as Error).message).toMatch(/PORT/);
      expect((e as Error).message).toMatch(/JWT_SECRET/);
      expect((e as Error).message).toMatch(/AUTH_CACHE_TTL_MS/);
    }
  });

  it('has connection and body bounds by default, and refuses a header timeout longer than the request timeout', () => {
    expect(loadConfig({})).toMatchObject({
      httpHeadersTimeoutMs: 15_000,
      httpRequestTimeoutMs: 120_000,
      httpKeepAliveTimeoutMs: 72_000,
      httpIdleTimeoutMs: 90_000,
      httpMaxConnections: 4096,
      httpMaxConnectionsPerAddress: 256,
      httpBodyMemoryMb: 256,
    });
    expect(loadConfig({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0' }).httpMaxConnectionsPerAddress).toBe(0);
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '30000', HTTP_REQUEST_TIMEOUT_MS: '20000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS: must be at most HTTP_REQUEST_TIMEOUT_MS/,
    );
  });
});
