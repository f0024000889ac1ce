'use strict';
// The fsmforge viewer's page: it draws the machine the game registered,
// follows the game's frames over /api/events, and sends commands with the
// token the viewer printed (carried in the URL's fragment, kept for the tab).

const params = new URLSearchParams(location.hash.slice(1));
const token = params.get('token') || sessionStorage.getItem('fsmforge-token') || '';
if (token) sessionStorage.setItem('fsmforge-token', token);

const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);
const state = {
  machines: [], detail: null, cur: 0, followed: null, view: null,
  events: [], scrub: -1, breaks: { states: new Set(), transitions: new Set() },
  rates: new Map(), es: null, vb: null, listState: -1,
  reloading: false, followCheck: 0, versions: '', reloadsKey: '', refusedKey: '',
};
const MAX_EVENTS = 2000;

async function api(path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error(await r.text());
  return r.json();
}

// command posts a command with the token; it says what went wrong, if
// anything, and reports whether it was done.
async function command(path, body) {
  try {
    const r = await fetch(path, {
      method: 'POST',
      headers: { 'X-Fsmforge-Token': token, 'Content-Type': 'application/json' },
      body: JSON.stringify(body || {}),
    });
    if (r.ok) return true;
    problem((await r.text()).trim());
  } catch (e) {
    problem(String(e));
  }
  return false;
}

