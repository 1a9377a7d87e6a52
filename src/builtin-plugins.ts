// The built-in plugins: the guardrail processors (the spec's five and security_filters) and the provider adapters, registered like a user's own.
import dlpCloud from '../plugins/guardrails/dlp-cloud/index.js';
import langDetector, { createLangDetector } from '../plugins/guardrails/lang-detector/index.js';
import modelSanitizer from '../plugins/guardrails/model-sanitizer/index.js';
import promptInjectionDetection, { preloadedPromptInjectionDetection } from '../plugins/guardrails/prompt-injection-detection/index.js';
import securityFilters from '../plugins/guardrails/security-filters/index.js';
import toolInjectionDetection, { createToolInjectionDetection } from '../plugins/guardrails/tool-injection-detection/index.js';
import trustSafety from '../plugins/guardrails/trust-safety/index.js';
import anthropic from '../plugins/providers/anthropic/index.js';
import azure from '../plugins/providers/azure/index.js';
import gemini from '../plugins/providers/gemini/index.js';
import openai from '../plugins/providers/openai/index.js';
import type { GatewayPlugin } from './plugins/plugin-types.js';

/** The built-in plugins, in dependency order. `preloadModels` loads the lang_detector, promptinjectiondetection and toolinjectiondetection models at start instead of at first use. */
export function builtinPlugins(options: { preloadModels?: boolean } = {}): GatewayPlugin[] {
  return [options.preloadModels ? preloadedPromptInjectionDetection : promptInjectionDetection, trustSafety, options.preloadModels ? createLangDetector({ preload: true }) : langDetector, dlpCloud, modelSanitizer, securityFilters, options.preloadModels ? createToolInjectionDetection({ preload: true }) : toolInjectionDetection, openai, azure, anthropic, gemini];
}
