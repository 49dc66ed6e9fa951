// The account page under /account: sign in (password or one-time link), then keys, signing
// secret, default webhook and its health, usage, the delivery log, and the latest jobs, each
// result opening in a viewer with its exports (/account/jobs/:id). Sessions live in an
// HttpOnly SameSite=Strict cookie; every form carries the session's CSRF token.
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loginPage, overviewPage, type OverviewModel } from '../../accounts/page.js';
import { jobStatePage, resultPage } from '../../accounts/result-page.js';
import { parseRecord } from '../../exports/index.js';
import { RECENT_JOBS } from '../../storage/jobs/store.js';
import { SESSION_TTL_MS, type Session } from '../../storage/sessions/store.js';
import { ApiError } from '../errors.js';
import type { FamilyOptions } from '../services.js';
import { exportQuery, sendExport } from './export.js';

const SESSION_COOKIE = 'kerf_session';
const LOGIN_COOKIE = 'kerf_login';
const WEEK_MS = 7 * 24 * 3600 * 1000;

function cookies(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at).trim()] = decodeURIComponent(part.slice(at + 1).trim());
  }
  return out;
}

const sameToken = (a: string | undefined, b: string | undefined) =>
  !!a && !!b && a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

function form(request: FastifyRequest): Record<string, string> {
  return (request.body ?? {}) as Record<string, string>;
}

