// Hosts PGlite on its own thread: PGlite runs WebAssembly on the thread that calls it, so a
// slow query here never stalls the HTTP event loop. Messages are answered in arrival order.
import { Blob } from 'node:buffer';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const options = workerData.loadDataDir ? { loadDataDir: new Blob([workerData.loadDataDir]) } : {};
if (workerData.initdbArgs) options.initDbStartParams = workerData.initdbArgs;
const db = new PGlite(workerData.dataDir, options);

const errorOf = (e) => ({
  message: e?.message ?? String(e),
  code: e?.code,
  constraint: e?.constraint,
});

let chain = db.waitReady.then(
  () => parentPort.postMessage({ id: 0, ok: true }),
  (e) => parentPort.postMessage({ id: 0, ok: false, error: errorOf(e) }),
);

// The main thread sends a transaction's BEGIN without waiting for its answer, and the statements
// after it carry the transaction's number: should the BEGIN fail, they must not run on their own.
let failedTx;

parentPort.on('message', (msg) => {
  chain = chain.then(async () => {
    try {
      if (msg.tx !== undefined && msg.tx === failedTx) throw new Error('the transaction did not begin');
      if (msg.type === 'begin') {
        try {
          await db.exec('BEGIN');
        } catch (e) {
          failedTx = msg.tx;
          throw e;
        }
        parentPort.postMessage({ id: msg.id, ok: true, rows: [] });
      } else if (msg.type === 'query') {
        const r = await db.query(msg.sql, msg.params ?? []);
        parentPort.postMessage({ id: msg.id, ok: true, rows: r.rows });
      } else if (msg.type === 'exec') {
        await db.exec(msg.sql);
        parentPort.postMessage({ id: msg.id, ok: true, rows: [] });
      } else if (msg.type === 'dump') {
        const blob = await db.dumpDataDir('none');
        parentPort.postMessage({ id: msg.id, ok: true, rows: [], dump: new Uint8Array(await blob.arrayBuffer()) });
      } else if (msg.type === 'close') {
        await db.close();
        parentPort.postMessage({ id: msg.id, ok: true, rows: [] });
      }
    } catch (e) {
      parentPort.postMessage({ id: msg.id, ok: false, error: errorOf(e) });
    }
  });
});
