// The hall's page: the hall's state by Server-Sent Events (4 a second), drawn as one card per board;
// the arbiter's buttons POST to the hall, which signs each action with the arbiter key.
"use strict";

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({
  "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

// Every value drawn goes through esc() (or textContent): a board's fields come from its clock, or
// from another hall through the MQTT broker, and none of them is trusted to be what it should be.
const num = (x) => (typeof x === "number" && isFinite(x) ? x : null);
const word = (x) => (typeof x === "string" && /^[a-z_]+$/.test(x) ? x : "");  // a class name, or none
const list = (x) => (Array.isArray(x) ? x : []);
const obj = (x) => (x && typeof x === "object" && !Array.isArray(x) ? x : {});

function mmss(ms) {
  const s = Math.ceil(ms / 1000);
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function ago(ms) {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s} s` : s < 3600 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${Math.floor(s / 3600)} h ${Math.floor(s / 60) % 60} min`;
}

function face(b, side) {
  const f = obj(obj(b.faces)[side]);
  const cls = ["face", side];
  if (b.running === side) cls.push("running");
  if (f.flag) cls.push("flagged");
  if (f.low) cls.push("low");
  const marks = [];
  if (f.flag) marks.push('<span class="mark flag">FLAG</span>');
  if (f.flag && f.first) marks.push('<span class="mark first">1ST</span>');
  if (f.low) marks.push('<span class="mark low">LOW</span>');
  if (f.default) marks.push('<span class="mark def" title="default time (TK-C6)">DEF</span>');
  if (f.stage_mark) marks.push('<span class="mark st" title="stage added at a flag: check the moves (TK-C13)">ST&gt;</span>');
  const who = Array.isArray(b.players) ? b.players[side === "left" ? 0 : 1] : side;  // (the projector's)
  return `<div class="${cls.join(" ")}" data-side="${side}" data-flag="${esc(num(f.flag) ?? 0)}">
    <div class="who">${esc(who)}</div>
    <div class="time">${esc(f.text ?? "-")}</div>
    <div class="sub">moves ${esc(num(f.moves) ?? "-")} &middot; stage ${esc(num(f.stage) ?? "-")}</div>
    <div class="marks">${marks.join("")}</div></div>`;
}

function matchView(b) {
  const m = obj(b.match);
  const left = obj(m.left), right = obj(m.right);
  const cards = (s) => "W".repeat(Math.min(num(s.warnings) || 0, 9)) + "R".repeat(Math.min(num(s.reds) || 0, 9));
  const won = m.winner ? ` &middot; ${m.winner === "none" ? "draw" : "winner " + esc(m.winner)} (${esc(m.why)})` : "";
  // the break's countdown (KB-6, KT-4.4), the running stoppage (KB-16, KT-4.5), the time added back (KT-4.5)
  const run = [];
  if (typeof m.break === "string") run.push(`<span class="brk" title="the break counts down by itself">${esc(m.break)}</span>`);
  if (typeof m.stoppage === "string") run.push(`<span class="stoppage" title="the match time stands still">STOPPAGE ${esc(m.stoppage)}</span>`);
  if (typeof m.stopped === "string") run.push(`<span class="added" title="this period's stopped time: played on after its match time (KT-4.5)">stopped ${esc(m.stopped)}</span>`);
  // the names the clock logged, when they are not the pairing's the tile shows above
  const names = Array.isArray(m.names) && m.names.length === 2 ? m.names : null;
  const other = names && !(Array.isArray(b.players) && b.players[0] === names[0] && b.players[1] === names[1]);
  return `<div class="match"><div class="sub">${esc(b.mode)} &middot; ${esc(m.period)} &middot; ${esc(m.time)}${won}</div>
    <div class="score">${esc(num(left.score) ?? 0)} : ${esc(num(right.score) ?? 0)}</div>
    <div class="sub">${cards(left)} &nbsp; ${cards(right)}</div>` +
    (run.length ? `<div class="sub run">${run.join(" &middot; ")}</div>` : "") +
    (other ? `<div class="sub clock-names" title="the names in the clock's log">on the clock: ${esc(names[0])} &ndash; ${esc(names[1])}</div>` : "") +
    `</div>`;
}

function card(b) {
  const alerts = list(b.alerts).map(obj);
  const pull = obj(b.pull);
  const start = obj(b.start);
  const cls = ["board"];
  if (alerts.length) cls.push("alert");
  if (alerts.some((a) => a.kind === "flag")) cls.push("alert-flag");
  if (b.link !== "up") cls.push("down");
  const players = Array.isArray(b.players) ? `${esc(b.players[0])} &ndash; ${esc(b.players[1])}` : "";
  const battery = num(b.battery) == null ? "" : ` &middot; battery ${esc(b.battery)}%`;
  const rtt = num(b.rtt_ms) == null ? "" : ` ${esc(b.rtt_ms)} ms`;
  const where = b.hall ? ` &middot; hall ${esc(b.hall)}` : "";
  const meta = `<span class="dot ${word(b.link)}" title="${esc(b.error || b.link)}"></span> ${esc(b.link)}${rtt}${battery}${where}`;
  let body;
  if (b.link !== "up" && !b.state) body = `<div class="sub">${esc(b.error || "connecting")}</div>`;
  else if (b.match) body = matchView(b);
  else body = `<div class="faces">${face(b, "left")}${face(b, "right")}</div>`;
  // the result entered, large, beside its code (the scoresheet's proof): as the clock's faces show it
  const res = typeof b.result === "string" && Object.hasOwn(RESULT_TEXT, b.result) ? RESULT_TEXT[b.result] : null;
  if (res) body += `<div class="res"><span class="result" data-result-shown="${esc(b.result)}">${res}</span>` +
    (kazans(b) ? `<span class="code" title="the final kazans, left's and right's (TK-R7)">${kazans(b)}</span>` : "") +
    (b.result_code ? `<span class="code">code ${esc(b.result_code)}</span>` : "") + `</div>`;
  else if (b.result_code) body += `<div class="res"><span class="code">code ${esc(b.result_code)}</span></div>`;
  const foot = [`<span class="state">${esc(b.armed ? "armed" : b.state || "-")}</span>`,
                `<span>${esc(b.mode)}${b.game != null ? " " + esc(b.game) : ""}</span>`];
  if (typeof b.tc === "string" && !b.match) foot.push(`<span class="tc" title="this board's time control">${esc(b.tc)}</span>`);
  const seen = num(b.seen_ms);
  if (b.link !== "up" && seen != null) foot.push(`<span class="seen">seen ${esc(ago(seen))} ago</span>`);
  if (b.flag_note) foot.push(`<span class="flag-note" title="the game is finished: its flag is history">${esc(b.flag_note)}</span>`);

  if (num(start.dev_ms) != null) foot.push(`<span title="its start against the round's instant, within &plusmn;${esc(num(start.err_ms))} ms of the link">start ${start.dev_ms >= 0 ? "+" : ""}${esc(start.dev_ms)} ms</span>`);
  if (pull.state && pull.state !== "idle") foot.push(`<span class="${word(pull.state)}" data-pull="${esc(pull.state)}">${esc(pull.message)}</span>`);
  else foot.push(`<span>log ${b.log_full ? "FULL" : b.log_error ? "ERROR" : "ok"}</span>`);
  const lastGame = obj(b.last_game);
  const lastPull = obj(lastGame.pull);
  if (num(lastGame.protest_ms) != null)  // the last game's verdict and TK-P1 window, while it runs
    foot.push(`<span class="last-game" title="the last game: its log and its protest window (TK-P1)">game ${esc(num(lastGame.game))}: <span class="${word(lastPull.state)}">${esc(lastPull.message)}</span> &middot; protest ${mmss(lastGame.protest_ms)} left</span>`);
  const protest = num(b.protest_ms);
  if (protest != null) foot.push(`<span title="TK-P1: 30 minutes from the result">protest ${protest > 0 ? mmss(protest) + " left" : "closed"}</span>`);
  if (b.message && !b.result_code) foot.push(`<span>${esc(b.message)}</span>`);
  if (b.link === "up" && !b.match && !b.hall && b.state && canAct)
    foot.push(`<button class="small" data-result="${esc(b.number)}" title="${b.result ? "replace this game's result (signed; the last one counts)" : "enter this game's result (signed)"}">${b.result ? "change result" : "result"}&hellip;</button>`);
  if (b.link === "up" && !b.hall && canAct)
    foot.push(`<button class="small" data-locate="${esc(b.number)}" title="this clock blinks and beeps for a few seconds: find it in the hall">identify</button>`);
  if (b.link === "up" && !b.hall && b.state && !b.stranger && canAct)
    foot.push(`<button class="small" data-arbiter="${esc(b.number)}" title="a correction on this board (signed, logged)">arbiter&hellip;</button>`);
  if (b.stranger && !b.hall && canAct)
    foot.push(`<button class="small" data-assign="${esc(b.number)}" title="make the clock on this port the board's clock">assign&hellip;</button>`);
  const alertText = alerts.map((a) => `<span class="${word(a.kind)}">${esc(a.text)}</span>`).join("");
  return `<article class="${cls.join(" ")}" id="board-${esc(b.number)}" data-number="${esc(b.number)}" data-state="${esc(b.state)}" data-link="${esc(b.link)}">
    <div class="top"><span class="num">${esc(b.number)}</span><span class="meta">${meta}</span></div>
    <div class="players">${players || "&nbsp;"}</div>
    ${body}<div class="foot">${foot.join("")}</div><div class="alerts">${alertText}</div></article>`;
}

// the results (left-right, as the pairings: 1-0 the left player won), as shown; forfeits TK-R4
const RESULTS = ["1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-"];
const RESULT_TEXT = {"1-0": "1&ndash;0", "0-1": "0&ndash;1", "1/2-1/2": "&frac12;&ndash;&frac12;",
                     "+/-": "+/&minus;", "-/+": "&minus;/+", "-/-": "&minus;/&minus;"};
const RESULT_WORDS = {"1-0": "the left player wins", "0-1": "the right player wins", "1/2-1/2": "a draw",
                      "+/-": "the right player forfeits (absent)", "-/+": "the left player forfeits (absent)",
                      "-/-": "both forfeit (neither appeared)"};
const lastBoards = new Map();  // board number -> its last view (the dialog names the players)

function brokenCard(b, e) {
  // one board that cannot be drawn says so; the others are drawn all the same
  return `<article class="board alert down" id="board-${esc(b && b.number)}" data-number="${esc(b && b.number)}" data-link="error">
    <div class="top"><span class="num">${esc(b && b.number)}</span></div>
    <div class="sub">this board cannot be shown: ${esc(e)}</div></article>`;
}

const drawn = new Map();  // board number -> the card's HTML as last drawn

let last = {};  // the hall's last view (the confirmations count its boards)

// The projector view: 32 boards a screen (8 x 4 on 1920x1080), the pages in turn every 10 s.
const PAGE = 32;
const PAGE_MS = 10000;
let projector = location.hash === "#projector";
function pageOf(boards) {
  if (!projector || boards.length <= PAGE) return { list: boards, page: 0, pages: 1 };
  const pages = Math.ceil(boards.length / PAGE);
  const page = Math.floor(Date.now() / PAGE_MS) % pages;
  return { list: boards.slice(page * PAGE, page * PAGE + PAGE), page, pages };
}

function render(h) {
  last = h;
  alertsOf(list(h.boards).map(obj));
  if (h.action && obj(h.action).at !== shownAt) showAction(h.action);  // what another tab did, too
  const own = list(h.boards).map(obj).filter((b) => !b.hall).length;
  document.body.classList.toggle("no-clocks", own === 0);  // nothing here to act on: no buttons
  // only the cards that changed are drawn again, in place (a card under the pointer stays put)
  const main = $("boards");
  const seen = new Set();
  let prev = null;
  const all = list(h.boards).map(obj);
  const { list: boards, page, pages } = pageOf(all);
  $("page").textContent = pages > 1 ? `page ${page + 1}/${pages}` : "";
  for (const b of boards) {
    const key = String(b.number);
    if (seen.has(key)) continue;
    seen.add(key);
    lastBoards.set(key, b);
    let text;
    try { text = card(b); } catch (e) { text = brokenCard(b, e); }
    let el = Array.from(main.children).find((c) => c.dataset.number === key);
    if (!el || drawn.get(key) !== text) {
      const tmp = document.createElement("div");
      tmp.innerHTML = text;
      const fresh = tmp.firstElementChild;
      if (el) el.replaceWith(fresh); else main.insertBefore(fresh, prev ? prev.nextSibling : main.firstChild);
      el = fresh;
      drawn.set(key, text);
    }
    prev = el;
  }
  for (const el of Array.from(main.children)) {
    if (!seen.has(el.dataset.number)) { drawn.delete(el.dataset.number); el.remove(); }
  }
  const up = all.filter((b) => b.link === "up").length;
  const flags = all.filter((b) => list(b.alerts).some((a) => obj(a).kind === "flag")).length;
  $("summary").textContent = `${all.length} boards, ${up} connected` + (flags ? `, ${flags} flagged` : "") +
    (h.discover_error ? " \u00b7 " + h.discover_error : "") +
    (h.error ? " \u00b7 " + h.error : "") + (canAct ? "" : " \u00b7 read-only: " + READ_ONLY);
  // the hall without --key: its actions are unsigned and no log it pulls can be verified (a failed
  // view says nothing of the key: the warning stays as it was)
  if (typeof h.key === "boolean") $("nokey").hidden = h.key;
  const r = h.round;
  if (!r) $("round").textContent = "";
  else if (!r.measured) $("round").textContent = `round: ${r.armed} boards armed`;
  else $("round").textContent = (r.spread_ms == null ? `round: no board started` :
    `round: ${r.started} boards started, spread ${r.spread_ms} ms (\u00b1${r.err_ms} ms)`) + lateText(r);
  $("round").dataset.spread = r && r.spread_ms != null ? r.spread_ms : "";
  showRound(h);
}

// The round's results table (one A4 page in print): every board of this hall and the halls it shows
const LOG_WORDS = {verified: "verified", unkeyed: "chain intact, authorship unproven", failed: "NOT verified",
                   pulling: "pulling", retrying: "pulling again soon", reported: "its hall's word"};

// a game's final kazans as entered with its result (TK-R7): "82-79", or ""
function kazans(b) {
  const k = list(b.kazans);
  return k.length === 2 && k.every((x) => Number.isInteger(x)) ? `${k[0]}-${k[1]}` : "";
}

function resultRow(b) {
  const players = Array.isArray(b.players) ? `${esc(b.players[0])} &ndash; ${esc(b.players[1])}` : "";
  const res = typeof b.result === "string" && Object.hasOwn(RESULT_TEXT, b.result) ? RESULT_TEXT[b.result] : "";
  const pull = obj(b.pull);
  const log = typeof pull.state === "string" && Object.hasOwn(LOG_WORDS, pull.state) ? LOG_WORDS[pull.state] : "";
  const flags = b.flag_note || list(b.alerts).map(obj).filter((a) => a.kind === "flag").map((a) => a.text).join(" ");
  return `<tr data-number="${esc(b.number)}"><td class="n">${esc(b.number)}</td><td>${players}</td>` +
    `<td class="r">${res}${res && kazans(b) ? ` <small>${kazans(b)}</small>` : ""}</td><td>${esc(b.result_code || "")}</td><td class="${word(pull.state)}">${esc(log)}</td>` +
    `<td>${esc(flags)}</td></tr>`;
}

let tcShown = false;  // the round's control goes into the field once (a reload, a second tab), not over typing

function showRound(h) {
  const ev = obj(h.event);
  const round = num(ev.round) != null ? "round " + ev.round : "";
  const words = [ev.name, round, ev.date, ev.site].filter((x) => typeof x === "string" && x !== "");
  $("event").textContent = words.join(" \u00b7 ");
  $("results-event").textContent = words.length ? "\u00b7 " + words.join(" \u00b7 ") : "";
  const rows = list(h.boards).map(obj).filter((b) => !b.match).map((b) => { try { return resultRow(b); } catch (e) { return ""; } });
  const html = rows.join("");
  if ($("results-body").dataset.html !== html) { $("results-body").innerHTML = html; $("results-body").dataset.html = html; }
  if (!tcShown && typeof h.tc === "string" && h.tc && document.activeElement !== $("tc")) {
    $("tc").value = h.tc;
    tcShown = true;
  }
}

function lateText(r) {
  // boards started after the round (set up late): its late starts, never its spread
  const late = list(r.late).map(obj);
  const n = late.reduce((k, x) => k + (num(x.armed) || 0), 0);
  return n ? ` \u00b7 ${n} late start${n > 1 ? "s" : ""} (board${n > 1 ? "s" : ""} ` +
    late.flatMap((x) => Object.keys(obj(x.boards))).join(", ") + ")" : "";
}

let shownAt = null;  // the action last shown (its time): each tab shows what any tab did

function showAction(a) {
  if (!a) return;
  if (a.error) { $("action").textContent = a.error; return; }
  shownAt = a.at;
  const rows = Object.entries(obj(a.boards)).map(([n, v]) => [n, obj(v)]);
  const bad = rows.filter(([, v]) => v.ok === false).map(([n, v]) => `board ${n}: ${v.text}`);
  const skipped = rows.filter(([, v]) => v.ok === null).map(([n, v]) => `${n}: ${v.text}`);
  $("action").textContent = `${a.what}: ${a.done} done` + (a.failed ? `, ${a.failed} failed (${bad.join("; ")})` : "") +
    (a.skipped ? `, ${a.skipped} skipped (board ${skipped.join("; ")})` : "") + (a.note ? ` \u00b7 ${a.note}` : "");
}

// Sound and a browser notification at a board's first flag and at an alert, unless muted (kept in
// this browser). The first news of a board is not news: only what appears while the page is open.
const known = new Map();  // board number -> its alerts' kinds and texts as last seen
let muted = localStorage.getItem("sagat-muted") === "1";
let alertsHeard = 0;

function alertsOf(boards) {
  const fresh = [];
  for (const b of boards) {
    const key = String(b.number);
    const now = new Set(list(b.alerts).map(obj).map((a) => `${a.kind}: ${a.text}`));
    const before = known.get(key);
    if (before) for (const a of now) if (!before.has(a)) fresh.push(`board ${b.number}: ${a.replace(/^[a-z_]+: /, "")}`);
    known.set(key, now);
  }
  if (fresh.length) announce(fresh);
}

function announce(lines) {
  alertsHeard += 1;
  document.body.dataset.alerts = String(alertsHeard);
  $("alert-line").textContent = lines.join(" \u00b7 ");
  if (muted) return;
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const osc = ctx.createOscillator();
    osc.frequency.value = 880;
    osc.connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
    document.body.dataset.sounded = String(Number(document.body.dataset.sounded || 0) + 1);
  } catch (e) { /* no sound on this browser */ }
  if (window.Notification && Notification.permission === "granted") {
    try { new Notification("sagat hall", { body: lines.join("\n") }); } catch (e) { /* not here */ }
  }
}

function showMute() {
  $("btn-mute").textContent = muted ? "sound off" : "sound on";
  $("btn-mute").setAttribute("aria-pressed", String(!muted));
}

// A page whose hall stopped answering is greyed whole, and says since when.
let heard = Date.now();
setInterval(() => {
  const quiet = Date.now() - heard;
  if (quiet > 3000) {
    document.body.classList.add("stale");
    $("stale").textContent = `the hall is not answering: the boards below are as they were ${ago(quiet)} ago`;
  }
  if (projector && last.boards) render(last);  // (the projector's pages turn)
}, 1000);

async function post(path, body, button) {
  button.disabled = true;
  try {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                  body: JSON.stringify(body || {}) });
    showAction(await r.json());
  } catch (e) {
    $("action").textContent = "the hall did not answer: " + e;
  } finally {
    button.disabled = false;
  }
}

