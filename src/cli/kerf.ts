#!/usr/bin/env node
// kerf accounts ...: the operator's tool for accounts, keys, plans and holds. It works on the
// data directory's database directly (KERF_DATA_DIR), or with KERF_REDIS_URL on the cluster's
// Redis, so it runs with or without the server and from any machine that reaches Redis.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import type { Account } from '../storage/accounts/store.js';
import { openStorage } from '../storage/open.js';

const USAGE = `usage: kerf accounts <command> [options]

  create --email E [--rate N] [--monthly N]   new account; prints its first API key
  list                                        accounts with plan, hold and this month's use
  keys --account A                            the account's keys (prefixes only)
  issue-key --account A [--label L]           a new API key, shown once
  revoke-key --account A --key ID             revoke a key by its id (see keys)
  allowance --account A [--monthly N] [--rate N]   set calls per month and per minute
  hold --account A | release --account A      put on hold (403 on every call) or release
  usage --account A                           this month's calls and compute seconds
  webhook --account A (--url U | --clear)     set or clear the default webhook URL
  secret --account A                          reveal the webhook signing secret
  rotate-secret --account A                   new signing secret (the old one signs for 24 h more)
  reenable-webhook --account A                re-enable a disabled endpoint and replay skipped deliveries
  login-link --account A                      a one-time sign-in link to the account page (24 h)
  set-password --account A --password P       set the account page password (10+ characters)

A is an account id or e-mail. The database is in KERF_DATA_DIR (default .data), or with
KERF_REDIS_URL (and KERF_REDIS_PREFIX) the cluster's Redis.`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const [group, command, ...rest] = argv;
  if (group !== 'accounts' || !command) throw new UsageError(USAGE);
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' }, account: { type: 'string' }, rate: { type: 'string' }, monthly: { type: 'string' },
      label: { type: 'string' }, key: { type: 'string' }, url: { type: 'string' }, clear: { type: 'boolean' }, password: { type: 'string' },
    },
  });
  const config = loadConfig();
  // With KERF_REDIS_URL accounts, keys, sessions, health, usage counters and the webhook outbox
  // are the cluster's, in Redis.
  const storage = await openStorage(config);
  const { accounts, apiKeys, sessions, health, metering, outbox } = storage;
  const count = (name: 'rate' | 'monthly') => {
    const raw = values[name];
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a whole number, got "${raw}"`);
    return n;
  };
  const target = (): Account => {
    const a = values.account;
    if (!a) throw new UsageError('--account is required');
    const account = /^\d+$/.test(a) ? accounts.get(Number(a)) : accounts.byEmail(a);
    if (!account) throw new UsageError(`no account "${a}"`);
    return account;
  };
  const out = (line: string) => process.stdout.write(`${line}\n`);
  try {
    switch (command) {
      case 'create': {
        if (!values.email || !values.email.includes('@')) throw new UsageError('--email with an e-mail address is required');
        if (accounts.byEmail(values.email)) throw new UsageError(`an account for ${values.email} exists already`);
        const account = await accounts.create(values.email, { ratePerMinute: count('rate'), monthlyCalls: count('monthly') });
        const { key } = await apiKeys.issue(account.id, values.label ?? 'first key');
        out(`account ${account.id} ${account.email}\napi key (shown once): ${key}`);
        break;
      }
      case 'list':
        for (const a of accounts.list()) {
          const usage = await metering.usage(a.id);
          out(`${a.id}\t${a.email}\trate ${a.ratePerMinute}/min\tallowance ${a.monthlyCalls}/month\tused ${usage.calls}${a.onHold ? '\tON HOLD' : ''}`);
        }
        break;
      case 'keys':
        for (const k of apiKeys.list(target().id)) {
          out(`${k.id}\t${k.prefix}…\t${k.label}\tcreated ${new Date(k.createdAt).toISOString()}${k.revokedAt ? `\trevoked ${new Date(k.revokedAt).toISOString()}` : ''}`);
        }
        break;
      case 'issue-key': {
        const { key, info } = await apiKeys.issue(target().id, values.label ?? '');
        out(`key ${info.id} (shown once): ${key}`);
        break;
      }
      case 'revoke-key': {
        const id = Number(values.key);
        if (!Number.isInteger(id)) throw new UsageError('--key with a key id is required (see: kerf accounts keys)');
        if (!await apiKeys.revoke(target().id, id)) throw new UsageError(`no active key ${values.key} on that account`);
        out(`key ${id} revoked`);
        break;
      }
      case 'allowance': {
        const account = target();
        await accounts.setPlan(account.id, { ratePerMinute: count('rate'), monthlyCalls: count('monthly') });
        const after = accounts.get(account.id)!;
        out(`account ${after.id}: ${after.monthlyCalls} calls per month, ${after.ratePerMinute} per minute`);
        break;
      }
      case 'hold':
      case 'release': {
        const account = target();
        await accounts.setHold(account.id, command === 'hold');
        out(`account ${account.id} ${command === 'hold' ? 'is on hold' : 'is released from hold'}`);
        break;
      }
      case 'usage': {
        const account = target();
        const usage = await metering.usage(account.id);
        out(`${usage.month}: ${usage.calls} of ${account.monthlyCalls} calls, ${usage.computeSeconds.toFixed(3)} compute seconds`);
        break;
      }
      case 'webhook': {
        const account = target();
        if (!values.clear && !values.url) throw new UsageError('--url or --clear is required');
        if (values.url && !/^https?:\/\/[^\s]+$/.test(values.url)) throw new UsageError(`--url must be an http or https URL, got "${values.url}"`);
        await accounts.setWebhookUrl(account.id, values.clear ? null : values.url!);
        out(values.clear ? `account ${account.id}: default webhook cleared` : `account ${account.id}: default webhook ${values.url}`);
        break;
      }
      case 'secret':
        out(target().signingSecret);
        break;
      case 'rotate-secret':
        out(await accounts.rotateSigningSecret(target().id));
        break;
      case 'reenable-webhook': {
        const account = target();
        await health.reenable(account.id);
        const replayed = await outbox.replaySkipped(account.id, Date.now());
        out(`account ${account.id}: webhook endpoint enabled; ${replayed} skipped deliveries queued again`);
        break;
      }
      case 'login-link': {
        const base = config.publicUrl ?? `http://${config.host}:${config.port}`;
        out(`${base}/account/login/link?token=${await sessions.issueLink(target().id)}`);
        break;
      }
      case 'set-password': {
        const account = target();
        if (!values.password || values.password.length < 10) throw new UsageError('--password with at least 10 characters is required');
        await sessions.setPassword(account.id, values.password);
        out(`account ${account.id}: password set`);
        break;
      }
      default:
        throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
    }
  } finally {
    await storage.close();
  }
}

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
