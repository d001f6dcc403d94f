import { readFileSync } from 'node:fs';
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { systemClock } from '../clock.js';

/**
 * The timeouts of every listener (docs/deployment.md, "Connections"), as Fastify's options. Node
 * looks for expired headers and requests every `connectionsCheckingInterval` (30 s by default, so a
 * 15 s header timeout took up to 45 s): a tenth of the shorter timeout, between 100 ms and 2 s.
 */
export function serverOptions(config: Config): { requestTimeout: number; keepAliveTimeout: number; connectionTimeout: number; http: ServerOptions } {
  const check = Math.min(2000, Math.max(100, Math.floor(Math.min(config.httpHeadersTimeoutMs, config.httpRequestTimeoutMs) / 10)));
  return {
    requestTimeout: config.httpRequestTimeoutMs,
    keepAliveTimeout: config.httpKeepAliveTimeoutMs,
    // Node's socket inactivity timeout: a stalled body, or an answer the client does not read.
    connectionTimeout: config.httpIdleTimeoutMs,
    http: { headersTimeout: config.httpHeadersTimeoutMs, requestTimeout: config.httpRequestTimeoutMs, connectionsCheckingInterval: check },
  };
}

/** How often the refusals are logged at most: a flood would otherwise write a line per connection. */
const REPORT_EVERY_MS = 10_000;

export interface ConnectionGuardDeps {
  /**
   * `firstByteMs`: how long a connection may stay silent before its first request starts. Node's
   * header timeout counts only from the first byte, so a connection that never sends one was held
   * until the idle timeout.
   */
  settings: { maxConnections: number; maxPerAddress: number; firstByteMs: number };
  log: FastifyBaseLogger;
  /** The process's limit of open files, read once; by default from /proc/self/limits. */
  openFiles?: () => number | undefined;
  /** The count of open connections of another guard (`shared`): the health listener's thread counts with the main thread's. */
  openCount?: SharedArrayBuffer;
}

/** What a guard in another thread of the process needs to count with this one. */
export interface SharedConnections {
  openCount: SharedArrayBuffer;
  maxConnections: number;
}

/**
 * Bounds the connections of one process, over all its listeners (in whichever thread), and per
 * client address (per thread: the health listener's thread counts its own). A
 * connection past a bound is closed as it arrives, before anything is read from it: each open
 * connection costs a file descriptor, and a process out of descriptors can neither accept its
 * health checks nor open a file (Node's own memory reading included).
 */
export class ConnectionGuard {
  private max: number;
  private readonly maxPerAddress: number;
  private limited = false;
  /** The connections open over every guard that shares it (one per thread), counted with Atomics. */
  private readonly open: Int32Array;
  private readonly perAddress = new Map<string, number>();
  private refused = 0;
  private lastReport = 0;

  private readonly firstByteMs: number;
  private readonly log: FastifyBaseLogger;
  private readonly openFiles: () => number | undefined;

  constructor({ settings, log, openFiles = openFileLimit, openCount = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT) }: ConnectionGuardDeps) {
    this.open = new Int32Array(openCount);
    this.max = settings.maxConnections;
    this.maxPerAddress = settings.maxPerAddress;
    this.firstByteMs = settings.firstByteMs;
    this.log = log;
    this.openFiles = openFiles;
  }

  /** Counts and bounds the connections of `server` (the service's, and the application address's listener). */
  attach(server: Server): void {
    if (!this.limited) this.fitOpenFiles();
    // Before Node's own listener, which would start reading the request of a connection refused here.
    server.prependListener('connection', (socket: Socket) => this.admit(socket));
    // A failed accept (EMFILE when the descriptors run out anyway) is an 'error' of the server,
    // which would end the process with nobody listening; Fastify listens for it only while starting.
    server.once('listening', () => server.on('error', (err) => this.log.error({ err }, 'accepting a connection failed')));
  }

  /** Read when the first listener is attached, not when built: commands that never listen neither read nor log it. */
  private fitOpenFiles(): void {
    this.limited = true;
    const files = this.openFiles();
    // A quarter of the descriptors (at least 64) stays for the database, files, git and npm.
    const room = files === undefined ? undefined : Math.max(1, files - Math.max(64, Math.floor(files / 4)));
    if (room === undefined || room >= this.max) return;
    this.max = room;
    this.log.warn({ openFiles: files, maxConnections: room }, `HTTP_MAX_CONNECTIONS lowered to ${room}: this process may open only ${files} files (ulimit -n)`);
  }

  /** The connections open now, for tests and logs. */
  get size(): number {
    return Atomics.load(this.open, 0);
  }

  /**
   * For a guard in another thread (the health listener's), once a listener is attached here: the
   * shared count and the bound, lowered to the open-file limit already.
   */
  shared(): SharedConnections {
    return { openCount: this.open.buffer as SharedArrayBuffer, maxConnections: this.max };
  }

  private admit(socket: Socket): void {
    const address = socket.remoteAddress;
    const fromAddress = address === undefined ? 0 : (this.perAddress.get(address) ?? 0);
    // Counted first, then checked: two threads admitting at once cannot both take the last place.
    const open = Atomics.add(this.open, 0, 1);
    if (address === undefined || open >= this.max || (this.maxPerAddress > 0 && fromAddress >= this.maxPerAddress)) {
      Atomics.sub(this.open, 0, 1);
      socket.destroy();
      this.report(address);
      return;
    }
    this.perAddress.set(address, fromAddress + 1);
    // bytesRead counts what Node's parser read straight from the handle, which emits no 'data'. A
    // socket's bytes arrive in real time, whatever the service's clock says: the system clock's timer.
    const silent = systemClock.timeout(() => socket.bytesRead === 0 && socket.destroy(), this.firstByteMs, { keepAlive: false });
    socket.once('close', () => {
      silent.cancel();
      Atomics.sub(this.open, 0, 1);
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    });
  }

  private report(address: string | undefined): void {
    this.refused++;
    const now = Date.now();
    if (now - this.lastReport < REPORT_EVERY_MS) return;
    this.log.warn(
      { refused: this.refused, open: this.size, maxConnections: this.max, maxPerAddress: this.maxPerAddress, lastAddress: address },
      'connections refused past the connection bounds',
    );
    this.refused = 0;
    this.lastReport = now;
  }
}

/**
 * The open-file limit of this process (Node raises the soft limit to the hard one as it starts),
 * from /proc on Linux; undefined elsewhere. Node has no API for it.
 */
export function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line && line[1] !== 'unlimited' ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}