$("setup").addEventListener("submit", (ev) => {
  ev.preventDefault();
  post("/api/setup", { tc: $("tc").value, first: $("first").value, mode: $("mode").value || null }, $("btn-setup"));
});
// the hall's actions on every board: each asked once more (a stray click never starts a round)
const mine = () => list(last.boards).map(obj).filter((b) => !b.hall);
$("btn-start").addEventListener("click", (ev) => {
  const n = mine().filter((b) => b.state === "setup" && b.link === "up").length;
  if (window.confirm(`Start the round: every board set up for it starts at one instant (${n} in setup now)?`))
    post("/api/start", {}, ev.currentTarget);
});
$("btn-pause").addEventListener("click", (ev) => {
  if (window.confirm("Pause all: stop every running game (and an armed start)?")) post("/api/pause", {}, ev.currentTarget);
});
$("btn-resume").addEventListener("click", (ev) => {
  if (!window.confirm("Resume all: every paused game runs again?")) return;
  // a board whose clock restored its game after a power cut: its times are to be checked first (TK-C18)
  const restored = mine().filter((b) => b.restored === true && b.state === "paused").map((b) => b.number);
  const also = restored.length > 0 && window.confirm(
    `Board${restored.length > 1 ? "s" : ""} ${restored.join(", ")} restored after a power cut (TK-C18). Resume ` +
    `${restored.length > 1 ? "them" : "it"} too? (Cancel: the others only)`);
  post("/api/resume", { restored: also }, ev.currentTarget);
});
$("btn-print").addEventListener("click", () => window.print());
$("btn-mute").addEventListener("click", () => {
  muted = !muted;
  localStorage.setItem("sagat-muted", muted ? "1" : "0");
  showMute();
  if (!muted && window.Notification && Notification.permission === "default") Notification.requestPermission();
});
showMute();
$("btn-projector").addEventListener("click", () => {
  projector = !projector;
  history.replaceState(null, "", projector ? "#projector" : "#");
  document.body.classList.toggle("projector", projector);
  drawn.clear();
  if (last.boards) render(last);
});
document.body.classList.toggle("projector", projector);
$("tc").addEventListener("input", () => { tcShown = true; });

