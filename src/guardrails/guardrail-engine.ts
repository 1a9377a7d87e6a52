// Holds the registered guardrail processors, compiles their option schemas once, and evaluates text with merged options.
import type { GuardrailObserver } from '../observability/guardrail-observer.js';
import { Errors } from '../errors/error-registry.js';
import type { GuardrailInput, GuardrailLookup, GuardrailOutcome, GuardrailPlugin } from '../plugins/plugin-types.js';
import { compileValidator, type Validator } from '../validation/schema-validator.js';

/** Options of one evaluation. */
export interface EvaluateOptions {
  /** Processor options from a policy entry; `enabled` and `threshold` are taken out. */
  options?: Record<string, unknown>;
  /** Threshold override, for example the request's `config.threshold`. */
  threshold?: number;
  /** The whole input, when it carries more than the text (for example a filename). */
  input?: GuardrailInput;
  signal?: AbortSignal;
}

interface RegisteredGuardrail {
  plugin: GuardrailPlugin<object, unknown>;
  validateOptions: Validator<Record<string, unknown>>;
}

const ACCEPT_ANY_OPTIONS = { type: 'object' };

/**
 * The guardrail processors known to one gateway. Built-in and user processors go through the same path.
 * @example
 * const engine = new GuardrailEngine();
 * await engine.add(myGuardrail);
 * const outcome = await engine.evaluate('my_guardrail', 'some text');
 */
export class GuardrailEngine implements GuardrailLookup {
  private readonly processors = new Map<string, RegisteredGuardrail>();
  /** Told of every check the pipeline runs (metrics and spans); set by the gateway when observability is on. */
  observer?: GuardrailObserver;

  /**
   * Compiles the plugin's option schema, then runs its `setup()` once. A plugin without `evaluate()` or
   * `defaultThreshold`, or with a schema ajv cannot compile, throws `plugin_invalid` at once (not as a rejection);
   * the promise settles when `setup()` has run.
   */
  add(plugin: GuardrailPlugin<object, unknown>): Promise<void> {
    if (typeof plugin.evaluate !== 'function') throw Errors.pluginInvalid([`guardrail ${plugin.name} has no evaluate()`]);
    if (typeof plugin.defaultThreshold !== 'number') throw Errors.pluginInvalid([`guardrail ${plugin.name} has no defaultThreshold`]);
    let validateOptions: Validator<Record<string, unknown>>;
    try {
      validateOptions = compileValidator<Record<string, unknown>>(plugin.optionsSchema ?? ACCEPT_ANY_OPTIONS);
    } catch (error) {
      throw Errors.pluginInvalid([`the optionsSchema of guardrail ${plugin.name} cannot be compiled: ${(error as Error).message}`]);
    }
    return (async () => {
      await plugin.setup?.();
      this.processors.set(plugin.name, { plugin, validateOptions });
    })();
  }

  /** True when a processor of that name is registered. */
  has(name: string): boolean {
    return this.processors.has(name);
  }

  /** The names of every registered processor, in registration order. */
  names(): string[] {
    return [...this.processors.keys()];
  }

  /** The plugin registered under `name`, if any. */
  get(name: string): GuardrailPlugin<object, unknown> | undefined {
    return this.processors.get(name)?.plugin;
  }

  /**
   * Validates processor options (as a policy stores them) and fills their defaults.
   * Throws a 400 whose `param` is prefixed with `paramPrefix`.
   */
  resolveOptions(name: string, options: Record<string, unknown> = {}, paramPrefix = ''): Record<string, unknown> {
    const registered = this.require(name);
    const { enabled: _enabled, threshold: _threshold, ...own } = options;
    return registered.validateOptions(copyOptions(own), paramPrefix);
  }

  /** Evaluates `text` with the processor `name`. */
  async evaluate(name: string, text: string, evaluateOptions: EvaluateOptions = {}): Promise<GuardrailOutcome> {
    const registered = this.require(name);
    const options = this.resolveOptions(name, evaluateOptions.options);
    const policyThreshold = evaluateOptions.options?.threshold;
    const threshold =
      evaluateOptions.threshold ?? (typeof policyThreshold === 'number' ? policyThreshold : registered.plugin.defaultThreshold);
    return registered.plugin.evaluate(text, {
      options,
      threshold,
      input: evaluateOptions.input ?? { text },
      guardrails: this,
      signal: evaluateOptions.signal,
    });
  }

  private require(name: string): RegisteredGuardrail {
    const registered = this.processors.get(name);
    if (!registered) {
      throw Errors.notFound(['guardrail processor', name], { details: { processors: this.names() } });
    }
    return registered;
  }
}

/** Deepest nesting copied by hand; deeper (or odd) options go through structuredClone. */
const MAX_COPY_DEPTH = 16;

/**
 * A copy of processor options for ajv's defaults to fill, so the caller's object is never changed. Options are JSON
 * (plain objects, arrays, primitives), and copying those by hand costs a fraction of structuredClone's fixed price,
 * paid on every evaluation; anything else (a class instance, a `__proto__` key, deep nesting) takes structuredClone.
 */
function copyOptions(options: Record<string, unknown>): Record<string, unknown> {
  return (copyJson(options, 0) ?? structuredClone(options)) as Record<string, unknown>;
}

/** `value` copied when it is plain JSON data within MAX_COPY_DEPTH; undefined when it is not. */
function copyJson(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_COPY_DEPTH) return undefined;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (const item of value) {
      const copied = copyJson(item, depth + 1);
      if (copied === undefined && item !== undefined) return undefined;
      copy.push(copied);
    }
    return copy;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return undefined;
    const item = (value as Record<string, unknown>)[key];
    const copied = copyJson(item, depth + 1);
    if (copied === undefined && item !== undefined) return undefined;
    copy[key] = copied;
  }
  return copy;
}
