import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP receiver for deliveries: records each request and answers with the status `answer`
 * gives for it (200 unless changed).
 */
export class Receiver {
  readonly received: Received[] = [];
  /** The status to answer with, now or when the promise settles; null holds the request unanswered (until close). */
  answer: (r: Received) => number | null | Promise<number | null> = () => 200;
  private constructor(private readonly server: Server) {}

  static async start(): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        receiver.received.push(r);
        void Promise.resolve(receiver.answer(r)).then((status) => {
          if (status === null) return;
          res.statusCode = status;
          res.end();
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