// problem shows what the page itself could not do (the game's problems
// have a list of their own, redrawn each frame).
function problem(msg) {
  const li = document.createElement('li');
  li.textContent = msg;
  const ol = $('notes');
  ol.prepend(li);
  while (ol.children.length > 10) ol.lastChild.remove();
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function stateName(i) {
  const d = state.detail.description;
  if (i === -2) return '(final)';
  if (i < 0 || i >= d.states.length) return 'none';
  return d.states[i].name;
}

function machineName(i) {
  const m = state.machines.find((m) => m.id === i);
  return m ? m.name : 'machine ' + i;
}

function machineLabel(m) { return `${m.name} (${m.kind}, ${m.states} states)`; }

function triggerName(i) {
  const t = state.detail.description.triggers || [];
  return i >= 0 && i < t.length ? t[i].name : '';
}

async function init() {
  state.machines = await api('api/machines');
  const sel = $('machine');
  sel.innerHTML = '';
  for (const m of state.machines) {
    const o = document.createElement('option');
    o.value = m.id;
    o.textContent = machineLabel(m);
    sel.appendChild(o);
  }
  const want = Number(params.get('machine') || 0);
  sel.value = String(want);
  sel.onchange = () => show(Number(sel.value));
  if (state.machines.length === 0) {
    $('status').textContent = 'no machine registered';
    return;
  }
  await show(want);
}

async function show(m) {
  state.cur = m;
  state.rates = new Map();
  state.scrub = -1;
  state.vb = null;
  await load(m);
  if (state.detail.simulated) state.followed = { m, id: 0 };
  else if (state.followed && state.followed.m !== m) state.followed = null; // its agents are another machine's
  draw();
  simPanel();
  connect();
}

// load reads machine m and the recent past of its timeline from the
// flight recording, which describes the machine in the version its
// transitions are of (a reload starts a machine's timeline again); the
// stream goes on from there.
async function load(m) {
  const rec = await api(`api/recording?machine=${m}&last=${MAX_EVENTS}`);
  if (!rec.machines[m]) throw new Error('viewer: no machine ' + m);
  state.detail = rec.machines[m];
  state.events = rec.events;
  state.since = rec.total;
}

// reloaded shows the new version of the machine shown, which a frame
// says the game runs now (a drawing reloaded): its states and drawing,
// its timeline started again. The agent followed stays followed if it is
// still there, which the stream's second frame says (its first may
// predate the stream); the breakpoints come with the frames, renumbered.
async function reloaded() {
  state.reloading = true;
  try {
    await load(state.cur);
    state.scrub = -1;
    state.rates = new Map();
    state.view = null; // of the old version
    state.listState = -1;
    $('liststate').textContent = '…';
    $('list').textContent = '—';
    state.followCheck = state.followed && !state.detail.simulated ? 2 : 0;
    draw();
    simPanel();
  } catch (e) {
    problem(String(e));
  }
  state.reloading = false;
  connect();
}

// refreshMachines reads the list of machines again, for the menu's
// labels, when a machine has a new version.
async function refreshMachines() {
  try {
    state.machines = await api('api/machines');
  } catch (e) {
    return;
  }
  const sel = $('machine');
  for (const m of state.machines) {
    let o = [...sel.options].find((o) => o.value === String(m.id));
    if (!o) {
      o = document.createElement('option');
      o.value = m.id;
      sel.appendChild(o);
    }
    o.textContent = machineLabel(m);
  }
}

// The panel of the tests and messages: a polled test holds while checked
// (the simulator's agent, or a game's agent whose host lets the page make
// its tests hold), a message or an event is sent with a click, each to the
// agent followed.
function simPanel() {
  const d = state.detail;
  const box = $('sim');
  box.hidden = !d.holdable && !d.postable;
  if (box.hidden) return;
  $('simtitle').textContent = d.simulated ? 'Simulator' : 'Tests and messages';
  const tests = $('tests');
  tests.innerHTML = '';
  (d.description.triggers || []).forEach((t, i) => {
    const row = document.createElement('div');
    if (t.kind === 'test') {
      if (!d.holdable) return;
      const label = document.createElement('label');
      const cb = document.createElement('input');
      cb.type = 'checkbox';
      cb.id = 'hold-' + i;
      cb.onchange = () => {
        if (!state.followed) { cb.checked = false; problem('follow an agent first: the test holds for it'); return; }
        command('api/hold', { machine: state.cur, agent: state.followed.id, trigger: i, on: cb.checked, version: d.version });
      };
      label.append(cb, ' ' + t.name);
      row.appendChild(label);
    } else {
      if (!d.postable) return;
      const b = document.createElement('button');
      b.id = 'send-' + i;
      b.textContent = t.name;
      b.title = 'send the ' + t.kind + ' ' + t.name + ' to the agent followed';
      b.onclick = () => {
        if (!state.followed) { problem('follow an agent first: the ' + t.kind + ' goes to it'); return; }
        command('api/post', { machine: state.cur, agent: state.followed.id, trigger: i, version: d.version });
      };
      row.appendChild(b);
    }
    tests.appendChild(row);
  });
}

function follow(id) {
  state.followed = { m: state.cur, id: Number(id) };
  $('pick').value = id;
  connect();
}

// connect opens the stream of frames, following the agent followed; the
// old stream closes once the new one is open, so that the viewer never
// sees no page (a paused game would go on). The browser reconnects by
// itself, from the last message it got (the server reads Last-Event-ID).
function connect() {
  const old = state.es;
  let url = 'api/events?since=' + (state.since || 0);
  if (state.followed) url += `&watch=${state.followed.m}:${state.followed.id}`;
  const es = new EventSource(url);
  es.onopen = () => { if (old) old.close(); };
  es.onmessage = (e) => {
    if (state.es !== es || state.reloading) return; // a stream being replaced
    const f = JSON.parse(e.data);
    state.since = f.seq;
    onFrame(f);
  };
  es.onerror = () => { if (state.es === es) $('status').textContent = 'disconnected: reconnecting…'; };
  state.es = es;
}

// A box's point where the line from its centre towards (x, y) leaves it.
function border(b, x, y) {
  const cx = b.x + b.w / 2, cy = b.y + b.h / 2;
  const dx = x - cx, dy = y - cy;
  if (dx === 0 && dy === 0) return [cx, cy];
  const s = Math.min(dx ? (b.w / 2) / Math.abs(dx) : Infinity, dy ? (b.h / 2) / Math.abs(dy) : Infinity);
  return [cx + dx * s, cy + dy * s];
}

function inside(p, b) { return p[0] > b.x && p[0] < b.x + b.w && p[1] > b.y && p[1] < b.y + b.h; }

function depth(d, i) {
  let n = 0;
  for (let p = d.states[i].parent; p >= 0 && n < d.states.length; p = d.states[p].parent) n++;
  return n;
}

function draw() {
  const svg = $('svg');
  svg.innerHTML = '';
  const d = state.detail.description, L = state.detail.layout;
  const defs = el('defs', {}, svg);
  const mk = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' }, defs);
  el('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#78909c' }, mk);
  const root = el('g', { id: 'root' }, svg);
  const parents = new Set(d.states.map((s) => s.parent).filter((p) => p >= 0));
  const order = d.states.map((_, i) => i).sort((a, b) => depth(d, a) - depth(d, b));
  for (const i of order) {
    const b = L.states[i], s = d.states[i];
    const g = el('g', { class: 'state' + (parents.has(i) ? ' compound' : ''), id: 'state-' + i, 'data-state': i, 'data-name': s.name }, root);
    el('rect', { x: b.x, y: b.y, width: b.w, height: b.h, rx: 10 }, g);
    const name = el('text', parents.has(i)
      ? { x: b.x + 10, y: b.y + 20 }
      : { x: b.x + b.w / 2, y: b.y + b.h / 2 + 4, 'text-anchor': 'middle' }, g);
    name.textContent = s.name;
    const count = el('text', { class: 'count', x: b.x + b.w - 8, y: b.y + 14, 'text-anchor': 'end' }, g);
    count.id = 'count-' + i;
    const title = el('title', {}, g);
    title.textContent = s.name + (s.source ? '\n' + s.source : '') + '\n(' + s.kind + ')' +
      (s.entry && s.entry.length ? '\nentry / ' + s.entry.join('; ') : '');
    g.addEventListener('click', (e) => { e.stopPropagation(); clickState(i, e); });
  }
  const edges = el('g', { id: 'edges' }, root);
  const between = new Map(); // transitions drawn so far between two states
  (d.transitions || []).forEach((t, k) => {
    const targets = (t.to && t.to.length) ? t.to : (t.final ? [-2] : []);
    for (const to of targets) {
      const key = t.from + '>' + to;
      const nth = between.get(key) || 0;
      between.set(key, nth + 1);
      drawEdge(edges, k, t, to, nth);
    }
  });
  fit();
  paint();
}

