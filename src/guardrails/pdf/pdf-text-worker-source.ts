// The code of the worker thread that reads a PDF's text with pdf.js, apart from the event loop that serves requests.

/**
 * The worker's source, run with `eval`: plain JavaScript, so it runs the same from the TypeScript sources and the
 * build. It loads pdf.js (its URL in `workerData.pdfjs`) once, then answers each `{ data, maxPages, maxChars }`
 * message with `{ text }`, or `{ unreadable }` saying why the file's text cannot be read whole (encrypted,
 * broken, more pages or characters than the bounds). Scripts, fonts and other fetches are turned off.
 */
export const PDF_TEXT_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const loading = import(workerData.pdfjs);
async function read(data, maxPages, maxChars) {
  const pdfjs = await loading;
  const task = pdfjs.getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, disableAutoFetch: true, disableStream: true, stopAtErrors: true, verbosity: 0 });
  let document;
  try {
    document = await task.promise;
  } catch (error) {
    return { unreadable: error && error.name === 'PasswordException' ? 'an encrypted PDF' : 'a PDF that could not be parsed' };
  }
  try {
    if (document.numPages > maxPages) return { unreadable: 'a PDF of more than ' + maxPages + ' pages' };
    const texts = [];
    let length = 0;
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const text = content.items.map((item) => (typeof item.str === 'string' ? item.str + (item.hasEOL ? '\\n' : '') : '')).join('');
      length += text.length + 1;
      if (length > maxChars) return { unreadable: 'a PDF of more than ' + maxChars + ' characters of text' };
      texts.push(text);
      page.cleanup();
    }
    return { text: texts.join('\\n') };
  } catch (error) {
    return { unreadable: 'a PDF that could not be parsed' };
  } finally {
    await task.destroy();
  }
}
parentPort.on('message', (job) => {
  read(job.data, job.maxPages, job.maxChars).then(
    (answer) => parentPort.postMessage(answer),
    () => parentPort.postMessage({ unreadable: 'a PDF that could not be parsed' }),
  );
});
`;
