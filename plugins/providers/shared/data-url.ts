// Reads `data:` URLs (inline images), for adapters and the gateway's own translations; it imports nothing.

/** The parts of a `data:` URL (`data:image/png;base64,…`), or undefined for any other URL. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match ? { mediaType: match[1] as string, data: match[2] as string } : undefined;
}