// on the press, not the click: the card may be drawn again between the press and the release
$("boards").addEventListener("pointerdown", (ev) => {
  const assign = ev.target.closest("[data-assign]");
  if (assign) {
    ev.preventDefault();
    const b = obj(lastBoards.get(assign.dataset.assign));
    if (window.confirm(`Board ${assign.dataset.assign}: make the clock now on its port (${b.stranger}) the board's clock?`))
      post(`/api/board/${encodeURIComponent(assign.dataset.assign)}/assign`, {}, assign);
    return;
  }
  const loc = ev.target.closest("[data-locate]");
  if (loc) {
    ev.preventDefault();
    post(`/api/board/${encodeURIComponent(loc.dataset.locate)}/locate`, {}, loc);
    return;
  }
  const arb = ev.target.closest("[data-arbiter]");
  if (arb) {
    ev.preventDefault();
    openAct(arb.dataset.arbiter);
    return;
  }
  const button = ev.target.closest("[data-result]");
  if (!button) return;
  ev.preventDefault();
  openResult(button.dataset.result);
});

// One board's corrections from the arbiter's seat (the hall signs them; the clock logs them): the
// action, its fields, and a sentence to confirm that names the board and the players.
const GAME_ACTS = {
  pause: ["pause (TK-C15)", []], resume: ["resume", []],
  adjust: ["adjust time, moves, stage (TK-C13)", ["side", "ms", "moves", "stage"]],
  extend: ["the 5-minute extension (TK-C14)", []], late_install: ["late installation (TK-C11)", ["elapsed_ms", "moves"]],
  adjourn: ["adjourn (TK-A1)", []], resume_adjourned: ["resume the adjourned game (TK-A4)", []],
  first: ["who moves first (before the start)", ["side"]],
};
const MATCH_ACTS = {
  start: ["start the period", []], stoppage: ["stoppage", []], resume: ["resume", []],
  score: ["score", ["side", "points"]], card: ["card", ["side", "kind"]], undo: ["undo the last score or card", []],
  result: ["the referee's result", ["winner"]],
  restart: ["restart the period from 0:00 (KB-3, before its first score)", []],
  adjust: ["set the period's clock (in a stoppage)", ["ms"]],
  toss: ["the toss's winner, in place of the clock's lot (KT-4.6)", ["side"]],
};

