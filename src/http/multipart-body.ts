// multipart/form-data bodies (audio uploads), bounded and streamed: fields into req.body, the one file spooled to a temporary file.
import { createWriteStream, openAsBlob, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request, RequestHandler, Response } from 'express';
import { Errors } from '../errors/error-registry.js';
import { transferCodingError } from './transfer-coding.js';

/** Options of {@link multipartBody}. */
export interface MultipartBodyOptions {
  /** Largest file accepted, in bytes. */
  fileLimitBytes: number;
  /** The form field that holds the file. Default `file`. */
  fileField?: string;
}

/** How long a connection cut for a body past the bound goes on dropping what the client sends, after the answer. */
const LINGER_MS = 2000;

/**
 * Ends a connection whose request body runs past the bound, once the answer is out: the gateway's side closes at
 * once, while bytes still arriving are read and dropped for {@link LINGER_MS} before the socket is destroyed, so the
 * reset that unread bytes cause cannot reach the client before it has read the answer.
 */
function closeAfterAnswer(req: Request, res: Response): void {
  const close = (): void => {
    const socket = req.socket;
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
  if (res.writableFinished) close();
  else res.once('finish', close);
}

/** Bounds on everything but the file: field count, field size, parts. */
const LIMITS = { fields: 32, fieldSize: 64 * 1024, fieldNameSize: 200, parts: 40, files: 1, headerPairs: 100 };

/**
 * Reads a multipart/form-data body into `req.body`: text fields as strings (a name sent several times, or ending in
 * `[]`, as an array), and the file under `fileField` as a `File` backed by a temporary file, which is removed when the
 * answer ends. Run it after authentication: nothing is read before. 501 for a transfer coding but chunked, 415 for another content type or any content
 * encoding but `identity`, 413 when the declared length, the file or the bytes read (framing, a preamble or an epilogue
 * included) pass the limit, 400 for a second file, too many
 * or too large fields, or a malformed body.
 * The file is written to disk as it arrives (with backpressure), never held in memory.
 * @example
 * router.post('/v1/audio/transcriptions', requireDeveloperKey(keys), multipartBody({ fileLimitBytes: 25 << 20 }), handler);
 */
export function multipartBody(options: MultipartBodyOptions): RequestHandler {
  const field = options.fileField ?? 'file';
  // The declared length may exceed the file by the fields and the multipart framing.
  const declaredLimit = options.fileLimitBytes + LIMITS.fields * LIMITS.fieldSize + 64 * 1024;
  return async function parseMultipartBody(req, res, next) {
    const framing = transferCodingError(req.headers);
    if (framing) throw framing;
    if (!req.is('multipart/form-data')) throw Errors.unsupportedMediaTypeFor(['multipart/form-data', req.headers['content-type'] ?? 'none']);
    const encoding = req.headers['content-encoding'];
    // busboy reads the bytes as they come: a compressed form would only be a broken one.
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      throw Errors.unsupportedContentEncoding([JSON.stringify(encoding.slice(0, 100)), 'identity'], { headers: { 'accept-encoding': 'identity' } });
    }
    if (Number(req.headers['content-length'] ?? 0) > declaredLimit) throw Errors.bodyTooLarge([String(options.fileLimitBytes)]);
    const dir = await mkdtemp(join(tmpdir(), 'gateway-upload-'));
    const removeDir = (): void => void rm(dir, { recursive: true, force: true });
    // A client gone while the directory was made has had its 'close' already (it never comes again): nothing would
    // remove the directory, and the form would wait for bytes and an end that never come.
    if (res.closed || req.destroyed) {
      removeDir();
      throw Errors.validation(['The upload was cut off before its end.']);
    }
    res.once('close', removeDir);
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { ...LIMITS, fileSize: options.fileLimitBytes } });
    } catch (error) {
      throw Errors.validation([`The multipart body cannot be read: ${(error as Error).message}.`], { cause: error });
    }
    // No prototype: a field named `toString`, `constructor` or `__proto__` is a field like any other.
    const fields: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
    let file: { path: string; filename: string; mimeType: string } | undefined;
    let target: WriteStream | undefined;
    const writes: Array<Promise<unknown>> = [];
    // Bytes read so far, the rest of a refused upload included. A form within the limits never passes the declared-length
    // bound; bytes past it (before the first boundary, after the last, or of an upload already refused) end the reading.
    let received = 0;
    let overflowed = false;
    const done = new Promise<void>((resolve, reject) => {
      const fail = (error: unknown): void => {
        req.unpipe(parser);
        // The rest is read and dropped: a client still sending would otherwise never read the answer.
        req.resume();
        // Closes the temporary file if its part is still being written: with no more bytes to come it would stay
        // open, holding a descriptor and the removed file's disk space, for as long as the process runs.
        target?.destroy();
        reject(error);
      };
      // busboy passes a part whose Content-Disposition has no `name` with an undefined name (its types say string).
      const unnamed = (name: string | undefined): boolean => typeof name !== 'string';
      const unnamedPart = (): void => fail(Errors.validation(['Every part of the form needs a name (Content-Disposition: form-data; name="...").']));
      parser.on('field', (name, value, info) => {
        if (unnamed(name)) return unnamedPart();
        if (info.valueTruncated || info.nameTruncated) return fail(Errors.validation([`The form field ${JSON.stringify(name.slice(0, 100))} is longer than ${LIMITS.fieldSize} bytes.`], { param: name.slice(0, 100) }));
        const key = name.endsWith('[]') ? name.slice(0, -2) : name;
        const previous = fields[key];
        if (previous === undefined) fields[key] = name.endsWith('[]') ? [value] : value;
        else fields[key] = [...(Array.isArray(previous) ? previous : [previous]), value];
      });
      parser.on('file', (name, stream, info) => {
        if (unnamed(name)) {
          stream.resume();
          return unnamedPart();
        }
        if (name !== field || file) {
          stream.resume();
          return fail(Errors.validation([file ? 'Only one file may be sent.' : `The file must be sent in the form field ${field}.`], { param: name.slice(0, 100) }));
        }
        file = { path: join(dir, 'upload'), filename: info.filename || 'upload', mimeType: info.mimeType };
        stream.once('limit', () => fail(Errors.bodyTooLarge([String(options.fileLimitBytes)])));
        target = createWriteStream(file.path);
        writes.push(pipeline(stream, target).then(() => undefined, (error: unknown) => (fail(error), error ?? new Error('write failed'))));
      });
      parser.on('fieldsLimit', () => fail(Errors.validation([`A form may hold at most ${LIMITS.fields} fields.`])));
      parser.on('partsLimit', () => fail(Errors.validation([`A form may hold at most ${LIMITS.parts} parts.`])));
      parser.on('filesLimit', () => fail(Errors.validation(['Only one file may be sent.'])));
      parser.on('error', (error: Error) => fail(Errors.validation([`The multipart body cannot be read: ${error.message}.`], { cause: error })));
      parser.on('close', () => resolve());
      // The request stream fails only when its connection does (Node's `aborted`): the client's doing, not the gateway's.
      req.on('error', (error: Error) => fail(Errors.validation(['The upload was cut off before its end.'], { cause: error })));
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received <= declaredLimit || overflowed) return;
        overflowed = true;
        closeAfterAnswer(req, res);
        fail(Errors.bodyTooLarge([String(options.fileLimitBytes)]));
      });
      // A client that goes away mid-upload: no more bytes, and no end, will come.
      req.once('close', () => {
        if (!req.complete) fail(Errors.validation(['The upload was cut off before its end.']));
      });
    });
    req.pipe(parser);
    await done;
    const failed = (await Promise.all(writes)).find((error) => error !== undefined);
    if (failed) throw failed;
    if (!file) throw Errors.validation([`The form field ${field} (the file) is required.`], { param: field });
    const blob = await openAsBlob(file.path, { type: file.mimeType });
    req.body = { ...fields, [field]: new File([blob], file.filename, { type: file.mimeType }) };
    next();
  };
}
