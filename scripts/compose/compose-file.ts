// Reads docker-compose.yml and the Dockerfiles it names the way `docker compose` would, without a
// Docker engine: YAML, variable interpolation with the defaults, the files each image receives.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';

export const repoRoot = path.resolve(__dirname, '..', '..');

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile?: string };
  env_file?: string | string[];
  environment?: Record<string, string | number | boolean | null>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string };
  profiles?: string[];
  volumes?: string[];
  deploy?: { replicas?: number };
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** Parses YAML strictly: duplicate keys and syntax errors throw. */
export function parseCompose(text: string): ComposeFile {
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  if (document.errors.length > 0) throw document.errors[0];
  return document.toJS() as ComposeFile;
}

/**
 * Compose's interpolation with an empty shell environment: `${NAME:-default}` and
 * `${NAME-default}` give the default, `$$` is a literal dollar; anything else unset is an error.
 */
export function interpolate(value: string): string {
  return value.replace(
    /\$\$|\$\{(\w+)(?:(:?-)([^}]*))?\}|\$(\w+)/g,
    (match, braced, op, fallback, bare) => {
      if (match === '$$') return '$';
      if (op !== undefined) return fallback as string;
      throw new Error(`${String(braced ?? bare)} has no default in ${value}`);
    },
  );
}

/** The files a service's `env_file` names, relative to the repository root. */
export function envFiles(service: ComposeService): string[] {
  const files = service.env_file ?? [];
  return typeof files === 'string' ? [files] : files;
}

/**
 * An env file as Compose reads it: `NAME=value` lines, `#` comments and blank lines skipped,
 * one pair of surrounding quotes removed. Anything else is an error rather than a guess.
 */
export function parseEnvFile(text: string): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!match) throw new Error(`line ${index + 1} is not NAME=value: ${line}`);
    const value = match[2]!.trim();
    variables[match[1]!] = /^(['"]).*\1$/.test(value) ? value.slice(1, -1) : value;
  }
  return variables;
}

/** The variables a service receives from its env files (later files win, as in Compose). */
export function envFileVariables(service: ComposeService): Record<string, string> {
  return Object.assign(
    {},
    ...envFiles(service).map((file) => parseEnvFile(readText(path.resolve(repoRoot, file)))),
  ) as Record<string, string>;
}

/**
 * A service's environment as its process would see it (strings, interpolated): its env files,
 * then `environment`, which wins where both set a variable.
 */
export function serviceEnvironment(service: ComposeService): Record<string, string> {
  return {
    ...envFileVariables(service),
    ...Object.fromEntries(
      Object.entries(service.environment ?? {}).map(([name, value]) => [
        name,
        interpolate(String(value ?? '')),
      ]),
    ),
  };
}

/** `"3000:3000"` -> { published: 3000, target: 3000 }. */
export function portMappings(service: ComposeService): { published: number; target: number }[] {
  return (service.ports ?? []).map((port) => {
    const match = /^(?:[\d.]+:)?(\d+):(\d+)(?:\/tcp)?$/.exec(interpolate(String(port)));
    if (!match) throw new Error(`cannot read the port mapping "${port}"`);
    return { published: Number(match[1]), target: Number(match[2]) };
  });
}

export function healthcheckCommand(service: ComposeService): string {
  const test = service.healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : (test ?? '');
}

interface Instruction {
  keyword: string;
  args: string;
}

/** A Dockerfile's instructions, continuation lines joined, comments dropped. */
export function dockerfileInstructions(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const full = `${pending}${line}`.trim();
    pending = '';
    const space = full.search(/\s/);
    instructions.push({ keyword: full.slice(0, space).toUpperCase(), args: full.slice(space + 1) });
  }
  return instructions;
}

/** The instructions of the image's last stage (what actually runs). */
export function finalStage(instructions: Instruction[]): Instruction[] {
  const lastFrom = instructions.map((i) => i.keyword).lastIndexOf('FROM');
  return instructions.slice(lastFrom);
}

/** Context-relative sources of COPY/ADD instructions that copy from the build context. */
export function copiedSources(instructions: Instruction[]): string[] {
  return instructions
    .filter((i) => (i.keyword === 'COPY' || i.keyword === 'ADD') && !/--from=/.test(i.args))
    .flatMap((i) => {
      const words = i.args.split(/\s+/).filter((word) => !word.startsWith('--'));
      return words.slice(0, -1);
    });
}

export function listFiles(target: string): string[] {
  const info = statSync(target);
  if (info.isFile()) return [target];
  return readdirSync(target)
    .filter((name) => !['node_modules', 'dist', 'test-results', 'playwright-report'].includes(name))
    .flatMap((name) => listFiles(path.join(target, name)));
}

/** The instructions of the stage named `name` (`FROM ... AS name`). */
function namedStage(instructions: Instruction[], name: string): Instruction[] {
  const start = instructions.findIndex(
    (i) => i.keyword === 'FROM' && new RegExp(`\\s+AS\\s+${escape(name)}$`, 'i').test(i.args),
  );
  if (start < 0) throw new Error(`no build stage named ${name}`);
  const end = instructions.findIndex((i, index) => index > start && i.keyword === 'FROM');
  return instructions.slice(start, end < 0 ? undefined : end);
}

/**
 * Every file of the repository whose code a service's running image holds: what its last
 * stage copies, and for what it copies from a build stage (`COPY --from=build .../dist`), the
 * sources that stage copied and compiled.
 */
export function runtimeSourceFiles(contextDir: string, dockerfileText: string): string[] {
  const instructions = dockerfileInstructions(dockerfileText);
  const final = finalStage(instructions);
  const stages = final
    .filter((i) => i.keyword === 'COPY')
    .map((i) => /--from=(\S+)/.exec(i.args)?.[1])
    .filter((stage): stage is string => stage !== undefined);
  return [...new Set(stages)]
    .flatMap((stage) => copiedSources(namedStage(instructions, stage)))
    .concat(copiedSources(final))
    .filter((source) => !source.endsWith('package.json') && !source.endsWith('package-lock.json'))
    .flatMap((source) => listFiles(path.join(contextDir, source)));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether `source` reads the environment variable `name`: `process.env.NAME`, a quoted 'NAME'
 * handed to a config reader, `${NAME}` / `$NAME` in a shell script or an nginx template, or a
 * template literal that builds the name (`RATE_LIMIT_${rule}_MAX` with 'LOGIN').
 */
export function readsVariable(source: string, name: string): boolean {
  const direct = new RegExp(
    `(?:process\\.env\\.|env\\.)${name}\\b|['"\`]${name}['"\`]|\\$\\{${name}(?:[}:?-])|\\$${name}\\b`,
  );
  if (direct.test(source)) return true;
  const parts = name.split('_');
  for (let start = 0; start < parts.length; start++) {
    for (let end = start + 1; end <= parts.length; end++) {
      const before = parts.slice(0, start).join('_');
      const after = parts.slice(end).join('_');
      const built = new RegExp(
        `${escape(before ? `${before}_` : '')}\\$\\{\\w+\\}${escape(after ? `_${after}` : '')}`,
      );
      const piece = parts.slice(start, end).join('_');
      if (built.test(source) && new RegExp(`['"]${piece}['"]`).test(source)) return true;
    }
  }
  return false;
}

export function readText(file: string): string {
  return readFileSync(file, 'utf8');
}
