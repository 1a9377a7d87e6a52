// Reads a gateway.yaml file: YAML (JSON is YAML too) parsed with `yaml`, `${ENV_VAR}` references resolved, checked against the admin API's schemas.
import { readFile } from 'node:fs/promises';
import type { ErrorObject } from 'ajv';
import { parseDocument } from 'yaml';
import { createAjv, describeError, toParam } from '../validation/schema-validator.js';
import { gatewayConfigSchema, type GatewayConfig } from './config-schema.js';
import { duplicateNameProblems } from './duplicate-names.js';
import { resolveEnvReferences } from './env-references.js';

/** The largest config file read, in bytes. */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

const validateConfig = createAjv({ useDefaults: false, allErrors: true }).compile(gatewayConfigSchema);

/** One problem in a config file, with the path of the field it is about (empty for the whole file). */
export interface ConfigProblem {
  path: string;
  message: string;
}

/** The outcome of reading a config file: the config when it has no problem; else the problems, and the parsed value when there is one (for the checks that can still run). */
export type ConfigResult = { ok: true; config: GatewayConfig } | { ok: false; problems: ConfigProblem[]; value?: unknown };

/** Problems of an `anyOf` are reported once, at its own path, rather than once per branch. */
function schemaProblems(errors: ErrorObject[]): ConfigProblem[] {
  const anyOfPaths = new Set(errors.filter((error) => error.keyword === 'anyOf').map((error) => error.instancePath));
  const seen = new Set<string>();
  const problems: ConfigProblem[] = [];
  for (const error of errors) {
    if (error.keyword !== 'anyOf' && anyOfPaths.has(error.instancePath)) continue;
    const path = toParam(error, '');
    const message = error.keyword === 'anyOf' ? `The field '${path}' must be a port number.` : describeError(error, path).replace("The body", 'The file');
    if (seen.has(message)) continue;
    seen.add(message);
    problems.push({ path, message });
  }
  return problems;
}

/**
 * Parses and checks config text; `env` fills `${NAME}` references.
 * @example
 * const result = parseGatewayConfig(await readFile('gateway.yaml', 'utf8'), process.env);
 * if (!result.ok) for (const p of result.problems) console.error(p.message);
 */
export function parseGatewayConfig(text: string, env: NodeJS.ProcessEnv): ConfigResult {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    // Later syntax errors mostly follow from the first: report that one.
    const first = document.errors[0]?.message.split('\n')[0]?.replace(/:$/, '');
    return { ok: false, problems: [{ path: '', message: `YAML: ${first}.` }] };
  }
  const parsed: unknown = document.toJS({ maxAliasCount: 100 }) ?? {};
  const { value, missing } = resolveEnvReferences(parsed, env);
  const problems: ConfigProblem[] = missing.map(({ path, name }) => ({
    path,
    message: `The field '${path}' refers to the environment variable ${name}, which is not set.`,
  }));
  // A missing variable's empty stand-in would also fail its schema: name the variable only.
  const unset = new Set(missing.map(({ path }) => path));
  if (!validateConfig(value)) problems.push(...schemaProblems(validateConfig.errors ?? []).filter((problem) => !unset.has(problem.path)));
  problems.push(...duplicateNameProblems(value));
  return problems.length > 0 ? { ok: false, problems, value } : { ok: true, config: value as GatewayConfig };
}

/** Reads, parses and checks the config file at `file`; an unreadable or oversized file is one problem. */
export async function readGatewayConfig(file: string, env: NodeJS.ProcessEnv = process.env): Promise<ConfigResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { ok: false, problems: [{ path: '', message: `The file cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.` }] };
  }
  if (Buffer.byteLength(text) > MAX_CONFIG_BYTES) return { ok: false, problems: [{ path: '', message: `The file is larger than ${MAX_CONFIG_BYTES} bytes.` }] };
  return parseGatewayConfig(text, env);
}