// drawEdge draws transition k (t) to state to, the nth drawn between its
// two states: each further one bends further out.
function drawEdge(parent, k, t, to, nth) {
  const L = state.detail.layout, d = state.detail.description;
  const a = L.states[t.from];
  if (!a) return;
  let b = to >= 0 ? L.states[to] : { x: a.x + a.w / 2 - 8, y: a.y + a.h + 40, w: 16, h: 16 };
  const g = el('g', { class: 'transition', id: 'tr-' + k, 'data-transition': k }, parent);
  const trig = t.trigger >= 0 && d.triggers ? d.triggers[t.trigger] : null;
  if (state.detail.postable && trig && trig.kind !== 'test') g.classList.add('postable');
  let path, lx, ly, anchor = 'middle';
  if (to === t.from) {
    const x = a.x + a.w - 20 - 14 * nth, y = a.y, r = 40 + 16 * nth;
    path = `M${x},${y} C${x + 10},${y - r} ${x + r + 10},${y - 10} ${a.x + a.w},${y + 20}`;
    lx = x + 30; ly = y - r * 0.6;
  } else {
    const ca = [a.x + a.w / 2, a.y + a.h / 2], cb = [b.x + b.w / 2, b.y + b.h / 2];
    const p1 = inside(cb, a) ? ca : border(a, cb[0], cb[1]);
    const p2 = inside(ca, b) ? cb : border(b, ca[0], ca[1]);
    const mx = (p1[0] + p2[0]) / 2, my = (p1[1] + p2[1]) / 2;
    const len = Math.hypot(p2[0] - p1[0], p2[1] - p1[1]) || 1;
    const bend = 24 * (1 + nth);
    const nx = -(p2[1] - p1[1]) / len * bend, ny = (p2[0] - p1[0]) / len * bend;
    path = `M${p1[0]},${p1[1]} Q${mx + nx},${my + ny} ${p2[0]},${p2[1]}`;
    // The label beside the curve's middle, on its outer side, so that the
    // labels of a transition and of its way back do not overlap.
    lx = mx + nx * 0.7; ly = my + ny * 0.7 + 4;
    anchor = Math.abs(nx) < 4 ? 'middle' : nx > 0 ? 'start' : 'end';
  }
  if (to === -2) el('circle', { cx: b.x + 8, cy: b.y + 8, r: 7, fill: '#263238' }, g);
  el('path', { d: path }, g);
  el('path', { d: path, class: 'hit' }, g);
  const label = el('text', { x: lx, y: ly, 'text-anchor': anchor }, g);
  label.textContent = state.detail.layout.labels[k] || '';
  g.addEventListener('click', (e) => { e.stopPropagation(); clickTransition(k, t, e); });
}

