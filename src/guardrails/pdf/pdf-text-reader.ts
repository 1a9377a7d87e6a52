// Reads PDFs' text in a small pool of worker threads, each job bounded in time, memory, pages and characters.
import { Worker } from 'node:worker_threads';
import { PDF_TEXT_WORKER_SOURCE } from './pdf-text-worker-source.js';

/** A PDF's text, or why it cannot be read whole (said as what the file is: "an encrypted PDF"). */
export type PdfReading = { text: string } | { unreadable: string };

/** The bounds of one reading. */
export interface PdfReadLimits {
  /** Largest file read, in bytes. */
  maxBytes: number;
  /** Most pages read; a file with more is not read at all. */
  maxPages: number;
  /** Most characters of text; a file with more is not read whole, so not at all. */
  maxChars: number;
  /** Heap of a worker thread, in MB: a file whose parsing needs more ends the worker. */
  maxHeapMb: number;
  /**
   * Growth of the process's resident memory while PDFs are read, in MB, past which the readings in flight end. A
   * stream's decoded bytes live outside the worker's heap, so this is what bounds a decompression bomb (200 KB of
   * PDF that inflates to 200 MB of content stream took close to 800 MB) before its time is up.
   */
  maxRssGrowthMb: number;
}

/** The bounds the gateway reads PDFs with. */
export const PDF_READ_LIMITS: Readonly<PdfReadLimits> = Object.freeze({ maxBytes: 16 * 1024 * 1024, maxPages: 100, maxChars: 1_000_000, maxHeapMb: 256, maxRssGrowthMb: 256 });

interface Job {
  data: Uint8Array;
  resolve(reading: PdfReading): void;
  timer?: NodeJS.Timeout;
  worker?: PoolWorker;
  done: boolean;
}

interface PoolWorker {
  thread: Worker;
  job?: Job;
  /** Set once the worker is being ended: it takes no other job. */
  ending?: boolean;
  /** Ends the worker once it has been idle for the reader's idle time. */
  idleTimer?: NodeJS.Timeout;
}

/** How long a worker with nothing to read is kept (pdf.js and its heap hold tens of MB) before it is ended. */
const IDLE_MS = 30_000;

/**
 * A pool of worker threads that read PDFs' text with pdf.js, off the event loop that serves requests. A reading
 * that runs past its time (a file made to be slow) ends its worker, and only its own; one that needs more memory
 * than {@link PdfReadLimits.maxHeapMb} does too. Jobs wait in a bounded queue; their time counts from when they
 * were asked for. Workers start when first needed, are reused, and never keep the process alive.
 */
export class PdfTextReader {
  private readonly idle: PoolWorker[] = [];
  private readonly queue: Job[] = [];
  private running = 0;
  /** The workers reading a file now. */
  private readonly busy = new Set<PoolWorker>();
  /** Watches resident memory while {@link busy} is not empty (see {@link PdfReadLimits.maxRssGrowthMb}). */
  private watch?: NodeJS.Timeout;
  private readonly pdfjs = import.meta.resolve('pdfjs-dist/legacy/build/pdf.mjs');

  constructor(
    private readonly limits: Readonly<PdfReadLimits> = PDF_READ_LIMITS,
    private readonly size = 2,
    private readonly maxQueued = 64,
    /** A worker idle this long is ended, so memory comes back when no PDFs arrive; the next reading starts a new one. */
    private readonly idleMs = IDLE_MS,
  ) {}

  /** The worker threads alive now (reading, idle, or being ended). */
  get threads(): number {
    return this.running;
  }

  /** Reads the text of the PDF in `data`, answering within `timeoutMs` (an unreadable reading when it cannot). */
  read(data: Uint8Array, timeoutMs: number): Promise<PdfReading> {
    if (data.byteLength > this.limits.maxBytes) return Promise.resolve({ unreadable: `a PDF of more than ${this.limits.maxBytes} bytes` });
    if (this.queue.length >= this.maxQueued) return Promise.resolve({ unreadable: 'a PDF sent while too many others were being read' });
    return new Promise((resolve) => {
      const job: Job = { data, resolve, done: false };
      job.timer = setTimeout(() => {
        this.finish(job, { unreadable: `a PDF whose text took more than ${timeoutMs} ms to read` });
        // The worker may be stuck in the file: end it (the next job gets a new one).
        if (job.worker) this.end(job.worker);
      }, timeoutMs);
      this.queue.push(job);
      this.pump();
    });
  }

