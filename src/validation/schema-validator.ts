// The one ajv instance and compile-once validators that turn ajv errors into coded 400 errors naming the field.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Errors, type GatewayError } from '../errors/error-registry.js';
import type { JsonSchema } from '../plugins/plugin-types.js';
import { HEADER_SAFE_TEXT_PATTERN, HEADER_SAFE_TEXT_WORDS } from './header-safe-text.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** A new ajv instance with the formats the schemas use; `allErrors` reports every error instead of the first. */
export function createAjv(options: { useDefaults: boolean; allErrors: boolean }): Ajv {
  return addFormats(new Ajv({ ...options, coerceTypes: false, strict: false }));
}

/** The shared ajv instance: defaults applied, no type coercion, all schemas compiled once. */
export const ajv = createAjv({ useDefaults: true, allErrors: false });

/** Validates a value in place (filling defaults) and throws a 400 naming the first bad field. */
export type Validator<T> = (value: unknown, paramPrefix?: string) => T;

/** The longest name of a field shown in a `param` (and its message); a longer one, a key the client chose, is cut. */
export const MAX_SHOWN_FIELD_NAME = 100;

/**
 * Turns an ajv error path such as `/models/0/name` into `models[0].name`. A key the client sent (an unknown field, a
 * key of a free-form object) may be as long as the body: each name is cut to {@link MAX_SHOWN_FIELD_NAME} characters.
 */
export function toParam(error: ErrorObject, prefix: string): string {
  const parts = error.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required' || error.keyword === 'dependencies') parts.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') parts.push(String(error.params.additionalProperty));
  let param = prefix;
  for (const whole of parts) {
    const part = whole.length > MAX_SHOWN_FIELD_NAME ? `${whole.slice(0, MAX_SHOWN_FIELD_NAME)}…` : whole;
    param += /^\d+$/.test(part) ? `[${part}]` : param === '' ? part : `.${part}`;
  }
  return param;
}

/** Describes an ajv error in plain words, naming the field `param`. */
export function describeError(error: ErrorObject, param: string): string {
  const field = param === '' ? 'The body' : `The field '${param}'`;
  switch (error.keyword) {
    case 'required':
      return `${field} is required.`;
    case 'dependencies':
      return `${field} is required when '${String(error.params.property)}' is given.`;
    case 'additionalProperties':
      return `${field} is not a known field.`;
    case 'type':
      return `${field} must be of type ${String(error.params.type)}.`;
    case 'pattern':
      if (error.params.pattern === HEADER_SAFE_TEXT_PATTERN) return `${field} ${HEADER_SAFE_TEXT_WORDS}.`;
      return `${field} ${error.message ?? 'is not valid'}.`;
    case 'enum':
      return `${field} must be one of: ${(error.params.allowedValues as unknown[]).map(String).join(', ')}.`;
    default:
      return `${field} ${error.message ?? 'is not valid'}.`;
  }
}

/** Converts the first ajv error into a coded 400 error. */
export function validationError(errors: ErrorObject[] | null | undefined, prefix = ''): GatewayError {
  const first = errors?.[0];
  if (!first) return Errors.validation(['The body is not valid.']);
  const param = toParam(first, prefix);
  return Errors.validation([describeError(first, param)], { param: param === '' ? null : param });
}

/**
 * Compiles a schema once and returns a validator that fills defaults and throws a 400 on failure.
 * @example
 * const validateRoute = compileValidator<Route>(routeSchema);
 * const route = validateRoute(req.body);
 */
export function compileValidator<T>(schema: JsonSchema): Validator<T> {
  const validate: ValidateFunction = ajv.compile(schema);
  return function validateAgainstSchema(value: unknown, paramPrefix = ''): T {
    if (!validate(value)) throw validationError(validate.errors, paramPrefix);
    return value as T;
  };
}