// Pan and zoom move the SVG's viewBox.
function fit() {
  const L = state.detail.layout;
  state.vb = { x: 0, y: 0, w: Math.max(L.width, 200), h: Math.max(L.height, 150) };
  setViewBox();
}

function setViewBox() {
  const v = state.vb;
  $('svg').setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
}

function setupPanZoom() {
  const svg = $('svg');
  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = svg.getBoundingClientRect(), v = state.vb;
    const f = e.deltaY > 0 ? 1.15 : 1 / 1.15;
    const px = v.x + (e.clientX - r.left) / r.width * v.w, py = v.y + (e.clientY - r.top) / r.height * v.h;
    v.x = px - (px - v.x) * f; v.y = py - (py - v.y) * f; v.w *= f; v.h *= f;
    setViewBox();
  }, { passive: false });
  let drag = null;
  svg.addEventListener('mousedown', (e) => { drag = { x: e.clientX, y: e.clientY, vx: state.vb.x, vy: state.vb.y }; });
  window.addEventListener('mouseup', () => { drag = null; });
  window.addEventListener('mousemove', (e) => {
    if (!drag) return;
    const r = svg.getBoundingClientRect();
    state.vb.x = drag.vx - (e.clientX - drag.x) / r.width * state.vb.w;
    state.vb.y = drag.vy - (e.clientY - drag.y) / r.height * state.vb.h;
    setViewBox();
  });
}

async function clickState(i, e) {
  if (e.altKey) {
    await command('api/breakpoints', { machine: state.cur, state: i, on: !state.breaks.states.has(i), version: state.detail.version });
    return; // the next frame shows it
  }
  state.listState = i;
  listAgents(stateName(i), await api(`api/machines/${state.cur}/agents?state=${i}&max=50`));
}

// listAgents lists agents to follow under a title: those in a state, or
// those that took a transition lately.
function listAgents(title, ids) {
  $('liststate').textContent = title;
  const list = $('list');
  list.innerHTML = '';
  list.classList.toggle('muted', ids.length === 0);
  if (ids.length === 0) list.textContent = 'none';
  for (const id of ids) {
    const a = document.createElement('a');
    a.textContent = id;
    a.onclick = () => follow(id);
    list.appendChild(a);
  }
}

async function clickTransition(k, t, e) {
  if (e.altKey) {
    await command('api/breakpoints', { machine: state.cur, transition: k, on: !state.breaks.transitions.has(k), version: state.detail.version });
    return;
  }
  const g = $('tr-' + k);
  if (g.classList.contains('postable') && state.followed && !e.shiftKey) {
    await command('api/post', { machine: state.cur, agent: state.followed.id, trigger: t.trigger, version: state.detail.version });
    return;
  }
  // The agents that took it among the transitions seen, the latest last.
  const took = [];
  for (const ev of state.events) {
    if (ev.transition !== k) continue;
    const at = took.indexOf(ev.entity);
    if (at >= 0) took.splice(at, 1);
    took.push(ev.entity);
  }
  const label = state.detail.layout.labels[k] || `transition ${k}`;
  listAgents(`“${label}” lately (${stateName(t.from)} →)`, took.slice(-50));
}