  /** Ends every worker (for a gateway that closes); jobs still waiting are answered as unreadable. */
  async close(): Promise<void> {
    for (const job of this.queue.splice(0)) this.finish(job, { unreadable: 'a PDF sent while the gateway was closing' });
    const workers = [...this.idle.splice(0), ...this.busy];
    for (const worker of workers) clearTimeout(worker.idleTimer);
    await Promise.all(workers.map((worker) => worker.thread.terminate()));
  }

  /** Ends `worker` (a reading past its time or its memory); its exit takes it out of the pool. */
  private end(worker: PoolWorker): void {
    worker.ending = true;
    void worker.thread.terminate();
  }

  private finish(job: Job, reading: PdfReading): void {
    if (job.done) return;
    job.done = true;
    clearTimeout(job.timer);
    job.resolve(reading);
  }

  private pump(): void {
    while (this.queue.length > 0 && (this.idle.length > 0 || this.running < this.size)) {
      const job = this.queue.shift()!;
      if (job.done) continue;
      const worker = this.idle.pop() ?? this.spawn();
      clearTimeout(worker.idleTimer);
      worker.job = job;
      job.worker = worker;
      this.busy.add(worker);
      this.watchMemory();
      worker.thread.postMessage({ data: job.data, maxPages: this.limits.maxPages, maxChars: this.limits.maxChars });
    }
  }

  private spawn(): PoolWorker {
    const thread = new Worker(PDF_TEXT_WORKER_SOURCE, { eval: true, workerData: { pdfjs: this.pdfjs }, resourceLimits: { maxOldGenerationSizeMb: this.limits.maxHeapMb } });
    thread.unref();
    const worker: PoolWorker = { thread };
    this.running += 1;
    thread.on('message', (reading: PdfReading) => {
      const job = worker.job;
      worker.job = undefined;
      this.done(worker);
      if (job) this.finish(job, reading);
      if (!worker.ending) this.rest(worker);
      this.pump();
    });
    // An error (out of memory) or an end (a timed-out job's) leaves the pool; the job it held, if any, is unreadable.
    let gone = false;
    const leave = (): void => {
      if (gone) return;
      gone = true;
      this.running -= 1;
      clearTimeout(worker.idleTimer);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      if (worker.job) this.finish(worker.job, { unreadable: 'a PDF too large to read in the memory allowed' });
      worker.job = undefined;
      this.done(worker);
      this.pump();
    };
    thread.on('error', leave);
    thread.on('exit', leave);
    return worker;
  }

  /** Puts `worker` back in the pool, to be ended if no reading comes for it within the idle time. */
  private rest(worker: PoolWorker): void {
    this.idle.push(worker);
    worker.idleTimer = setTimeout(() => {
      if (worker.job || !this.idle.includes(worker)) return;
      this.idle.splice(this.idle.indexOf(worker), 1);
      this.end(worker);
    }, this.idleMs);
    worker.idleTimer.unref();
  }

  /** While files are read, ends the readings in flight when resident memory grows past the bound since the watch began. */
  private watchMemory(): void {
    if (this.watch) return;
    const baseline = process.memoryUsage.rss();
    const bound = baseline + this.limits.maxRssGrowthMb * 1024 * 1024;
    this.watch = setInterval(() => {
      if (this.busy.size > 0 && process.memoryUsage.rss() <= bound) return;
      for (const worker of this.busy) this.end(worker);
      // The next reading measures from where memory is then, not from this baseline.
      this.stopWatch();
    }, 25);
    this.watch.unref();
  }

  private stopWatch(): void {
    clearInterval(this.watch);
    this.watch = undefined;
  }

  /** Takes `worker` off the busy set, ending the memory watch when no reading is left. */
  private done(worker: PoolWorker): void {
    this.busy.delete(worker);
    if (this.busy.size === 0) this.stopWatch();
  }
}

let shared: PdfTextReader | undefined;

/** The process's PDF reader, made on first use. */
export function sharedPdfTextReader(): PdfTextReader {
  shared ??= new PdfTextReader();
  return shared;
}
