import net from 'node:net';

/**
 * Clients that hold a connection as an attacker would, on loopback, for the fault tests and
 * bench/load.ts. Each can come from its own loopback address (127.0.0.0/8 is all loopback on
 * Linux), so a test can fill one address's share and still probe from another. Nothing here
 * imports the test runner.
 */

/** How a held connection behaves once connected. */
export type Behaviour =
  /** Connects and sends nothing. */
  | 'idle'
  /** Sends a request line, then one more header line every `everyMs`, never ending the headers. */
  | 'slow-headers'
  /** Sends complete headers announcing `bodyBytes`, then one byte of the body every `everyMs`. */
  | 'slow-body';

export interface HeldConnection {
  socket: net.Socket;
  openedAt: number;
  /** When the server ended or reset the connection (undefined while it is open). */
  closedAt?: number;
  /** Whether it was ever connected (a connection refused before the handshake is not). */
  connected: boolean;
}

export interface HoldOptions {
  port: number;
  count: number;
  behaviour: Behaviour;
  /** The loopback address the connections come from (default 127.0.0.1). */
  from?: string;
  everyMs?: number;
  /** slow-body: the request's path, headers and announced length. */
  path?: string;
  headers?: Record<string, string>;
  bodyBytes?: number;
}

/**
 * Opens `count` connections that behave as `behaviour` says until the server closes them or
 * `release` is called. The client never closes on its own: it keeps its half open after the
 * server's FIN and keeps writing, so `closedAt` is set only once the server has let go of the
 * connection for good (the writes then fail with a reset).
 */
export async function holdConnections(o: HoldOptions): Promise<{ held: HeldConnection[]; open: () => number; release: () => void }> {
  const everyMs = o.everyMs ?? 200;
  const held: HeldConnection[] = [];
  const timers: NodeJS.Timeout[] = [];
  const opened = Array.from({ length: o.count }, () => {
    const socket = net.connect({ port: o.port, host: '127.0.0.1', localAddress: o.from ?? '127.0.0.1', allowHalfOpen: true });
    const c: HeldConnection = { socket, openedAt: Date.now(), connected: false };
    held.push(c);
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    socket.on('close', () => (c.closedAt ??= Date.now()));
    // Once the server ends its side, a byte now and then tells whether it still holds the
    // connection (the byte is read) or has let go of it (the byte is answered with a reset).
    socket.once('end', () => {
      const knock = setInterval(() => (socket.destroyed ? clearInterval(knock) : socket.write('\r\n')), everyMs);
      timers.push(knock);
    });
    return new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.once('connect', () => {
        c.connected = true;
        resolve();
        if (o.behaviour === 'idle') return;
        if (o.behaviour === 'slow-headers') socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
        else {
          const headers = { host: '127.0.0.1', 'content-type': 'application/json', ...o.headers, 'content-length': String(o.bodyBytes ?? 1_000_000) };
          socket.write(
            `POST ${o.path ?? '/v1/logs'} HTTP/1.1\r\n${Object.entries(headers)
              .map(([k, v]) => `${k}: ${v}\r\n`)
              .join('')}\r\n`,
          );
        }
        let n = 0;
        const timer = setInterval(() => {
          if (socket.destroyed) return clearInterval(timer);
          socket.write(o.behaviour === 'slow-headers' ? `x-slow-${n++}: 1\r\n` : ' ');
        }, everyMs);
        timers.push(timer);
      });
    });
  });
  await Promise.all(opened);
  return {
    held,
    open: () => held.filter((c) => c.closedAt === undefined).length,
    release: () => {
      for (const t of timers) clearInterval(t);
      for (const c of held) c.socket.destroy();
    },
  };
}

/**
 * One GET /healthz on a new connection from `from`: how long until the status line arrived, and
 * the status (0 when the connection was refused or closed without an answer).
 */
export function probeHealth(port: number, from = '127.0.0.2', timeoutMs = 5000): Promise<{ ms: number; status: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    let text = '';
    const done = (status: number) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ ms: performance.now() - t0, status });
    };
    const timer = setTimeout(() => done(0), timeoutMs);
    socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
    socket.on('data', (d) => {
      text += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m) done(Number(m[1]));
    });
    socket.on('error', () => done(0));
    socket.on('close', () => done(0));
  });
}

/** The p-th percentile (0-100) of `values`. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Probes /healthz every `everyMs` until `stop` resolves: the latencies of the answered probes and how many went unanswered. */
export async function probeHealthUntil(port: number, stop: Promise<unknown>, everyMs = 100, from = '127.0.0.2'): Promise<{ ms: number[]; failed: number }> {
  let stopped = false;
  void stop.finally(() => (stopped = true));
  const ms: number[] = [];
  let failed = 0;
  while (!stopped) {
    const r = await probeHealth(port, from);
    if (r.status === 200) ms.push(r.ms);
    else failed++;
    await new Promise((res) => setTimeout(res, everyMs));
  }
  return { ms, failed };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends `head` (and `body`, when given) on a new connection and reads one response, however much of the body the server took. */
export function rawRequest(port: number, head: string, body?: Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let data = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('connect', () => {
      socket.write(head);
      if (body) socket.write(body);
    });
    socket.on('data', (d: Buffer) => {
      data = Buffer.concat([data, d]);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? 0);
      if (data.length < end + 4 + length) return;
      socket.destroy();
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: data.subarray(end + 4, end + 4 + length) });
    });
  });
}