function onFrame(f) {
  const versions = (f.machines || []).map((m) => m.version).join(' ');
  if (versions !== state.versions) {
    if (state.versions !== '') refreshMachines();
    state.versions = versions;
  }
  reloadList(f);
  refusals(f);
  const cur = (f.machines || [])[state.cur];
  if (cur && cur.version !== state.detail.version) {
    reloaded(); // the frame is of the new version: the page shows it from the next
    return;
  }
  state.view = f;
  const b = (f.breaks || [])[state.cur] || { states: [], transitions: [] };
  state.breaks = { states: new Set(b.states), transitions: new Set(b.transitions) };
  for (const ev of f.events || []) {
    if (ev.machine !== state.cur) continue;
    state.events.push(ev);
    if (ev.transition >= 0) state.rates.set(ev.transition, (state.rates.get(ev.transition) || 0) + 1);
  }
  if (state.events.length > MAX_EVENTS) {
    const cut = state.events.length - MAX_EVENTS;
    state.events.splice(0, cut);
    if (state.scrub >= 0) state.scrub = Math.max(0, state.scrub - cut); // the past scrubbed to stays put
  }
  for (const [k, n] of state.rates) state.rates.set(k, n * 0.9);
  const st = $('status');
  st.classList.toggle('paused', f.paused);
  let s = `tick ${f.tick}` + (f.paused ? ' — paused' : '');
  if (f.paused && f.hit) {
    const where = f.hit.machine === state.cur ? '' : ` of ${state.machines[f.hit.machine] ? state.machines[f.hit.machine].name : 'machine ' + f.hit.machine}`;
    s += f.hit.transition >= 0 || where
      ? ` at a breakpoint: agent ${f.hit.agent}${where} took transition ${f.hit.transition}`
      : ` at a breakpoint: agent ${f.hit.agent} entered ${stateName(f.hit.state)}`;
  }
  st.textContent = s;
  const mv = (f.machines || [])[state.cur];
  $('record').checked = mv ? mv.recording : false;
  const tl = $('timeline');
  tl.max = String(state.events.length);
  tl.value = String(state.scrub < 0 ? state.events.length : state.scrub);
  paint();
  panel();
  problems();
  if (state.followCheck > 0 && --state.followCheck === 0 && state.followed && !currentAgent()) {
    const id = state.followed.id;
    state.followed = null;
    $('agent').textContent = `agent ${id} is gone since the reload`;
    $('agent').classList.add('muted');
    connect();
  }
}

// reloadList lists the new versions of machines the game moved onto, the
// latest first, with what the game said of each.
function reloadList(f) {
  if (!f.reloads) return; // the stream sends them when they change
  const rs = f.reloads;
  const last = rs[rs.length - 1];
  const key = last ? `${rs.length} ${last.machine} ${last.version}` : '';
  if (key === state.reloadsKey) return;
  state.reloadsKey = key;
  const ol = $('reloads');
  ol.innerHTML = '';
  for (const r of rs.slice().reverse()) {
    const li = document.createElement('li');
    const head = document.createElement('div');
    head.textContent = `tick ${r.tick}: ${r.name}, version ${r.version}`;
    const pre = document.createElement('pre');
    pre.textContent = r.report;
    li.append(head, pre);
    ol.appendChild(li);
  }
}

// refusals shows over the drawing why a new version of a machine's drawing
// was refused, until the game reloads it or says otherwise.
function refusals(f) {
  const rows = (f.machines || []).map((m, i) => [i, m.refused]).filter(([, text]) => text);
  const key = JSON.stringify(rows);
  if (key === state.refusedKey) return;
  state.refusedKey = key;
  const box = $('refused');
  box.hidden = rows.length === 0;
  box.innerHTML = '';
  for (const [i, text] of rows) {
    const head = document.createElement('strong');
    head.textContent = `The new drawing of ${machineName(i)} was refused; the game goes on with the version it runs:`;
    const pre = document.createElement('pre');
    pre.textContent = text;
    box.append(head, pre);
  }
}

function currentAgent() {
  if (!state.view || !state.followed || state.followed.m !== state.cur) return null;
  return (state.view.agents || []).find((a) => a.machine === state.cur && a.id === state.followed.id) || null;
}

