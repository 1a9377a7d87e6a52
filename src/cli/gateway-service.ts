#!/usr/bin/env node
// The gateway-service command: `start --config gateway.yaml` runs the gateway server from a config file; `validate gateway.yaml` checks one.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { readGatewayConfig, type ConfigProblem } from './config-file.js';
import { startServer } from './start-command.js';
import { summary, validateConfigFile } from './validate-command.js';

const USAGE = `Usage:
  gateway-service start --config <gateway.yaml>   run the gateway server configured by the file
  gateway-service validate <gateway.yaml>         check the file, print every problem with its path
  gateway-service --version                       print the version of the installed package
  gateway-service --help`;

function fail(file: string, problems: ConfigProblem[]): never {
  for (const problem of problems) console.error(`${file}: ${problem.message}`);
  console.error(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  process.exit(1);
}

function usageError(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

const OPTIONS = { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } } as const;

/** The version in the package's own package.json: the nearest one above this file named gateway-service (src/ or dist/src/). */
async function packageVersion(): Promise<string> {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    const manifest = await readFile(join(dir, 'package.json'), 'utf8').then((text) => JSON.parse(text) as { name?: string; version?: string }, () => undefined);
    if (manifest?.name === 'gateway-service' && manifest.version) return manifest.version;
    if (dirname(dir) === dir) return 'unknown';
  }
}

function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    return usageError((error as Error).message);
  }
}

async function main(argv: string[]): Promise<void> {
  const parsed = parseCommandLine(argv);
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.version) {
    console.log(await packageVersion());
    return;
  }
  if (parsed.values.help || command === 'help') {
    console.log(USAGE);
    return;
  }
  if (command === 'validate') {
    const file = parsed.values.config ?? rest[0];
    if (!file || rest.length > 1) usageError('validate takes one config file.');
    const result = await readGatewayConfig(file);
    const problems = await validateConfigFile(result, file);
    if (problems.length > 0 || !result.ok) fail(file, problems);
    console.log(`${file}: valid (${summary(result)})`);
    return;
  }
  if (command === 'start') {
    const file = parsed.values.config;
    if (!file || rest.length > 0) usageError('start takes --config <file>.');
    const result = await readGatewayConfig(file);
    const problems = await validateConfigFile(result, file);
    if (problems.length > 0 || !result.ok) fail(file, problems);
    await startServer(result.config, file);
    return;
  }
  usageError(command ? `Unknown command: ${command}.` : 'No command given.');
}

await main(process.argv.slice(2));
