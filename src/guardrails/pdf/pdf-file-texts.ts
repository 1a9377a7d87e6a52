// Reads the text of the PDFs a request carries inline, for input checks, and remembers each file's reading.
import { Errors } from '../../errors/error-registry.js';
import { chatContentParts, type CheckedRequest } from '../pipeline/content-parts.js';
import { sharedPdfTextReader, type PdfTextReader } from './pdf-text-reader.js';

/** The head of a PDF sent inline: a base64 `data:application/pdf` URL. */
const PDF_DATA_URL = /^data:application\/pdf(?:;[\w.+-]+=[\w.+-]+)*;base64,/i;

/** Most PDFs read in one request; the others are not read. */
export const MAX_PDFS_PER_REQUEST = 16;

/** A file's reading: its text (`undefined` when it could not be read, and `unreadable` says why), and whether a transform asked to change it. */
export interface PdfFileReading {
  text?: string;
  unreadable?: string;
  /** Set when a check's transform (a DLP mask) would change the text: a PDF cannot be rewritten, so the request is refused. */
  rewritten: boolean;
}

/** Each file object (a chat `file` part's `file`) whose PDF was read, and its reading. */
const readings = new WeakMap<object, PdfFileReading>();

/** True for a `file_data` that is a PDF sent inline. */
export function isPdfData(data: unknown): data is string {
  return typeof data === 'string' && PDF_DATA_URL.test(data);
}

/** The reading of a `file` part's file, when {@link readPdfFiles} read it (or tried to). */
export function pdfReadingOf(file: unknown): PdfFileReading | undefined {
  return file !== null && typeof file === 'object' ? readings.get(file) : undefined;
}

/** The `file` objects of a chat request's parts that hold a PDF inline, with where the client sent each. */
function pdfFiles(request: CheckedRequest): Array<{ file: Record<string, unknown>; param: string }> {
  if (request.endpoint !== 'chat') return [];
  return chatContentParts(request.body).flatMap(({ part, param }) => {
    const file = (part as { file?: unknown } | null)?.file;
    if ((part as { type?: unknown } | null)?.type !== 'file' || file === null || typeof file !== 'object') return [];
    return isPdfData((file as { file_data?: unknown }).file_data) ? [{ file: file as Record<string, unknown>, param }] : [];
  });
}

/**
 * Reads the text of each PDF the request carries inline (a chat `file` part's `file_data`; a `/v1/messages` PDF
 * document and a `/v1/responses` `input_file` arrive as one), each within `timeoutMs`, and remembers the readings for
 * the input checks' slots (see message-text) and the unreadable-content rule. At most {@link MAX_PDFS_PER_REQUEST}
 * are read; a file that cannot be read whole (too large, too many pages or characters, encrypted, broken, too slow)
 * has no text and says why.
 */
export async function readPdfFiles(request: CheckedRequest, timeoutMs: number, reader: PdfTextReader = sharedPdfTextReader()): Promise<void> {
  await Promise.all(
    pdfFiles(request).map(async ({ file }, index) => {
      if (readings.has(file)) return;
      const reading: PdfFileReading = { rewritten: false };
      readings.set(file, reading);
      if (index >= MAX_PDFS_PER_REQUEST) {
        reading.unreadable = `a PDF past the first ${MAX_PDFS_PER_REQUEST} of the request`;
        return;
      }
      const data = file.file_data as string;
      const bytes = Buffer.from(data.slice(data.indexOf(',') + 1), 'base64');
      const result = await reader.read(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), timeoutMs);
      if ('text' in result) reading.text = result.text;
      else reading.unreadable = result.unreadable;
    }),
  );
}

/**
 * Throws 400 `invalid_value` naming the first PDF of the request whose text a check's transform (a DLP mask, redact or
 * replace) would have changed: the gateway cannot rewrite a PDF, and sending it as it is would hand the provider
 * what the policy masks.
 */
export function refuseRewrittenPdfs(request: CheckedRequest): void {
  for (const { file, param } of pdfFiles(request)) {
    if (pdfReadingOf(file)?.rewritten) {
      throw Errors.validation([`The part '${param}' is a PDF whose text the input guardrail policy rewrites (a DLP transform), and the gateway cannot rewrite a PDF; send its text instead.`], { param });
    }
  }
}
