// Writes small, valid PDF files for tests that send PDFs: pages of text (Helvetica), and a decompression bomb.
import { createDeflate } from 'node:zlib';

/** Escapes a string for a PDF literal string. */
const literal = (text: string): string => text.replace(/[\\()]/g, (c) => `\\${c}`);

/** A PDF whose pages show `pages` (one text per page, on one line each), as bytes. */
export function minimalPdf(pages: string[]): Buffer {
  const objects: string[] = [];
  const pageCount = pages.length;
  // 1: catalog, 2: page tree, 3: font, then per page: the page and its content stream.
  const pageIds = pages.map((_, index) => 4 + index * 2);
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageCount} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  pages.forEach((text, index) => {
    const stream = `BT /F1 12 Tf 40 700 Td (${literal(text)}) Tj ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[index]! + 1} 0 R >>`);
    objects.push(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
  });
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** Deflates `megabytes` MB of spaces without holding them: each megabyte is written as it is compressed. */
function deflatedSpaces(megabytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const deflate = createDeflate({ level: 9 });
    const out: Buffer[] = [];
    deflate.on('data', (chunk: Buffer) => out.push(chunk));
    deflate.on('end', () => resolve(Buffer.concat(out)));
    deflate.on('error', reject);
    const megabyte = Buffer.alloc(1024 * 1024, 0x20);
    let written = 0;
    const write = (): void => {
      while (written < megabytes) {
        written += 1;
        if (!deflate.write(megabyte)) {
          deflate.once('drain', write);
          return;
        }
      }
      deflate.end();
    };
    write();
  });
}

/** A one-page PDF whose content stream is about 1 KB per MB it inflates to (`megabytes` MB of spaces): a decompression bomb. */
export async function inflatingPdf(megabytes: number): Promise<Buffer> {
  const stream = await deflatedSpaces(megabytes);
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  const add = (chunk: Buffer): void => {
    parts.push(chunk);
    length += chunk.length;
  };
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>'];
  objects.forEach((object, index) => {
    offsets.push(length);
    add(Buffer.from(`${index + 1} 0 obj\n${object}\nendobj\n`, 'latin1'));
  });
  offsets.push(length);
  add(Buffer.from(`4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'));
  add(stream);
  add(Buffer.from('\nendstream\nendobj\n', 'latin1'));
  const xref = length;
  add(Buffer.from(`xref\n0 5\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}
