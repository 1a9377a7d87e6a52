// Child process for the heap growth test: applies GATEWAY_HEAP_GROWING_PERCENT as the example server does, then prints the heap's peak under a steady stream of garbage that outlives the young generation.
import { applyHeapGrowing, heapGrowingPercent } from '../../examples/heap-growth.js';

applyHeapGrowing(heapGrowingPercent(process.env.GATEWAY_HEAP_GROWING_PERCENT));
const live: Array<{ index: number; text: string }> = [];
for (let index = 0; index < 200_000; index++) live.push({ index, text: `live ${index}` });
// Each object stays referenced for 300,000 allocations: it is promoted, then dies in the old generation.
const ring: unknown[] = new Array(300_000);
let peak = 0;
for (let index = 0; index < 3_000_000; index++) {
  ring[index % ring.length] = { numbers: [index, index + 1], text: `garbage ${index}` };
  if (index % 10_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
}
console.log(JSON.stringify({ peakHeapMb: peak / 1024 / 1024, live: live.length }));
