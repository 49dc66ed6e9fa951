// The OpenAPI document as integrators use it: the committed copy is what the server serves,
// third-party validators accept it, openapi-typescript (default settings) makes the committed
// client types from it, and a client program built on those types compiles under
// `tsc --strict` and runs the README's requests. Refresh the committed copies with
// `npx vitest run test/integration/openapi.test.ts -u` (after `make build`).
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_EXAMPLES } from '../../src/schema/examples.js';
import { call } from '../support/client.js';
import { contractOf } from '../support/contract.js';
import { DEV_KEY, ROOT, startServer, type KerfServer } from '../support/server.js';

const run = promisify(execFile);
let server: KerfServer;
let document: any;
let text: string;
let work: string;

beforeAll(async () => {
  server = await startServer();
  const reply = await call(`${server.url}/openapi.json`);
  expect(reply.status).toBe(200);
  document = reply.json;
  text = `${JSON.stringify(document, null, 2)}\n`;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-openapi-'));
  fs.writeFileSync(path.join(work, 'openapi.json'), text);
});
afterAll(async () => {
  await server?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

let generated: Promise<string> | undefined;
/** openapi-typescript's command line at its default settings, on the served document. */
function generatedTypes(): Promise<string> {
  const out = path.join(work, 'schema.d.ts');
  generated ??= run(path.join(ROOT, 'node_modules/.bin/openapi-typescript'), [path.join(work, 'openapi.json'), '-o', out], { cwd: work })
    .then(() => fs.readFileSync(out, 'utf8'));
  return generated;
}

describe('the served OpenAPI document', () => {
  it('is the committed docs/openapi.json', async () => {
    await expect(text).toMatchFileSnapshot('../../docs/openapi.json');
  });

  it('passes @apidevtools/swagger-parser validation', async () => {
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeDefined();
  });

  it('has no problem under redocly\'s recommended rules', async () => {
    // The request schema accepts unknown fields (the specification says so); the example rule
    // is told, or it would close every object and fault the README examples for it.
    const config = await createConfig({ extends: ['recommended'], rules: { 'no-invalid-media-type-examples': { severity: 'warn', allowAdditionalProperties: true } } });
    const problems = await lintFromString({ source: text, absoluteRef: path.join(work, 'openapi.json'), config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('compiles with ajv in strict mode, and the README requests are its valid examples', () => {
    const contract = contractOf(document);
    const examples = document.paths['/v3/calculate'].post.requestBody.content['application/json'].examples;
    expect(Object.keys(examples)).toEqual(Object.keys(REQUEST_EXAMPLES));
    for (const [name, example] of Object.entries<any>(examples)) {
      expect(example.value).toEqual(REQUEST_EXAMPLES[name as keyof typeof REQUEST_EXAMPLES].value);
      expect(contract.requestErrors('submitCalculation', { body: example.value })).toEqual([]);
    }
  });

  it('names every operation, tags it, and says when to retry a 429', () => {
    const operations = [...Object.values<any>(document.paths), ...Object.values<any>(document.webhooks)].flatMap((item) => Object.values<any>(item));
    expect(operations.map((op) => op.operationId).sort()).toEqual(
      ['analyseModel', 'exportResult', 'getResult', 'getResultReady', 'jobCompleted', 'jobFailed', 'submitCalculation']);
    for (const op of operations) {
      expect(op.tags?.length, op.operationId).toBeGreaterThan(0);
      if (op.responses['429']) expect(op.responses['429'].headers['Retry-After'].schema.type).toBe('integer');
    }
    expect(document.info.license.name).toBeTruthy();
    expect(document.paths['/v3/result'].get.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
  });

  it('documents both webhook events with their five headers and bodies', () => {
    for (const [event, body] of [['job.completed', 'ResultResponse'], ['job.failed', 'JobFailedEvent']]) {
      const hook = document.webhooks[event].post;
      expect(hook.parameters.map((p: any) => p.name)).toEqual(['X-Service-Event', 'X-Service-Delivery', 'X-Service-Attempt', 'X-Service-Timestamp', 'X-Service-Signature']);
      expect(hook.parameters[0].schema.const).toBe(event);
      expect(hook.requestBody.content['application/json'].schema.$ref).toBe(`#/components/schemas/${body}`);
    }
  });

  it('carries no schema default, which generated types would turn into required fields', () => {
    const defaults: string[] = [];
    const visit = (value: unknown, at: string) => {
      if (!value || typeof value !== 'object') return;
      for (const [key, child] of Object.entries(value)) {
        // "default" also names a catch-all response and a server variable's value; only a schema's keyword counts.
        if (key === 'default' && !at.endsWith('/responses') && !at.includes('/variables/')) defaults.push(at);
        visit(child, `${at}/${key}`);
      }
    };
    visit(document, '#');
    expect(defaults).toEqual([]);
  });
});

describe('a client generated from it', () => {
  it('openapi-typescript at its default settings makes the committed src/client/schema.d.ts', async () => {
    await expect(await generatedTypes()).toMatchFileSnapshot('../../src/client/schema.d.ts');
  });

  it('the typed client and its example program compile with tsc --strict against freshly generated types', async () => {
    const project = path.join(work, 'project');
    fs.mkdirSync(path.join(project, 'src/client'), { recursive: true });
    fs.mkdirSync(path.join(project, 'src/schema'), { recursive: true });
    // As .ts, so that the generated types are checked too (skipLibCheck skips declaration files).
    fs.writeFileSync(path.join(project, 'src/client/schema.ts'), await generatedTypes());
    for (const file of ['client/client.ts', 'client/example.ts', 'client/receiver.ts', 'client/example-receiver.ts', 'schema/examples.ts']) {
      fs.copyFileSync(path.join(ROOT, 'src', file), path.join(project, 'src', file));
    }
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2023', module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, types: ['node'], skipLibCheck: true },
      include: ['src/**/*.ts'],
    }));
    const tsc = path.join(ROOT, 'node_modules/.bin/tsc');
    await expect(run(tsc, ['--strict', '-p', project], { cwd: project })).resolves.toBeDefined();
  });

  it('the example program submits the README requests, polls and reads each result', async () => {
    const { stdout } = await run(process.execPath, [path.join(ROOT, 'dist/src/client/example.js'), server.url, DEV_KEY], {
      env: { ...process.env, KERF_POLL_MS: '50' },
    });
    expect(stdout).toMatch(/^sheet: job \d+: 1 stock pieces, 8 of 8 parts placed/m);
    expect(stdout).toMatch(/^linear: job \d+: \d+ stock pieces, 14 of 14 parts placed/m);
    expect(stdout).toMatch(/^nesting: job \d+: \d+ stock pieces, 14 of 14 parts placed/m);
  });
});
