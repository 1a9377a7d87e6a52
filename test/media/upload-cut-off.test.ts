// An audio upload whose client goes away mid-body is the client's doing: no 500, no error line.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, watch } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { capturingLogger, type LoggedLine } from '../helpers/capturing-logger.js';
import { eventually } from '../helpers/eventually.js';
import { holdingStorage } from '../helpers/holding-storage.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** How long to wait for what the gateway does once the client has gone: long enough for a loaded machine. */
const SERVER_SIDE_MS = 15_000;
const eventuallyLoaded = <T>(check: () => T | Promise<T>): Promise<T> => eventually(check, SERVER_SIDE_MS);

const PATH = '/v1/audio/transcriptions';
const FORM_START = '--x\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF';

describe('an upload cut off by its client', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  let server: LoopbackServer;
  let lines: LoggedLine[];
  let hold: ReturnType<typeof holdingStorage>;

  beforeEach(async () => {
    lines = [];
    hold = holdingStorage();
    f = await createTrafficFixture({ logger: capturingLogger(lines), logRequests: true, storage: hold.adapter });
    await f.create('/v1/admin/routes', { name: 'stt', type: 'transcriptions', models: [{ name: 'whisper-1', provider: 'fake' }] });
    server = await listenOnLoopback(f.app);
  });
  afterEach(async () => {
    server.close();
    await f.close();
  });

  /**
   * Sends the headers and, once the gateway reads the body (its `100 Continue`), the start of a form, then closes:
   * `framing` is a Content-Length it never reaches, or chunks it never ends.
   */
  async function cutUpload(framing: 'length' | 'chunked'): Promise<void> {
    const socket = connect(server.port, '127.0.0.1');
    const reading = new Promise<void>((resolve) => socket.on('data', (data) => data.toString().startsWith('HTTP/1.1 100') && resolve()));
    const length = framing === 'length' ? 'Content-Length: 100000' : 'Transfer-Encoding: chunked';
    socket.write(`POST ${PATH} HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${f.developerKey}\r\nX-Gateway-Route: stt\r\nContent-Type: multipart/form-data; boundary=x\r\nExpect: 100-continue\r\n${length}\r\n\r\n`);
    await reading;
    socket.write(framing === 'length' ? FORM_START : `${Buffer.byteLength(FORM_START).toString(16)}\r\n${FORM_START}\r\n`);
    socket.destroy();
  }

  for (const framing of ['length', 'chunked'] as const) {
    it(`mid-body, with ${framing === 'length' ? 'a Content-Length' : 'chunks'}: no error line, and the provider is never called`, async () => {
      await cutUpload(framing);
      // The request's line is written when its connection closes; the form's failure follows within the same turn.
      const line = await eventuallyLoaded(() => {
        const found = lines.find((entry) => entry.message === 'request' && entry.fields?.path === PATH);
        assert.ok(found);
        return found;
      });
      assert.equal(line.fields?.status, 499, 'recorded as a client that left');
      assert.deepEqual(lines.filter((entry) => entry.level === 'error'), [], 'a cut upload is not a gateway failure');
      assert.equal(f.fake.requests.length, 0);
    });
  }

  it('before its body is read (while its key is checked): the upload directory made for it is removed', async () => {
    // Uploads go to a directory of this test's own, watched: the form's directory is made there once the key is known.
    const previous = process.env.TMPDIR;
    const uploads = mkdtempSync(join(tmpdir(), 'upload-cut-off-'));
    process.env.TMPDIR = uploads;
    const watcher = watch(uploads);
    const made = new Promise<void>((resolve) => watcher.once('change', () => resolve()));
    try {
      // A key made now is read from storage on its first use: that read is held.
      const key = (await request(f.app).post('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(201)).body.key as string;
      const read = hold.arm('developer-keys/');
      const socket = connect(server.port, '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(`POST ${PATH} HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${key}\r\nX-Gateway-Route: stt\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\n\r\n${FORM_START}`);
      await read.reached;
      socket.destroy();
      // The gateway has seen the client go once the request's line is written (at the close).
      await eventuallyLoaded(() => assert.ok(lines.some((entry) => entry.message === 'request' && entry.fields?.path === PATH)));
      read.release();
      await made;
      await eventuallyLoaded(() => assert.deepEqual(readdirSync(uploads), [], 'no upload directory is left'));
      assert.deepEqual(lines.filter((entry) => entry.level === 'error'), []);
      assert.equal(f.fake.requests.length, 0);
    } finally {
      watcher.close();
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      rmSync(uploads, { recursive: true, force: true });
    }
  });
});