function actsOf(b) { return b.match ? MATCH_ACTS : GAME_ACTS; }

function openAct(n) {
  const b = obj(lastBoards.get(String(n)));
  const players = Array.isArray(b.players) ? `${b.players[0]} \u2013 ${b.players[1]}` : "left \u2013 right";
  $("act-title").textContent = `Board ${n}: ${players}`;
  const acts = actsOf(b);
  $("act-cmd").innerHTML = Object.entries(acts).map(([k, [label]]) => `<option value="${esc(k)}">${esc(label)}</option>`).join("");
  const faces = obj(b.faces);
  const left = obj(faces.left);
  if (num(left.moves) != null) $("act-moves").value = left.moves;
  if (num(left.stage) != null) $("act-stage").value = left.stage;
  $("act-dialog").dataset.board = String(n);
  showFields();
  $("act-dialog").showModal();
}

function showFields() {
  const b = obj(lastBoards.get($("act-dialog").dataset.board));
  const fields = (actsOf(b)[$("act-cmd").value] || [null, []])[1];
  for (const el of document.querySelectorAll("#act-fields [data-for]")) el.hidden = !fields.includes(el.dataset.for);
  $("act-question").textContent = "";
}

function msOf(text) {
  const parts = String(text).trim().split(":").map((x) => Number(x));
  if (!parts.length || parts.some((x) => !isFinite(x) || x < 0)) return null;
  return Math.round(parts.reduce((acc, x) => acc * 60 + x, 0) * 1000);
}

