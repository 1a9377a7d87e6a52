// The built-in plugins: the five guardrail processors and the provider adapters, registered like a user's own.
import anthropic from '../plugins/providers/anthropic/index.js';
import azure from '../plugins/providers/azure/index.js';
import gemini from '../plugins/providers/gemini/index.js';
import openai from '../plugins/providers/openai/index.js';
import type { GatewayPlugin } from './plugins/plugin-types.js';

/** The built-in plugins, in dependency order. */
export function builtinPlugins(): GatewayPlugin[] {
  return [openai, azure, anthropic, gemini];
}
