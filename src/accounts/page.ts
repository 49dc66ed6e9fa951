// The account page's HTML: plain server-rendered forms, no script. Every value is escaped.
import type { JobSummary } from '../storage/jobs/store.js';
import type { Account } from '../storage/accounts/store.js';
import type { ApiKeyInfo } from '../storage/api-keys/store.js';
import type { Usage } from '../storage/metering/store.js';
import type { EndpointHealthState } from '../storage/health/store.js';
import type { AttemptRecord, Delivery } from '../storage/outbox/store.js';

export const esc = (value: unknown) =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
export const when = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC');
const hours = (ms: number) => `${(ms / 3_600_000).toFixed(1)} h`;

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #eee;font-size:14px}
form.inline{display:inline}code,.secret{font-family:ui-monospace,monospace;background:#f4f4f4;padding:.1rem .3rem;word-break:break-all}
.flash{background:#eef7ee;border:1px solid #9c9;padding:.6rem}.error{background:#fbeeee;border:1px solid #c99;padding:.6rem}
.bad{color:#a00}.ok{color:#070}input[type=text],input[type=url],input[type=email],input[type=password]{width:22rem}`;

/** A page in the account's look; `extraStyle` adds rules (the result viewer's). */
export function layout(title: string, body: string, extraStyle = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${esc(title)}</title><style>${STYLE}${extraStyle}</style></head><body>${body}</body></html>`;
}

export function loginPage(options: { csrf: string; error?: string; email?: string }): string {
  return layout('Sign in - kerf', `<h1>Sign in to kerf</h1>
${options.error ? `<p class="error" role="alert">${esc(options.error)}</p>` : ''}
<form method="post" action="/account/login">
<input type="hidden" name="csrf" value="${esc(options.csrf)}">
<p><label>E-mail<br><input type="email" name="email" required value="${esc(options.email)}"></label></p>
<p><label>Password<br><input type="password" name="password" required></label></p>
<p><button type="submit">Sign in</button></p>
</form>
<p>No password yet? Ask for a one-time sign-in link: <code>kerf accounts login-link --account you@example.com</code>.</p>`);
}

export interface OverviewModel {
  account: Account;
  csrf: string;
  usage: Usage;
  keys: ApiKeyInfo[];
  health: EndpointHealthState;
  deliveries: (Delivery & { attemptLog: AttemptRecord[] })[];
  /** The account's latest jobs, newest first. */
  jobs: JobSummary[];
  now: number;
  flash?: string;
  /** Shown once: a key just created, or the secret just revealed. */
  shownOnce?: { label: string; value: string };
}

export function overviewPage(m: OverviewModel): string {
  const form = (action: string, button: string, extra = '') =>
    `<form class="inline" method="post" action="${esc(action)}"><input type="hidden" name="csrf" value="${esc(m.csrf)}">${extra}<button type="submit">${esc(button)}</button></form>`;
  const { account, usage, health } = m;
  const share = account.monthlyCalls > 0 ? Math.round((usage.calls / account.monthlyCalls) * 100) : 0;
  const endpoint = health.disabledAt !== null
    ? `<p class="bad" id="webhook-health">Disabled since ${when(health.disabledAt)}: deliveries are recorded as skipped. ${form('/account/webhook/reenable', 'Re-enable and send skipped deliveries')}</p>`
    : health.failingSince !== null
      ? `<p class="bad" id="webhook-health">Failing since ${when(health.failingSince)} (${hours(m.now - health.failingSince)} on the failure clock${health.warnedAt ? `; warning e-mailed ${when(health.warnedAt)}` : ''}).</p>`
      : `<p class="ok" id="webhook-health">Healthy${account.webhookUrl ? '' : ' (no default URL set)'}.</p>`;
  const overlap = account.previousSecret && (account.previousSecretUntil ?? 0) > m.now
    ? `<p>The previous secret also signs deliveries until ${when(account.previousSecretUntil)}.</p>` : '';
  return layout('Account - kerf', `<h1>kerf account: ${esc(account.email)}</h1>
${form('/account/logout', 'Sign out')}
${m.flash ? `<p class="flash" role="status">${esc(m.flash)}</p>` : ''}
${m.shownOnce ? `<p class="flash" role="status">${esc(m.shownOnce.label)}: <span class="secret" id="shown-once">${esc(m.shownOnce.value)}</span></p>` : ''}

<h2>This month (${esc(usage.month)})</h2>
<p id="usage"><span id="calls">${usage.calls}</span> of <span id="allowance">${account.monthlyCalls}</span> calls (${share} %),
<span id="compute">${usage.computeSeconds.toFixed(3)}</span> compute seconds; rate limit ${account.ratePerMinute} calls per minute${account.onHold ? '; <strong class="bad">the account is on hold</strong>' : ''}.</p>

<h2>Recent jobs</h2>
<table id="jobs"><tr><th>Job</th><th>Submitted</th><th>State</th><th></th></tr>
${m.jobs.map((j) => `<tr data-job-id="${j.id}"><td>${j.id}</td><td>${when(j.createdAt)}</td><td class="state">${esc(j.state)}</td>
<td>${j.state === 'done' ? `<a href="/account/jobs/${j.id}">View result</a>` : ''}</td></tr>`).join('\n') || '<tr><td colspan="4">No jobs yet.</td></tr>'}
</table>

<h2>API keys</h2>
<table id="keys"><tr><th>Key</th><th>Label</th><th>Created</th><th></th></tr>
${m.keys.map((k) => `<tr data-key-id="${k.id}"><td><code>${esc(k.prefix)}…</code></td><td>${esc(k.label)}</td><td>${when(k.createdAt)}</td>
<td>${k.revokedAt ? `revoked ${when(k.revokedAt)}` : form(`/account/keys/${k.id}/revoke`, 'Revoke')}</td></tr>`).join('\n')}
</table>
<form method="post" action="/account/keys"><input type="hidden" name="csrf" value="${esc(m.csrf)}">
<label>Label <input type="text" name="label" maxlength="60"></label> <button type="submit">Create key</button></form>

<h2>Webhook signing secret</h2>
<p>Deliveries carry <code>X-Service-Signature: t=…,v1=…</code>, an HMAC-SHA256 of <code>&lt;t&gt;.&lt;body&gt;</code> with this secret.</p>
${form('/account/secret/reveal', 'Reveal secret')} ${form('/account/secret/rotate', 'Rotate secret')}
${overlap}

<h2>Default webhook</h2>
<form method="post" action="/account/webhook"><input type="hidden" name="csrf" value="${esc(m.csrf)}">
<label>URL <input type="url" name="url" value="${esc(account.webhookUrl)}" placeholder="https://example.com/kerf-hook"></label>
<button type="submit">Save</button> <small>(empty clears it)</small></form>
${endpoint}

<h2>Deliveries, last 7 days</h2>
<table id="deliveries"><tr><th>Created</th><th>Event</th><th>Job</th><th>URL</th><th>Status</th><th>Attempts</th><th>Last answer</th><th></th></tr>
${m.deliveries.map((d) => `<tr data-delivery-id="${esc(d.id)}"><td>${when(d.createdAt)}</td><td>${esc(d.event)}</td><td>${d.jobId}</td><td>${esc(d.url)}</td>
<td class="state">${esc(d.state)}</td><td>${d.attempts}</td><td>${d.lastStatus ?? esc(d.lastError ?? '')}</td>
<td>${d.state === 'pending' ? '' : form(`/account/deliveries/${d.id}/redeliver`, 'Redeliver')}</td></tr>`).join('\n') || '<tr><td colspan="8">No deliveries.</td></tr>'}
</table>

<h2>Password</h2>
<form method="post" action="/account/password"><input type="hidden" name="csrf" value="${esc(m.csrf)}">
<label>New password <input type="password" name="password" minlength="10" required></label> <button type="submit">Set password</button></form>`);
}