function actBody() {
  const b = obj(lastBoards.get($("act-dialog").dataset.board));
  const cmd = $("act-cmd").value;
  const body = { cmd };
  for (const f of (actsOf(b)[cmd] || [null, []])[1]) {
    if (f === "side") body.side = $("act-side").value;
    if (f === "ms") body.ms = msOf($("act-time").value);
    if (f === "moves") body.moves = Number($("act-moves").value);
    if (f === "stage") body.stage = Number($("act-stage").value);
    if (f === "elapsed_ms") body.elapsed_ms = Math.round(Number($("act-minutes").value) * 60000);
    if (f === "points") body.points = Number($("act-points").value);
    if (f === "kind") body.kind = $("act-kind").value;
    if (f === "winner") body.winner = $("act-winner").value;
  }
  return body;
}

$("act-cmd").addEventListener("change", showFields);
$("act-cancel").addEventListener("click", () => $("act-dialog").close());
$("act-do").addEventListener("click", (ev) => {
  const d = $("act-dialog");
  const n = d.dataset.board;
  const body = actBody();
  if (body.ms === null) { $("act-question").textContent = "the time is h:mm:ss or m:ss"; return; }
  const what = $("act-cmd").selectedOptions[0].textContent;
  const args = Object.entries(body).filter(([k]) => k !== "cmd").map(([k, v]) => `${k} ${k === "ms" ? $("act-time").value : v}`).join(", ");
  if (!window.confirm(`${$("act-title").textContent}: ${what}${args ? " (" + args + ")" : ""}?`)) return;
  d.close();
  post(`/api/board/${encodeURIComponent(n)}/act`, body, ev.currentTarget);
});

