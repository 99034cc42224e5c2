// One action of an official TypeScript MCP client against a Streamable HTTP endpoint. The action is a JSON object
// (clients/action.schema.json), given as the first argument or on stdin; the program prints one JSON object on
// stdout saying what the client surfaced. A JSON array of actions is run in order in this one process, each
// with a client of its own, one outcome per line.
//
// The action's `mode` picks the client, both pinned in package.json: `legacy` (the default) is the 1.x
// @modelcontextprotocol/sdk, which negotiates 2025-11-25 at most and so always opens a legacy session;
// `2026-07-28` is the 2.x @modelcontextprotocol/client pinned to that revision (no fallback to `initialize`).
//
// Exit codes: 0 an outcome was observed and printed; 2 the action is not valid; 3 the server could not be
// reached or did not answer in time; 4 this program failed in a way it did not foresee.
import { readFileSync } from 'node:fs';

import * as modern from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020Module from 'ajv/dist/2020.js';

const here = (relative) => new URL(relative, import.meta.url);
const versionOf = (sdk) => JSON.parse(readFileSync(here(`node_modules/${sdk}/package.json`))).version;
// Each mode: the SDK, and how it makes a client and a transport. The 2.x client negotiates nothing unless
// asked to; pinned, it sends `server/discover` at 2026-07-28 and fails rather than fall back to a session.
const MODES = {
  legacy: {
    sdk: '@modelcontextprotocol/sdk',
    client: (info) => new LegacyClient(info),
    transport: (url, options) => new LegacyTransport(url, options),
  },
  '2026-07-28': {
    sdk: '@modelcontextprotocol/client',
    client: (info) => new modern.Client(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
    transport: (url, options) => new modern.StreamableHTTPClientTransport(url, options),
  },
};
const ACTION_SCHEMA = JSON.parse(readFileSync(here('action.schema.json')));
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const MAX_TEXT = 500;

class BadAction extends Error {}
class Unreachable extends Error {}

function fail(code, message) {
  process.stderr.write(`ts_client: ${message}\n`);
  process.exit(code);
}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// The action format is clients/action.schema.json, shared with the Python runner.
function checkAction(action) {
  const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
  const validate = new Ajv2020({ allErrors: false }).compile(ACTION_SCHEMA);
  if (validate(action)) {
    if ('mode' in action && !(action.mode in MODES)) {
      throw new BadAction(`'mode' ${action.mode} is a mode of the Python runner only (here: ${Object.keys(MODES).join(', ')})`);
    }
    return;
  }
  const [error] = validate.errors;
  const where = error.instancePath ? `'${error.instancePath.slice(1).replaceAll('/', '.')}'` : 'the action';
  const allowed = error.params?.allowedValues ? ` (${error.params.allowedValues.join(', ')})` : '';
  const extra = error.params?.additionalProperty ? ` ('${error.params.additionalProperty}')` : '';
  throw new BadAction(`${where} ${error.message}${allowed}${extra}`);
}

function readAction() {
  const source = process.argv[2] && process.argv[2] !== '-' ? process.argv[2] : readFileSync(0, 'utf8');
  try {
    return JSON.parse(source);
  } catch (error) {
    throw new BadAction(`the action is not valid JSON: ${error.message}`);
  }
}

// RFC 7386 JSON merge patch: objects merge key by key, null deletes, anything else replaces.
function mergePatch(target, patch) {
  if (!isObject(patch)) return patch;
  const result = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

// A fetch that counts what the client posts and plays a proxy that rewrites one method's requests.
function watchingFetch(rewrite, log) {
  return async (url, init = {}) => {
    let body = init.body;
    const message = typeof body === 'string' ? safeParse(body) : undefined;
    const method = isObject(message) ? message.method : undefined;
    if ((init.method ?? 'GET') === 'POST') log.sent.push(method ?? '?');
    if (rewrite && method === rewrite.method) {
      const headers = new Headers(init.headers);
      for (const [name, value] of Object.entries(rewrite.headers ?? {})) headers.set(name, value);
      if ('raw' in rewrite) body = rewrite.raw;
      else if ('body' in rewrite) body = JSON.stringify(mergePatch(message, rewrite.body));
      init = { ...init, headers, body };
    }
    try {
      return await fetch(url, init);
    } catch (error) {
      if (UNREACHABLE.has(error?.cause?.code)) log.unreachable = `${error.cause.code} for ${url}`;
      throw error;
    }
  };
}

function safeParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// The methods in order, a run of the same method written once as `method xN`.
function compressed(methods) {
  const runs = [];
  for (const method of methods) {
    if (runs.length && runs.at(-1)[0] === method) runs.at(-1)[1] += 1;
    else runs.push([method, 1]);
  }
  return runs.map(([method, count]) => (count === 1 ? method : `${method} x${count}`));
}

function clip(text) {
  return text.length > MAX_TEXT ? { text: text.slice(0, MAX_TEXT), truncated: true } : { text };
}

function textOf(items) {
  return items.filter((item) => typeof item?.text === 'string').map((item) => item.text).join('\n');
}

const PERFORM = {
  list_tools: async (c) => ({ isError: false, tools: (await c.listTools()).tools.map((t) => t.name) }),
  list_resources: async (c) => ({ isError: false, resources: (await c.listResources()).resources.map((r) => r.uri) }),
  list_prompts: async (c) => ({ isError: false, prompts: (await c.listPrompts()).prompts.map((p) => p.name) }),
  ping: async (c) => (await c.ping(), { isError: false }),
  call_tool: async (c, a) => {
    const result = await c.callTool({ name: a.name, arguments: a.arguments ?? {} });
    return { isError: result.isError === true, ...clip(textOf(result.content ?? [])) };
  },
  read_resource: async (c, a) => ({ isError: false, ...clip(textOf((await c.readResource({ uri: a.uri })).contents)) }),
  get_prompt: async (c, a) => {
    const result = await c.getPrompt({ name: a.name, arguments: a.arguments ?? {} });
    return { isError: false, ...clip(textOf(result.messages.map((m) => m.content))) };
  },
  complete: async (c, a) => ({
    isError: false, values: (await c.complete({ ref: a.ref, argument: a.argument })).completion.values,
  }),
};

const ACTION_METHODS = {
  list_tools: 'tools/list', list_resources: 'resources/list', list_prompts: 'prompts/list', ping: 'ping',
  call_tool: 'tools/call', read_resource: 'resources/read', get_prompt: 'prompts/get', complete: 'completion/complete',
};

// The 2.x client's own errors carry a word as their code; an HTTP failure carries the status beside it.
function describeError(error) {
  const code = Number.isInteger(error?.code) ? error.code : null;
  const message = String(error?.message ?? error).replace(/\s+/g, ' ').trim();
  const status = Number.isInteger(error?.status) ? { status: error.status } : {};
  return { class: error?.constructor?.name ?? typeof error, code, ...status, message };
}

async function observe(action, log) {
  const mode = action.mode ?? 'legacy';
  const { sdk, client: makeClient, transport: makeTransport } = MODES[mode];
  const transport = makeTransport(new URL(action.url), {
    requestInit: { headers: action.headers ?? {} },
    fetch: watchingFetch(action.rewrite, log),
  });
  const client = makeClient({ name: 'docgen-ts-client', version: '0.1.0' });
  const meta = { client: { sdk, version: versionOf(sdk) }, mode };
  try {
    await client.connect(transport);
  } catch (error) {
    if (log.unreachable) throw new Unreachable(log.unreachable);
    const observed = { outcome: 'exception', ...describeError(error), phase: 'connect', ...meta };
    return { ...observed, requests: log.sent.length, sent: compressed(log.sent) };
  }
  const context = { ...meta, protocolVersion: transport.protocolVersion ?? null };
  const repeat = action.repeat ?? 1;
  let observed;
  for (let call = 1; call <= repeat; call += 1) {
    const before = log.sent.length;
    try {
      observed = { outcome: 'result', ...(await PERFORM[action.action](client, action)), call };
    } catch (error) {
      if (log.unreachable) throw new Unreachable(log.unreachable);
      const reached = log.sent.slice(before).includes(ACTION_METHODS[action.action]);
      observed = reached
        ? { outcome: 'exception', ...describeError(error), phase: 'action', call }
        : { outcome: 'cannot-send', why: describeError(error).message, class: describeError(error).class, call };
      break;
    }
  }
  await client.close().catch(() => {});
  return { ...observed, ...context, requests: log.sent.length, sent: compressed(log.sent) };
}

function readActions() {
  const given = readAction();
  const batch = Array.isArray(given);
  (batch ? given : [given]).forEach((action, index) => {
    try {
      checkAction(action);
    } catch (error) {
      if (batch && error instanceof BadAction) throw new BadAction(`action ${index + 1}: ${error.message}`);
      throw error;
    }
  });
  return batch ? given : [given];
}

async function runOne(action) {
  const seconds = action.timeout_seconds ?? 30;
  const timer = setTimeout(() => fail(3, `no answer from ${action.url} within ${seconds} s`), seconds * 1000);
  const log = { sent: [], unreachable: null };
  try {
    const observed = await observe(action, log);
    process.stdout.write(`${JSON.stringify(observed)}\n`);
  } catch (error) {
    if (error instanceof Unreachable) fail(3, `cannot reach the server: ${error.message}`);
    fail(4, `unexpected failure: ${describeError(error).class}: ${describeError(error).message}`);
  }
  clearTimeout(timer);
}

async function main() {
  let actions;
  try {
    actions = readActions();
  } catch (error) {
    if (error instanceof BadAction) fail(2, `bad action: ${error.message}`);
    throw error;
  }
  for (const action of actions) await runOne(action);
  process.exit(0);
}

main().catch((error) => fail(4, `unexpected failure: ${describeError(error).class}: ${describeError(error).message}`));
