import { randomBytes } from 'node:crypto';
import net from 'node:net';

/** What a process started with `--inspect=127.0.0.1:0` prints on standard error. */
export const INSPECTOR_URL = /Debugger listening on (ws:\/\/\S+)/;

interface Message {
  id?: number;
  method?: string;
  result?: unknown;
  error?: { message: string };
}

/**
 * A DevTools protocol session with a Node process's inspector, over a WebSocket of its own (Node
 * 20 has no WebSocket client without a flag): enough to pause the process's main thread, as a
 * debugger does, and resume it. Its other threads (workers) are not paused: each has an inspector
 * of its own.
 */
export class InspectorSession {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly waiting: { match: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];

  private constructor(private readonly socket: net.Socket) {}

  static async connect(wsUrl: string): Promise<InspectorSession> {
    const url = new URL(wsUrl);
    const socket = net.connect({ port: Number(url.port), host: url.hostname });
    const session = new InspectorSession(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('connect', () => {
        const key = randomBytes(16).toString('base64');
        socket.write(
          `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        );
      });
      let head = '';
      const onHead = (d: Buffer) => {
        head += d.toString('latin1');
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        socket.off('data', onHead);
        if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`no WebSocket: ${head.split('\r\n')[0]}`));
        socket.on('data', (more: Buffer) => session.read(more));
        session.read(Buffer.from(head.slice(end + 4), 'latin1'));
        resolve();
      };
      socket.on('data', onHead);
    });
    return session;
  }

  /** Sends a command and waits for its result. */
  async call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    const answer = this.next((m) => m.id === id);
    this.send(JSON.stringify({ id, method, params }));
    const m = await answer;
    if (m.error) throw new Error(`${method}: ${m.error.message}`);
    return m.result;
  }

  /** The next event of `method`. */
  event(method: string): Promise<Message> {
    return this.next((m) => m.method === method);
  }

  close(): void {
    this.socket.destroy();
  }

  private next(match: (m: Message) => boolean): Promise<Message> {
    return new Promise((resolve) => this.waiting.push({ match, resolve }));
  }

  /** A text frame; a client's frames are masked. */
  private send(text: string): void {
    const payload = Buffer.from(text);
    const mask = randomBytes(4);
    const length = payload.length < 126 ? Buffer.from([0x80 | payload.length]) : Buffer.alloc(3);
    if (payload.length >= 126) {
      if (payload.length > 0xffff) throw new Error('message too long for this client');
      length[0] = 0x80 | 126;
      length.writeUInt16BE(payload.length, 1);
    }
    const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
    this.socket.write(Buffer.concat([Buffer.from([0x81]), length, mask, masked]));
  }

  /** The server's frames (unmasked, unfragmented: Node's inspector sends whole messages). */
  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (this.buffer.length < 2) return;
      const short = this.buffer[1]! & 0x7f;
      const at = short === 126 ? 4 : short === 127 ? 10 : 2;
      if (this.buffer.length < at) return;
      const length = short === 126 ? this.buffer.readUInt16BE(2) : short === 127 ? Number(this.buffer.readBigUInt64BE(2)) : short;
      if (this.buffer.length < at + length) return;
      const opcode = this.buffer[0]! & 0x0f;
      const payload = this.buffer.subarray(at, at + length);
      this.buffer = this.buffer.subarray(at + length);
      if (opcode !== 1) continue;
      const message = JSON.parse(payload.toString()) as Message;
      const i = this.waiting.findIndex((w) => w.match(message));
      if (i >= 0) this.waiting.splice(i, 1)[0]!.resolve(message);
    }
  }
}