// lastEvent returns the followed agent's last event before position p of
// the timeline (the number of events seen), or null; with moved, its last
// that changed its state (a statechart's microstep in another region
// leaves it where it was).
function lastEvent(p, moved) {
  if (!state.followed) return null;
  for (let i = Math.min(p, state.events.length) - 1; i >= 0; i--) {
    const ev = state.events[i];
    if (ev.entity === state.followed.id && (!moved || ev.from !== ev.to)) return ev;
  }
  return null;
}

function paint() {
  if (!state.detail) return;
  const d = state.detail.description;
  const mv = state.view && (state.view.machines || [])[state.cur];
  const counts = mv ? mv.counts : [];
  let max = 0;
  d.states.forEach((s, i) => { if (!d.states.some((c) => c.parent === i)) max = Math.max(max, counts[i] || 0); });
  const a = currentAgent();
  let active = new Set(), prev = -1;
  if (state.scrub >= 0) {
    const ev = lastEvent(state.scrub);
    if (ev) { active.add(ev.to); prev = ev.from; }
  } else if (a) {
    active = new Set(a.active && a.active.length ? a.active : [a.state]);
    prev = a.previous;
    if (prev < 0) { const ev = lastEvent(state.events.length, true); if (ev) prev = ev.from; }
  }
  const probs = new Set(((state.view && state.view.problems) || []).filter((p) => p.machine === state.cur && p.state >= 0).map((p) => p.state));
  d.states.forEach((s, i) => {
    const g = $('state-' + i);
    if (!g) return;
    g.classList.toggle('active', active.has(i));
    g.classList.toggle('previous', i === prev && !active.has(i));
    g.classList.toggle('break', state.breaks.states.has(i));
    g.classList.toggle('problem', probs.has(i));
    const n = counts[i] || 0;
    const heat = max > 0 ? n / max : 0;
    const rect = g.querySelector('rect');
    if (!g.classList.contains('compound')) rect.style.fill = heat > 0 ? `rgba(255, 112, 67, ${0.15 + 0.6 * heat})` : '';
    $('count-' + i).textContent = mv && mv.agents > 1 ? String(n) : '';
  });
  const taken = state.scrub > 0 ? state.events[state.scrub - 1] : null;
  (d.transitions || []).forEach((t, k) => {
    const g = $('tr-' + k);
    if (!g) return;
    g.classList.toggle('break', state.breaks.transitions.has(k));
    g.classList.toggle('taken', !!taken && taken.transition === k);
    const r = state.rates.get(k) || 0;
    for (const p of g.querySelectorAll('path:not(.hit)')) p.style.strokeWidth = r > 0.05 ? String(1.5 + Math.min(6, Math.log2(1 + r))) : '';
  });
  drawRates(mv);
}

// A crowd lists no transitions: the moves its entities made in the last
// frame are drawn as they come.
function drawRates(mv) {
  const old = $('rates');
  if (old) old.remove();
  if (!mv || !mv.rates || !mv.rates.length) return;
  const L = state.detail.layout;
  const g = el('g', { id: 'rates' }, $('root'));
  let top = 0;
  for (const c of mv.rates) top = Math.max(top, c.n);
  for (const c of mv.rates) {
    const a = L.states[c.from], b = c.to >= 0 ? L.states[c.to] : null;
    if (!a || !b) continue;
    const ca = [a.x + a.w / 2, a.y + a.h / 2], cb = [b.x + b.w / 2, b.y + b.h / 2];
    const p1 = border(a, cb[0], cb[1]), p2 = border(b, ca[0], ca[1]);
    const len = Math.hypot(p2[0] - p1[0], p2[1] - p1[1]) || 1;
    const nx = -(p2[1] - p1[1]) / len * 18, ny = (p2[0] - p1[0]) / len * 18;
    const mx = (p1[0] + p2[0]) / 2 + nx, my = (p1[1] + p2[1]) / 2 + ny;
    const tg = el('g', { class: 'transition rate' }, g);
    el('path', { d: `M${p1[0]},${p1[1]} Q${mx},${my} ${p2[0]},${p2[1]}`, style: `stroke-width:${1 + 6 * c.n / top}` }, tg);
    el('text', { x: mx, y: my, 'text-anchor': 'middle' }, tg).textContent = String(c.n);
  }
}

