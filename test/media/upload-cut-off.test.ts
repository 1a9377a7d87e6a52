// An audio upload whose client goes away mid-body is the client's doing: no 500, no error line.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { capturingLogger, type LoggedLine } from '../helpers/capturing-logger.js';
import { eventually } from '../helpers/eventually.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const PATH = '/v1/audio/transcriptions';
const FORM_START = '--x\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF';

describe('an upload cut off by its client', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  let server: LoopbackServer;
  let lines: LoggedLine[];

  beforeEach(async () => {
    lines = [];
    f = await createTrafficFixture({ logger: capturingLogger(lines), logRequests: true });
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
      const line = await eventually(() => {
        const found = lines.find((entry) => entry.message === 'request' && entry.fields?.path === PATH);
        assert.ok(found);
        return found;
      });
      assert.equal(line.fields?.status, 499, 'recorded as a client that left');
      assert.deepEqual(lines.filter((entry) => entry.level === 'error'), [], 'a cut upload is not a gateway failure');
      assert.equal(f.fake.requests.length, 0);
    });
  }
});
