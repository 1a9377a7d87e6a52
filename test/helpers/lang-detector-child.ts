// Child process for the lang_detector loading test: reports whether the model is in memory after start and after one use.
import { languageModelLoaded } from '../../plugins/guardrails/lang-detector/index.js';
import { createGateway } from '../../src/index.js';

const gateway = createGateway({ preloadModels: process.argv[2] === 'preload' });
await gateway.ready;
const atStart = languageModelLoaded();
await gateway.guardrailEngine.evaluate('lang_detector', 'Selamat pagi, apa kabar hari ini?');
process.stdout.write(JSON.stringify({ atStart, afterUse: languageModelLoaded() }));
await gateway.close();
