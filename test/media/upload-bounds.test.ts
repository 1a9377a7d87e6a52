// An upload that goes on past the bound (bytes around the form, or the rest of a refused one) is answered and cut off.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';

const LIMIT = 1024 * 1024;
const MODEL = '--x\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n';
const FILE_HEAD = '--x\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\n';

/** What became of a chunked upload that sends `head`, then 64 KB chunks until the gateway closes (at most 4 s or 200 MB). */
interface Outcome {
  statusLine: string;
  body: string;
  closed: boolean;
  sentBytes: number;
}

async function endlessUpload(port: number, developerKey: string, head: string): Promise<Outcome> {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  let closed = false;
  socket.on('data', (data) => (answer += data.toString()));
  socket.on('close', () => (closed = true));
  socket.on('error', () => (closed = true));
  const chunk = (data: Buffer | string): boolean => socket.write(Buffer.concat([Buffer.from(`${Buffer.byteLength(data).toString(16)}\r\n`), Buffer.from(data), Buffer.from('\r\n')]));
  socket.write(`POST /v1/audio/transcriptions HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${developerKey}\r\nX-Gateway-Route: stt\r\nContent-Type: multipart/form-data; boundary=x\r\nTransfer-Encoding: chunked\r\n\r\n`);
  chunk(head);
  const block = Buffer.alloc(64 * 1024, 7);
  const started = Date.now();
  let sentBytes = 0;
  while (!closed && Date.now() - started < 4000 && sentBytes < 200 * 1024 * 1024) {
    if (!chunk(block)) await new Promise((resolve) => (socket.once('drain', resolve), setTimeout(resolve, 200)));
    sentBytes += block.length;
  }
  socket.destroy();
  return { statusLine: answer.split('\r\n')[0] ?? '', body: answer.slice(answer.indexOf('\r\n\r\n') + 4), closed, sentBytes };
}

describe('uploads past the bound are answered and the connection is closed', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  let server: LoopbackServer;

  before(async () => {
    f = await createTrafficFixture({ uploadLimitBytes: LIMIT });
    await f.create('/v1/admin/routes', { name: 'stt', type: 'transcriptions', models: [{ name: 'whisper-1', provider: 'fake' }] });
    server = await listenOnLoopback(f.app);
  });
  after(async () => {
    server.close();
    await f.close();
  });

  for (const [what, head] of [
    ['bytes before the first boundary (a preamble)', 'a preamble, which the form ignores\r\n'],
    ['bytes after the closing boundary (an epilogue)', `${MODEL}${FILE_HEAD}RIFF\r\n--x--\r\n`],
  ] as const) {
    it(`${what} without end: 413 body_too_large, and the gateway stops reading`, async () => {
      const outcome = await endlessUpload(server.port, f.developerKey, head);
      assert.match(outcome.statusLine, /^HTTP\/1\.1 413 /, `answered ${JSON.stringify(outcome.statusLine)} after ${outcome.sentBytes} bytes`);
      assert.equal(JSON.parse(outcome.body).error.code, 'body_too_large');
      assert.ok(outcome.closed, `the connection stayed open after ${outcome.sentBytes} bytes`);
      assert.ok(outcome.sentBytes < 64 * LIMIT, `${outcome.sentBytes} bytes were taken`);
    });
  }

  it('a refused upload (a file past the limit, a second file) is not read on without end', async () => {
    for (const [head, status] of [[`${MODEL}${FILE_HEAD}`, 413], [`${FILE_HEAD}RIFF\r\n${FILE_HEAD}`, 400]] as const) {
      const outcome = await endlessUpload(server.port, f.developerKey, head);
      assert.match(outcome.statusLine, new RegExp(`^HTTP/1\\.1 ${status} `));
      assert.ok(outcome.closed, `the connection stayed open after ${outcome.sentBytes} bytes`);
      assert.ok(outcome.sentBytes < 64 * LIMIT, `${outcome.sentBytes} bytes were taken`);
    }
    assert.equal(f.fake.requests.length, 0);
  });
});