// Result entry: a row of buttons, then a confirmation that names the board, the players and the
// result in words; a result already entered is replaced (signed and logged: the last one counts).
function openResult(n) {
  const b = obj(lastBoards.get(String(n)));
  const players = Array.isArray(b.players) ? `${b.players[0]} \u2013 ${b.players[1]}` : "left \u2013 right";
  $("res-title").textContent = `Board ${n}: ${players}`;
  $("res-now").textContent = b.result ? `entered: ${b.result}; a new one replaces it (the last one counts)` : "";
  $("res-pick").innerHTML = RESULTS.map((r) =>
    `<button type="button" data-pick="${esc(r)}" title="${esc(RESULT_WORDS[r])}">${RESULT_TEXT[r]}</button>`).join("");
  $("res-confirm").hidden = true;
  $("res-pick").hidden = false;
  $("res-kazans").value = "";
  $("result-dialog").dataset.board = String(n);
  $("result-dialog").showModal();
}

$("res-pick").addEventListener("click", (ev) => {
  const pick = ev.target.closest("[data-pick]");
  if (!pick) return;
  const d = $("result-dialog");
  const b = obj(lastBoards.get(d.dataset.board));
  const r = pick.dataset.pick;
  const who = Array.isArray(b.players) ? ` (${b.players[0]} \u2013 ${b.players[1]})` : "";
  const k = $("res-kazans").value.trim();
  $("res-question").textContent = `Enter ${r} on board ${d.dataset.board}${who}: ${RESULT_WORDS[r]}` +
    (k ? `, kazans ${k}?` : "?");
  $("res-yes").dataset.pick = r;
  $("res-pick").hidden = true;
  $("res-confirm").hidden = false;
});
$("res-yes").addEventListener("click", (ev) => {
  const d = $("result-dialog");
  d.close();
  const body = { result: ev.currentTarget.dataset.pick };
  const k = $("res-kazans").value.trim();
  if (k) body.kazans = k;  // the final kazans, left's-right's (TK-R7): the clock checks them with the result
  post(`/api/board/${encodeURIComponent(d.dataset.board)}/result`, body, ev.currentTarget);
});
$("res-back").addEventListener("click", () => { $("res-confirm").hidden = true; $("res-pick").hidden = false; });
$("res-cancel").addEventListener("click", () => $("result-dialog").close());

// beyond this PC the page acts only where the address with the hall's access token was opened
let canAct = true;
const READ_ONLY = "open the address sagat hall printed to act";
fetch("/api/access").then((r) => r.json()).then((a) => {
  canAct = a.act === true;
  for (const el of document.querySelectorAll("#setup button, .actions button")) el.disabled = !canAct;
  drawn.clear();
}).catch(() => {});

const source = new EventSource("/api/events");
source.onmessage = (ev) => {
  $("conn").className = "dot up";
  heard = Date.now();
  document.body.classList.remove("stale");
  try { render(JSON.parse(ev.data)); } catch (e) { $("summary").textContent = "the page cannot show the hall: " + e; }
};
source.onerror = () => { $("conn").className = "dot lost"; $("summary").textContent = "the hall is not answering"; heard = Math.min(heard, Date.now() - 3001); };