export async function accountRoutes(app: FastifyInstance, { services }: FamilyOptions) {
  const { accounts, sessions, metering, outbox, health, deliverer, jobs } = services;
  const secure = (services.config.publicUrl ?? '').startsWith('https:') ? '; Secure' : '';
  const cookie = (name: string, value: string, maxAgeMs: number) =>
    `${name}=${encodeURIComponent(value)}; Path=/account; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(maxAgeMs / 1000)}${secure}`;

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('x-frame-options', 'DENY');
    reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
    reply.header('referrer-policy', 'no-referrer');
  });

  const html = (reply: FastifyReply, page: string, status = 200) => reply.code(status).type('text/html; charset=utf-8').send(page);

  const showLogin = (reply: FastifyReply, status = 200, error?: string, email?: string) => {
    const csrf = crypto.randomBytes(24).toString('base64url');
    reply.header('set-cookie', cookie(LOGIN_COOKIE, csrf, 3_600_000));
    return html(reply, loginPage({ csrf, error, email }), status);
  };

  const signIn = async (reply: FastifyReply, accountId: number) => {
    const { token } = await sessions.open(accountId);
    reply.header('set-cookie', [cookie(SESSION_COOKIE, token, SESSION_TTL_MS), cookie(LOGIN_COOKIE, '', 0)]);
    return reply.redirect('/account', 303);
  };

  /** The signed-in session, or a redirect to the sign-in page. */
  const session = async (request: FastifyRequest): Promise<Session | undefined> => sessions.get(cookies(request)[SESSION_COOKIE]);

  /** For every state-changing form: a session and its CSRF token, or 403. */
  const guarded = async (request: FastifyRequest): Promise<Session> => {
    const s = await session(request);
    if (!s) throw new ApiError(403, 'Not signed in: sign in again on /account/login');
    if (!sameToken(form(request).csrf, s.csrf)) throw new ApiError(403, 'The form is stale or forged (CSRF token mismatch); reload the page');
    return s;
  };

  /** The session's account (403 when it no longer exists). */
  const accountOf = async (s: Session) => {
    // Over Redis an account created moments ago on another node may not be in this node's copy yet.
    if (!accounts.get(s.accountId)) await accounts.refresh();
    const account = accounts.get(s.accountId);
    if (!account) throw new ApiError(403, 'The account of this session no longer exists; sign in again on /account/login');
    return account;
  };

  const overview = async (s: Session, extra: Partial<OverviewModel> = {}) => {
    const account = await accountOf(s);
    const now = Date.now();
    return overviewPage({
      account, csrf: s.csrf, now, usage: await metering.usage(account.id, now), keys: accounts.keys(account.id),
      health: await health.state(account.id), deliveries: await outbox.log(account.id, now - WEEK_MS), jobs: await jobs.recent(account.id, RECENT_JOBS, now), ...extra,
    });
  };

  const FLASH: Record<string, string> = {
    revoked: 'The key is revoked.', rotated: 'A new signing secret is in use; the previous one keeps signing for 24 hours.',
    webhook: 'The default webhook is saved.', cleared: 'The default webhook is cleared.', reenabled: 'The endpoint is enabled again; skipped deliveries are on their way.',
    redelivered: 'The delivery is queued again.', password: 'Your password is set.',
  };

  app.get('/account', async (request, reply) => {
    const s = await session(request);
    if (!s) return reply.redirect('/account/login', 303);
    const done = (request.query as Record<string, string>).done;
    return html(reply, await overview(s, { flash: FLASH[done] }));
  });

  /** The session's job `id` (404 when it is not the account's, like the API). */
  const accountJob = async (request: FastifyRequest, s: Session) => {
    const raw = (request.params as { id: string }).id;
    const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
    const job = Number.isSafeInteger(id) ? await jobs.get(id, s.accountId) : undefined;
    if (!job) throw new ApiError(404, `No job ${raw} on this account`, { jobId: raw });
    return job;
  };

  app.get('/account/jobs/:id', async (request, reply) => {
    const s = await session(request);
    if (!s) return reply.redirect('/account/login', 303);
    const job = await accountJob(request, s);
    if (job.state !== 'done' || job.result === null) return html(reply, jobStatePage(job), job.state === 'expired' ? 410 : job.state === 'failed' ? 422 : 200);
    return html(reply, resultPage(job, parseRecord(job.result)));
  });

  app.get('/account/jobs/:id/export', async (request, reply) => {
    const s = await session(request);
    if (!s) throw new ApiError(403, 'Not signed in: sign in again on /account/login');
    const job = await accountJob(request, s);
    const { format, option } = exportQuery({ ...(request.query as object), id: String(job.id) });
    return sendExport(reply, job.id, job, format, option);
  });

  app.get('/account/login', async (request, reply) => ((await session(request)) ? reply.redirect('/account', 303) : showLogin(reply)));

  app.post('/account/login', async (request, reply) => {
    const { email = '', password = '', csrf } = form(request);
    if (!sameToken(csrf, cookies(request)[LOGIN_COOKIE])) return showLogin(reply, 403, 'The sign-in form expired; please try again.', email);
    const accountId = await sessions.checkPassword(email.trim(), password);
    if (accountId === undefined) return showLogin(reply, 401, 'Wrong e-mail or password.', email);
    return signIn(reply, accountId);
  });

  app.get('/account/login/link', async (request, reply) => {
    const token = (request.query as Record<string, string>).token ?? '';
    const accountId = await sessions.useLink(token);
    if (accountId === undefined) return showLogin(reply, 401, 'That sign-in link is unknown, used or expired; ask for a new one.');
    return signIn(reply, accountId);
  });

  app.post('/account/logout', async (request, reply) => {
    await guarded(request);
    await sessions.close(cookies(request)[SESSION_COOKIE]);
    reply.header('set-cookie', cookie(SESSION_COOKIE, '', 0));
    return reply.redirect('/account/login', 303);
  });

  app.post('/account/keys', async (request, reply) => {
    const s = await guarded(request);
    const label = (form(request).label ?? '').trim().slice(0, 60);
    const { key } = await accounts.issueKey(s.accountId, label);
    return html(reply, await overview(s, { shownOnce: { label: 'Your new API key (copy it now: it is not shown again)', value: key } }));
  });

  app.post('/account/keys/:id/revoke', async (request, reply) => {
    const s = await guarded(request);
    if (!await accounts.revokeKey(s.accountId, Number((request.params as { id: string }).id))) throw new ApiError(404, 'No such active key');
    return reply.redirect('/account?done=revoked', 303);
  });

  app.post('/account/secret/reveal', async (request, reply) => {
    const s = await guarded(request);
    return html(reply, await overview(s, { shownOnce: { label: 'Signing secret', value: (await accountOf(s)).signingSecret } }));
  });

  app.post('/account/secret/rotate', async (request, reply) => {
    const s = await guarded(request);
    await accounts.rotateSigningSecret(s.accountId);
    return reply.redirect('/account?done=rotated', 303);
  });

  app.post('/account/webhook', async (request, reply) => {
    const s = await guarded(request);
    const url = (form(request).url ?? '').trim();
    if (url && !/^https?:\/\/\S+$/.test(url)) throw new ApiError(400, 'The webhook URL must be an http or https URL', { field: 'url' });
    await accounts.setWebhookUrl(s.accountId, url || null);
    return reply.redirect(`/account?done=${url ? 'webhook' : 'cleared'}`, 303);
  });

  app.post('/account/webhook/reenable', async (request, reply) => {
    const s = await guarded(request);
    await health.reenable(s.accountId);
    await outbox.replaySkipped(s.accountId, Date.now());
    deliverer.wake();
    return reply.redirect('/account?done=reenabled', 303);
  });

  app.post('/account/deliveries/:id/redeliver', async (request, reply) => {
    const s = await guarded(request);
    if (!await outbox.redeliver((request.params as { id: string }).id, s.accountId, Date.now())) throw new ApiError(404, 'No such finished delivery');
    deliverer.wake();
    return reply.redirect('/account?done=redelivered', 303);
  });

  app.post('/account/password', async (request, reply) => {
    const s = await guarded(request);
    const password = form(request).password ?? '';
    if (password.length < 10) throw new ApiError(400, 'The password needs at least 10 characters', { field: 'password' });
    await sessions.setPassword(s.accountId, password);
    return reply.redirect('/account?done=password', 303);
  });
}
