// jsonBody: plain UTF-8 bodies read in one pass, encoded ones through body-parser, with the same errors either way.
import assert from 'node:assert/strict';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { errorMiddleware } from '../../src/errors/error-middleware.js';
import { jsonBody } from '../../src/http/json-body.js';

function app(): express.Express {
  const server = express();
  server.post('/echo', jsonBody({ limitBytes: 1024, maxDepth: 4 }), (req, res) => {
    res.json({ got: req.body });
  });
  server.use(errorMiddleware());
  return server;
}

/** Posts raw bytes (in the given chunks, chunked when there is no content-length) and answers the status and JSON body. */
async function post(server: Server, headers: Record<string, string>, chunks: Buffer[]): Promise<{ status: number; body: { error?: { code: string; message: string }; got?: unknown } }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/echo', method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString('utf8')) }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('jsonBody', () => {
  let server: Server;
  before(async () => {
    server = app().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  after(() => server.close());

  it('13: parses a plain UTF-8 body once, a leading BOM dropped', async () => {
    const res = await request(app()).post('/echo').set('content-type', 'application/json').send('\uFEFF{"text":"héllo ✓"}');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { got: { text: 'héllo ✓' } });
  });

  it('13: a chunked body over the limit is 413 body_too_large, and a bad or too deep one 400', async () => {
    const big = await post(server, { 'content-type': 'application/json' }, [Buffer.from('{"text":"'), Buffer.from('x'.repeat(2000)), Buffer.from('"}')]);
    assert.equal(big.status, 413);
    assert.equal(big.body.error?.code, 'body_too_large');
    const bad = await request(app()).post('/echo').set('content-type', 'application/json').send('{"text":');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error?.code, 'invalid_json');
    const deep = await request(app()).post('/echo').set('content-type', 'application/json').send('{"a":[[[[1]]]]}');
    assert.equal(deep.status, 400);
    assert.equal(deep.body.error?.code, 'json_too_deep');
    const list = await request(app()).post('/echo').set('content-type', 'application/json').send('[1]');
    assert.equal(list.status, 400);
    assert.equal(list.body.error?.code, 'invalid_body');
  });

  it('13: invalid JSON is 400 invalid_json without any excerpt of the body (it may hold a key), plain or gzip', async () => {
    const secret = 'sk-live-0123456789abcdefSECRET';
    const bodies = [
      `{"api_key": ${secret}}`,
      `{"name":"p","api_keys":[{"api_key":"${secret}" "x":1}]}`,
      `${secret}`,
      `{"api_key":"${secret}"}}`,
      `{"api_key":"${secret}`,
    ];
    const fragments = (text: string): string[] => Array.from({ length: text.length - 3 }, (_, i) => text.slice(i, i + 4));
    for (const body of bodies) {
      for (const zipped of [false, true]) {
        const bytes = zipped ? gzipSync(Buffer.from(body)) : Buffer.from(body);
        const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(bytes.length), ...(zipped ? { 'content-encoding': 'gzip' } : {}) };
        const res = await post(server, headers, [bytes]);
        assert.equal(res.status, 400, body);
        assert.equal(res.body.error?.code, 'invalid_json', body);
        const message = res.body.error!.message;
        assert.match(message, /^The request body is not valid JSON/);
        for (const fragment of fragments(secret)) assert.ok(!message.includes(fragment), `${zipped ? 'gzip' : 'plain'} ${body}: ${message}`);
      }
    }
  });

  it('a body in another charset (UTF-16, UTF-7) is held to the nesting limit too, measured on its decoded text', async () => {
    const send = (charset: string, bytes: Buffer) => post(server, { 'content-type': `application/json; charset=${charset}`, 'content-length': String(bytes.length) }, [bytes]);
    // In UTF-16LE the character U+4122 is the bytes 22 41: a byte scan reads a quote and then takes the brackets for a string.
    const deep = '{"a":"\u4122","b":[[[[[1]]]]]}';
    const utf16 = await send('utf-16le', Buffer.from(deep, 'utf16le'));
    assert.equal(utf16.status, 400, JSON.stringify(utf16.body));
    assert.equal(utf16.body.error?.code, 'json_too_deep');
    // In UTF-7 a bracket can be written as +AFs- (and ] as +AF0-): no bracket byte at all.
    const utf7 = await send('utf-7', Buffer.from('{"b":' + '+AFs-'.repeat(5) + '1' + '+AF0-'.repeat(5) + '}'));
    assert.equal(utf7.status, 400, JSON.stringify(utf7.body));
    assert.equal(utf7.body.error?.code, 'json_too_deep');
    // Two charsets: the parser decodes by the first, so a later utf-8 must not make the bytes count as UTF-8 text.
    const zipped = gzipSync(Buffer.from(deep, 'utf16le'));
    const both = await post(server, { 'content-type': 'application/json; charset=utf-16le; charset=utf-8', 'content-encoding': 'gzip', 'content-length': String(zipped.length) }, [zipped]);
    assert.equal(both.status, 400, JSON.stringify(both.body));
    assert.equal(both.body.error?.code, 'json_too_deep');
    const shallow = await send('utf-16le', Buffer.from('{"a":"\u4122","b":[[1]]}', 'utf16le'));
    assert.equal(shallow.status, 200);
    assert.deepEqual(shallow.body, { got: { a: '\u4122', b: [[1]] } });
  });

  it('a content encoding or charset it cannot read is 415 unsupported_media_type, with Accept-Encoding naming the encodings it can', async () => {
    const body = Buffer.from('{"text":"x"}');
    for (const headers of [{ 'content-encoding': 'x-compress' }, { 'content-encoding': 'gzip, gzip' }, { 'content-type': 'application/json; charset=latin1' }]) {
      const { port } = server.address() as AddressInfo;
      const res = await new Promise<{ status: number; acceptEncoding?: string; body: { error: { code: string; message: string } } }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/echo', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers } }, (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (part: Buffer) => parts.push(part));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 0, acceptEncoding: answer.headers['accept-encoding'], body: JSON.parse(Buffer.concat(parts).toString('utf8')) }));
        });
        req.on('error', reject);
        req.end(body);
      });
      assert.equal(res.status, 415, JSON.stringify(headers));
      assert.equal(res.body.error.code, 'unsupported_media_type');
      if ('content-encoding' in headers) assert.equal(res.acceptEncoding, 'gzip, deflate, br');
    }
  });

  it('13: a gzip body still goes through body-parser and parses', async () => {
    const zipped = gzipSync(Buffer.from('{"text":"zipped"}'));
    const res = await post(server, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(zipped.length) }, [zipped]);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { got: { text: 'zipped' } });
  });
});
