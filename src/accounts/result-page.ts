// The result viewer, opened from the account page's job list: every pattern's diagram (the
// SVG export's drawing, inline), zoom, the totals, the parts and the parts left out, and a
// link for every export. Served under the account page's session and CSP: no script, so the
// zoom is radio buttons and CSS, and the exports are plain links the session authorises.
import { FORMATS, formatNames } from '../exports/index.js';
import { fmt, partRows, type ExportRecord } from '../exports/model.js';
import { patternTitle, sheetSvgs } from '../exports/svg.js';
import type { JobSummary } from '../storage/jobs/store.js';
import { esc, layout } from './page.js';

const ZOOMS = [1, 2, 4];

const STYLE = `body{max-width:96rem}.totals{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:.2rem 1rem}
.totals div{display:flex;justify-content:space-between;border-bottom:1px solid #eee}.totals span{color:#555}
.exports a{display:inline-block;margin:.2rem .4rem .2rem 0;padding:.3rem .7rem;border:1px solid #888;border-radius:4px;color:#222;text-decoration:none;background:#f6f6f6}
.zoom input{position:absolute;opacity:0}.zoom label{display:inline-block;padding:.2rem .6rem;border:1px solid #888;cursor:pointer;margin-right:.3rem}
.pattern{overflow:auto;border:1px solid #ddd;margin:.5rem 0 1.5rem}.pattern svg{display:block;width:100%;height:auto}
${ZOOMS.map((z) => `#zoom-${z}:checked~.patterns svg{width:${z * 100}%}#zoom-${z}:checked~label[for=zoom-${z}]{background:#222;color:#fff}`).join('')}
td.num,th.num{text-align:right}`;

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

export function resultPage(job: JobSummary, record: ExportRecord): string {
  const m = record.metadata;
  const placed = record.parts.filter((p) => p.added).length;
  const totals: [string, string, string][] = [
    ['used-stock', 'Stock used', String(m.totalUsedStock)],
    ['efficiency', 'Efficiency', pct(m.totalEfficiency)],
    ['placed', 'Parts placed', `${placed} of ${record.parts.length}`],
    ['cuts', 'Cuts', String(m.totalCuts)],
    ['cut-length', 'Cut length', fmt(m.totalCutLength)],
    ['cost', 'Stock cost', fmt(m.totalStockCost)],
    ['offcuts', 'Offcuts', String(m.totalOffcuts)],
  ];
  const exports = formatNames.flatMap((format) => FORMATS[format].options.map((option) =>
    `<a href="/account/jobs/${job.id}/export?format=${format}&amp;option=${option}" data-format="${format}" data-option="${option}">${format.toUpperCase()}${option === 'layout' ? '' : ` ${option}`}</a>`));
  const svgs = sheetSvgs(record);
  const rows = partRows(record);
  return layout(`Job ${job.id} - kerf`, `<p><a href="/account">← Account</a></p>
<h1>Job ${job.id}</h1>
<h2>Totals</h2>
<div class="totals" id="totals">${totals.map(([id, label, value]) => `<div id="total-${id}"><span>${esc(label)}</span><strong>${esc(value)}</strong></div>`).join('')}</div>
<h2>Exports</h2>
<p class="exports" id="exports">${exports.join(' ')}</p>
<h2>Patterns (${svgs.length})</h2>
<section class="zoom" id="diagrams">
${ZOOMS.map((z) => `<input type="radio" name="zoom" id="zoom-${z}"${z === 1 ? ' checked' : ''}>`).join('')}
${ZOOMS.map((z) => `<label for="zoom-${z}">${z * 100} %</label>`).join('')}
<div class="patterns">${svgs.map(({ sheet, svg }) => `<h3>${esc(patternTitle(sheet, svgs.length))}</h3><div class="pattern" id="pattern-${esc(sheet.stock.id)}">${svg}</div>`).join('\n') || '<p>No part was placed.</p>'}</div>
</section>
<h2>Parts</h2>
<table id="parts"><tr><th class="num">No.</th><th>Name</th><th class="num">L</th><th class="num">W</th><th class="num">T</th><th>Material</th><th class="num">Requested</th><th class="num">Placed</th></tr>
${rows.map((r) => `<tr data-part-row="${esc(r.row)}"><td class="num">${r.number}</td><td>${esc(r.first.name)}</td><td class="num">${fmt(r.first.l)}</td><td class="num">${fmt(r.first.w)}</td><td class="num">${r.first.t === null ? '' : fmt(r.first.t)}</td><td>${esc(r.first.material)}</td><td class="num">${r.requested}</td><td class="num">${r.placed}</td></tr>`).join('\n')}
</table>
<h2>Not placed</h2>
<table id="unusable"><tr><th>Row</th><th>Name</th><th class="num">Count</th><th>Why</th></tr>
${record.unusableParts.map((u) => `<tr data-part-row="${esc(u.id)}"><td>${esc(u.id)}</td><td>${esc(u.name)}</td><td class="num">${u.q}</td><td>${esc(u.issues.map((i) => i.message).join('; '))}</td></tr>`).join('\n') || '<tr><td colspan="4">Every part was placed.</td></tr>'}
</table>`, STYLE);
}

/** A job that has no result to show (yet, or any more). */
export function jobStatePage(job: JobSummary & { error: string | null }): string {
  const why = job.state === 'failed' ? `It failed: ${job.error ?? 'the calculation failed'}.`
    : job.state === 'expired' ? 'Its result has expired and is gone.' : `It is ${job.state}; reload in a moment.`;
  return layout(`Job ${job.id} - kerf`, `<p><a href="/account">← Account</a></p><h1>Job ${job.id}</h1><p id="job-state" data-state="${esc(job.state)}">${esc(why)}</p>`);
}