function panel() {
  const box = $('agent');
  const a = currentAgent();
  if (!state.followed) return;
  if (!a) { box.textContent = `agent ${state.followed.id}: not in this frame`; return; }
  box.classList.remove('muted');
  const rows = [['agent', a.id], ['state', stateName(a.state)]];
  if (a.active && a.active.length) rows.push(['active', a.active.map(stateName).join(', ')]);
  const ev = lastEvent(state.events.length, true);
  const prev = a.previous >= 0 ? a.previous : (ev ? ev.from : -1);
  if (prev >= 0) rows.push(['previous', stateName(prev)]);
  if (a.stack && a.stack.length) rows.push(['stack', a.stack.map(stateName).join(' › ')]);
  for (const h of a.history || []) rows.push(['history ' + stateName(h.state), h.states.map(stateName).join(', ')]);
  if (a.pending && a.pending.length) rows.push(['waiting', a.pending.map(triggerName).join(', ')]);
  for (const t of a.timers || []) rows.push(['timer', `${triggerName(t.trigger)} in ${t.left.toFixed(2)} s`]);
  for (const t of a.telegrams || []) rows.push(['telegram', `${t.msg} from ${t.from}, in ${t.left.toFixed(2)} s`]);
  if (a.actions && a.actions.length) {
    rows.push(['performed', a.actions.join(', ')]);
  } else if (ev && ev.to >= 0) {
    // The entry actions of the state its last transition entered, from
    // the machine's definition: what the game performed for it.
    const entry = state.detail.description.states[ev.to].entry || [];
    if (entry.length) rows.push(['entered ' + stateName(ev.to), entry.join(', ')]);
  }
  if (a.done) rows.push(['done', 'yes']);
  if (a.time) rows.push(['time', a.time.toFixed(2) + ' s']);
  const dl = document.createElement('dl');
  for (const [k, v] of rows) {
    const dt = document.createElement('dt'), dd = document.createElement('dd');
    dt.textContent = k; dd.textContent = String(v);
    dl.append(dt, dd);
  }
  box.innerHTML = '';
  box.appendChild(dl);
  box.dataset.state = stateName(a.state);
  const held = new Set(a.holding || []);
  for (const cb of document.querySelectorAll('#tests input[type=checkbox]')) {
    if (document.activeElement !== cb) cb.checked = held.has(Number(cb.id.slice(5)));
  }
}

function problems() {
  const ol = $('problems');
  const ps = (state.view && state.view.problems) || [];
  ol.innerHTML = '';
  for (const p of ps.slice(-20).reverse()) {
    const li = document.createElement('li');
    li.textContent = `tick ${p.tick}, machine ${p.machine}, agent ${p.agent}: ${p.message}`;
    ol.appendChild(li);
  }
}

function timeline() {
  const tl = $('timeline');
  const p = Number(tl.value);
  state.scrub = p >= state.events.length ? -1 : p;
  $('when').textContent = state.scrub < 0 ? 'live' : `event ${p} of ${state.events.length}` + (state.events[p - 1] ? `, tick ${state.events[p - 1].tick}` : '');
  const ol = $('events');
  ol.innerHTML = '';
  const end = state.scrub < 0 ? state.events.length : p;
  for (let i = Math.max(0, end - 12); i < end; i++) {
    const ev = state.events[i];
    const li = document.createElement('li');
    li.value = i + 1;
    li.textContent = `tick ${ev.tick}: agent ${ev.entity} ${stateName(ev.from)} → ${stateName(ev.to)}`;
    if (i === end - 1 && state.scrub >= 0) li.className = 'now';
    ol.appendChild(li);
  }
  paint();
}

$('pause').onclick = () => command('api/pause');
$('step').onclick = () => command('api/step');
$('resume').onclick = () => command('api/resume');
$('record').onchange = (e) => command('api/record', { machine: state.cur, on: e.target.checked });
$('pickform').onsubmit = (e) => { e.preventDefault(); if ($('pick').value !== '') follow($('pick').value); };
$('timeline').oninput = timeline;
setupPanZoom();
setInterval(() => { if (state.scrub < 0) timeline(); }, 500);
init().catch((e) => problem(String(e)));
