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

// The page's words: one table a language (static/lang/<lang>.json, English the fallback), t(key, {name: value})
// a word in the chosen language ({name} in it replaced); k(key): a key kept to be looked up later (the tests
// check that every t() and k() key is in every table). The language: the one chosen on this page (kept in
// this browser), else the hall's (`sagat hall --lang`, else the browser's Accept-Language).
const LANGS = ["kk", "ru", "ky", "en"];
let LANG = "en";
let WORDS = {};
let EN = {};
const k = (key) => key;
const decimal = (x) => (LANG === "en" ? String(x) : String(x).replace(".", ","));  // 3,5 in kk, ru, ky
function t(key, vars) {
  let s = Object.hasOwn(WORDS, key) ? WORDS[key] : Object.hasOwn(EN, key) ? EN[key] : key;
  if (vars) s = s.replace(/\{([a-z_]+)\}/g, (m, name) => (Object.hasOwn(vars, name) ? String(vars[name]) : m));
  return s;
}
// What the hall composes itself (a pull's verdict, an action's report and refusals, a board's link and key
// notes, the MQTT bridge's) comes as its English text and, beside it, a code (host/sagat/hall/said.py):
// {key, and its names' values}, each value a number, a text shown as it is (a port, the clock's own words) or
// a code of its own. said(msg, text): the code in the page's language when it is one of SAID's (and so is
// every code in it), else the English text as the hall sent it.
const SAID = new Set([
  k("alert_battery"), k("alert_broker_lost"), k("alert_garbage"), k("alert_hall_offline"), k("alert_link_lost"),
  k("alert_log_error"), k("alert_log_full"), k("alert_restore"), k("alert_stranger"), k("alert_twin_halls"),
  k("alert_unreachable"), k("alert_verify"), k("clash_also"), k("clash_port"), k("clash_shown_as"), k("cmd_adjourn"),
  k("cmd_adjust"), k("cmd_card"), k("cmd_extend"), k("cmd_late_install"), k("cmd_pause"), k("cmd_restart"),
  k("cmd_result"), k("cmd_resume"), k("cmd_resume_adjourned"), k("cmd_score"), k("cmd_start"), k("cmd_stoppage"),
  k("cmd_toss"), k("cmd_undo"), k("err_arg_range"), k("err_arg_word"), k("err_bad_tc"), k("err_board"),
  k("err_board_view"), k("err_busy"), k("err_clash"), k("err_first"), k("err_first_armed"),
  k("err_first_before_start"), k("err_garbage"), k("err_garbage_identify"), k("err_give_cmd"), k("err_give_tc"),
  k("err_kazans"), k("err_mode"), k("err_mode_name"),
  k("err_no_answer"), k("err_no_board"), k("err_no_game"), k("err_no_state"), k("err_no_ticks"),
  k("err_not_a_game_action"), k("err_not_a_match_action"), k("err_not_connected"), k("err_other_hall"),
  k("err_read_only"), k("err_result"), k("err_side"), k("err_start_cancelled"), k("err_takes"),
  k("err_takes_nothing"), k("err_tc_unknown"), k("err_view_failed"), k("key_clock_none"), k("key_hall_none"),
  k("key_not_this_clocks"), k("link_error"), k("list_comma"), k("list_semicolon"), k("log_unkeyed"),
  k("log_verified"), k("match_break_changeover"), k("match_break_rest"), k("mqtt_connecting"), k("mqtt_no_broker"),
  k("mqtt_refused"), k("mqtt_twin"), k("note_cannot_write"), k("note_mqtt"), k("note_no_clocks"),
  k("note_no_usb_list"), k("note_other_halls"), k("note_paused_there"), k("note_resumed_there"),
  k("note_set_up_there"), k("note_started_there"), k("now_a_match"), k("now_the_clock_is"), k("pull_failed"),
  k("pull_failed_tries"), k("pull_not_verified"), k("pull_pulling"), k("pull_pulling_again"), k("pull_retrying"),
  k("pull_unkeyed_code"), k("pull_verified_code"), k("remote_offline"), k("remote_pulling"), k("remote_reported"),
  k("remote_retrying"), k("remote_silent"), k("remote_stale"), k("remote_unkeyed"), k("side_left"), k("side_right"),
  k("skip_armed"), k("skip_game_on"), k("skip_game_or_match_on"), k("skip_match"), k("skip_not_by_this_hall"),
  k("skip_not_connected"), k("skip_not_set_up"), k("skip_restored"), k("skip_set_up_at_table"), k("skip_stranger"),
  k("state_adjourned"), k("state_finished"), k("state_flagged"), k("state_idle"), k("state_paused"),
  k("state_running"), k("state_setup"), k("there_act"), k("there_result"), k("what_act"), k("what_assign"),
  k("what_first"), k("what_identify"), k("what_pause_all"), k("what_result"), k("what_result_kazans"),
  k("what_resume_all"), k("what_set_up"), k("what_start_round")
]);
function sayCode(m, depth) {
  if (typeof m === "string") return m;
  if (typeof m === "number" && isFinite(m)) return String(m);
  if (depth > 6 || !m || typeof m !== "object" || Array.isArray(m) || typeof m.key !== "string" || !SAID.has(m.key))
    return null;
  const vars = Object.create(null);
  for (const [name, v] of Object.entries(m)) {
    if (name === "key") continue;
    const s = sayCode(v, depth + 1);
    if (s == null) return null;
    vars[name] = s;
  }
  return t(m.key, vars);
}
function said(msg, text) {
  const s = msg && typeof msg === "object" ? sayCode(msg, 0) : null;
  return s == null ? String(text == null ? "" : text) : s;
}

async function table(lang) {
  const r = await fetch(`/static/lang/${lang}.json`);
  if (!r.ok) throw new Error(`${lang}.json: ${r.status}`);
  return r.json();
}
// the page's fixed words: data-i18n (the text), data-i18n-title, data-i18n-placeholder
function translatePage() {
  document.documentElement.lang = LANG;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  if ($("lang")) $("lang").value = LANG;
  document.body.dataset.lang = LANG;
}
async function setLang(lang) {
  if (!LANGS.includes(lang)) lang = "en";
  if (!Object.keys(EN).length) EN = await table("en");
  WORDS = lang === "en" ? EN : await table(lang);
  LANG = lang;
  translatePage();
}

function mmss(ms) {
  const s = Math.ceil(ms / 1000);
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function ago(ms) {
  const s = Math.floor(ms / 1000);
  return s < 60 ? t("ago_s", { s }) : s < 3600 ? t("ago_min", { m: Math.floor(s / 60), s: s % 60 }) :
    t("ago_h", { h: Math.floor(s / 3600), m: Math.floor(s / 60) % 60 });
}

function face(b, side) {
  const f = obj(obj(b.faces)[side]);
  const cls = ["face", side];
  if (b.running === side) cls.push("running");
  if (f.flag) cls.push("flagged");
  if (f.low) cls.push("low");
  const marks = [];
  if (f.flag) marks.push(`<span class="mark flag">${esc(t("mark_flag"))}</span>`);
  if (f.flag && f.first) marks.push(`<span class="mark first">${esc(t("mark_first"))}</span>`);
  if (f.low) marks.push(`<span class="mark low">${esc(t("mark_low"))}</span>`);
  if (f.default) marks.push(`<span class="mark def" title="${esc(t("mark_def_title"))}">${esc(t("mark_def"))}</span>`);
  if (f.stage_mark) marks.push(`<span class="mark st" title="${esc(t("mark_stage_title"))}">${esc(t("mark_stage"))}</span>`);
  const who = Array.isArray(b.players) ? b.players[side === "left" ? 0 : 1] : sideWord(side);  // (the projector's)
  return `<div class="${cls.join(" ")}" data-side="${side}" data-flag="${esc(num(f.flag) ?? 0)}">
    <div class="who">${esc(who)}</div>
    <div class="time">${esc(f.text ?? "-")}</div>
    <div class="sub">${esc(t("face_sub", { moves: num(f.moves) ?? "-", stage: num(f.stage) ?? "-" }))}</div>
    <div class="marks">${marks.join("")}</div></div>`;
}

function matchView(b) {
  const m = obj(b.match);
  const left = obj(m.left), right = obj(m.right);
  const cards = (s) => "W".repeat(Math.min(num(s.warnings) || 0, 9)) + "R".repeat(Math.min(num(s.reds) || 0, 9));
  const won = m.winner ? ` &middot; ${esc(m.winner === "none" ? t("match_draw") : t("match_winner", { side: sideWord(m.winner) }))} (${esc(m.why)})` : "";
  // the break's countdown (KB-6, KT-4.4), the running stoppage (KB-16, KT-4.5), the time added back (KT-4.5)
  const run = [];
  if (typeof m.break === "string") run.push(`<span class="brk" title="${esc(t("match_break_title"))}">${esc(said(m.break_msg, m.break))}</span>`);
  if (typeof m.stoppage === "string") run.push(`<span class="stoppage" title="${esc(t("match_stoppage_title"))}">${esc(t("match_stoppage", { time: m.stoppage }))}</span>`);
  if (typeof m.stopped === "string") run.push(`<span class="added" title="${esc(t("match_stopped_title"))}">${esc(t("match_stopped", { time: m.stopped }))}</span>`);
  // the names the clock logged, when they are not the pairing's the tile shows above
  const names = Array.isArray(m.names) && m.names.length === 2 ? m.names : null;
  const other = names && !(Array.isArray(b.players) && b.players[0] === names[0] && b.players[1] === names[1]);
  return `<div class="match"><div class="sub">${esc(b.mode)} &middot; ${esc(m.period)} &middot; ${esc(m.time)}${won}</div>
    <div class="score">${esc(num(left.score) ?? 0)} : ${esc(num(right.score) ?? 0)}</div>
    <div class="sub">${cards(left)} &nbsp; ${cards(right)}</div>` +
    (run.length ? `<div class="sub run">${run.join(" &middot; ")}</div>` : "") +
    (other ? `<div class="sub clock-names" title="${esc(t("match_names_title"))}">${esc(t("match_names", { left: names[0], right: names[1] }))}</div>` : "") +
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
  const battery = num(b.battery) == null ? "" : ` &middot; ${esc(t("battery", { pct: b.battery }))}`;
  const rtt = num(b.rtt_ms) == null ? "" : ` ${esc(t("ms", { ms: decimal(b.rtt_ms) }))}`;
  const where = b.hall ? ` &middot; ${esc(t("hall_of", { hall: b.hall }))}` : "";
  const error = b.error ? said(b.error_msg, b.error) : "";  // (the link's: the hall's words, or the port's as they came)
  const meta = `<span class="dot ${word(b.link)}" title="${esc(error || linkWord(b.link))}"></span> ${esc(linkWord(b.link))}${rtt}${battery}${where}`;
  let body;
  if (b.link !== "up" && !b.state) body = `<div class="sub">${esc(error || t("connecting"))}</div>`;
  else if (b.match) body = matchView(b);
  else body = `<div class="faces">${face(b, "left")}${face(b, "right")}</div>`;
  // the result entered, large, beside its code (the scoresheet's proof): as the clock's faces show it
  const res = typeof b.result === "string" && Object.hasOwn(RESULT_TEXT, b.result) ? RESULT_TEXT[b.result] : null;
  if (res) body += `<div class="res"><span class="result" data-result-shown="${esc(b.result)}">${res}</span>` +
    (kazans(b) ? `<span class="code" title="${esc(t("kazans_title"))}">${kazans(b)}</span>` : "") +
    (b.result_code ? `<span class="code">${esc(t("code", { code: b.result_code }))}</span>` : "") + `</div>`;
  else if (b.result_code) body += `<div class="res"><span class="code">${esc(t("code", { code: b.result_code }))}</span></div>`;
  const foot = [`<span class="state">${esc(b.armed ? t("state_armed") : stateWord(b.state))}</span>`,
                `<span>${esc(b.mode === "game" ? t("mode_game") : b.mode)}${b.game != null ? " " + esc(b.game) : ""}</span>`];
  if (typeof b.tc === "string" && !b.match) foot.push(`<span class="tc" title="${esc(t("tc_title"))}">${esc(b.tc)}</span>`);
  const seen = num(b.seen_ms);
  if (b.link !== "up" && seen != null) foot.push(`<span class="seen">${esc(t("seen_ago", { ago: ago(seen) }))}</span>`);
  if (b.flag_note) foot.push(`<span class="flag-note" title="${esc(t("flag_note_title"))}">${esc(flagText(b.flag_note))}</span>`);

  if (num(start.dev_ms) != null) foot.push(`<span title="${esc(t("start_dev_title", { err: num(start.err_ms) }))}">${esc(t("start_dev", { dev: (start.dev_ms >= 0 ? "+" : "") + start.dev_ms }))}</span>`);
  if (pull.state && pull.state !== "idle") foot.push(`<span class="${word(pull.state)}" data-pull="${esc(pull.state)}">${esc(said(pull.msg, pull.message))}</span>`);
  else foot.push(`<span>${esc(b.log_full ? t("log_full") : b.log_error ? t("log_error") : t("log_ok"))}</span>`);
  const lastGame = obj(b.last_game);
  const lastPull = obj(lastGame.pull);
  if (num(lastGame.protest_ms) != null)  // the last game's verdict and TK-P1 window, while it runs
    foot.push(`<span class="last-game" title="${esc(t("last_game_title"))}">${esc(t("last_game", { game: num(lastGame.game) }))} <span class="${word(lastPull.state)}">${esc(said(lastPull.msg, lastPull.message))}</span> &middot; ${esc(t("protest_left", { left: mmss(lastGame.protest_ms) }))}</span>`);
  const protest = num(b.protest_ms);
  if (protest != null) foot.push(`<span title="${esc(t("protest_title"))}">${esc(protest > 0 ? t("protest_left", { left: mmss(protest) }) : t("protest_closed"))}</span>`);
  if (b.message && !b.result_code) foot.push(`<span>${esc(b.message)}</span>`);
  if (b.link === "up" && !b.match && !b.hall && b.state && canAct)
    foot.push(`<button class="small" data-result="${esc(b.number)}" title="${esc(b.result ? t("btn_change_result_title") : t("btn_result_title"))}">${esc(b.result ? t("btn_change_result") : t("btn_result"))}&hellip;</button>`);
  if (b.link === "up" && !b.hall && canAct)
    foot.push(`<button class="small" data-locate="${esc(b.number)}" title="${esc(t("btn_identify_title"))}">${esc(t("btn_identify"))}</button>`);
  if (b.link === "up" && !b.hall && b.state && !b.stranger && canAct)
    foot.push(`<button class="small" data-arbiter="${esc(b.number)}" title="${esc(t("btn_arbiter_title"))}">${esc(t("btn_arbiter"))}&hellip;</button>`);
  if (b.stranger && !b.hall && canAct)
    foot.push(`<button class="small" data-assign="${esc(b.number)}" title="${esc(t("btn_assign_title"))}">${esc(t("btn_assign"))}&hellip;</button>`);
  const alertText = alerts.map((a) => `<span class="${word(a.kind)}">${esc(alertWord(a))}</span>`).join("");
  return `<article class="${cls.join(" ")}" id="board-${esc(b.number)}" data-number="${esc(b.number)}" data-state="${esc(b.state)}" data-link="${esc(b.link)}">
    <div class="top"><span class="num">${esc(b.number)}</span><span class="meta">${meta}</span></div>
    <div class="players">${players || "&nbsp;"}</div>
    ${body}<div class="foot">${foot.join("")}</div><div class="alerts">${alertText}</div></article>`;
}

// the results (left-right, as the pairings: 1-0 the left player won), as shown; forfeits TK-R4
const RESULTS = ["1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-"];
const RESULT_TEXT = {"1-0": "1&ndash;0", "0-1": "0&ndash;1", "1/2-1/2": "&frac12;&ndash;&frac12;",
                     "+/-": "+/&minus;", "-/+": "&minus;/+", "-/-": "&minus;/&minus;"};
const RESULT_WORDS = {"1-0": k("res_1-0"), "0-1": k("res_0-1"), "1/2-1/2": k("res_draw"), "+/-": k("res_+/-"),
                      "-/+": k("res_-/+"), "-/-": k("res_-/-")};

// the words of what the hall sends as its own names (a board's state, its link), and its fixed alerts
const STATE_WORDS = {idle: k("state_idle"), setup: k("state_setup"), running: k("state_running"),
                     paused: k("state_paused"), flagged: k("state_flagged"), adjourned: k("state_adjourned"),
                     finished: k("state_finished")};
const LINK_WORDS = {up: k("link_up"), lost: k("link_lost"), unreachable: k("link_unreachable"), error: k("link_error"),
                    connecting: k("link_connecting")};
const ALERT_WORDS = {"link lost": k("alert_link_lost"), "clock unreachable": k("alert_unreachable"),
                     "garbage from the clock": k("alert_garbage"), "low battery": k("alert_battery"),
                     "log full": k("alert_log_full"), "log error": k("alert_log_error"),
                     "power cut: the clock restored its game, paused; check the times before resuming (TK-C18)":
                       k("alert_restore")};
const stateWord = (s) => (typeof s === "string" && Object.hasOwn(STATE_WORDS, s) ? t(STATE_WORDS[s]) : String(s || "-"));
const linkWord = (s) => (typeof s === "string" && Object.hasOwn(LINK_WORDS, s) ? t(LINK_WORDS[s]) : String(s || ""));
const sideWord = (s) => (s === "left" ? t("side_left") : s === "right" ? t("side_right") : String(s));
// "FLAG left (1st) right", the hall's words for a board's flags, in the page's
function flagText(text) {
  const m = /^FLAG ((?:left|right)(?: \(1st\))?)(?: ((?:left|right)(?: \(1st\))?))?$/.exec(String(text));
  if (!m) return String(text);
  const one = (x) => sideWord(x.split(" ")[0]) + (x.endsWith("(1st)") ? " (" + t("flag_first") + ")" : "");
  return t("mark_flag") + " " + [m[1], m[2]].filter(Boolean).map(one).join(" ");
}
function alertWord(a) {
  const text = String(a.text);
  if (a.kind === "flag") return flagText(text);
  if (a.msg != null) return said(a.msg, text);
  if (Object.hasOwn(ALERT_WORDS, text)) return t(ALERT_WORDS[text]);  // (a hall of before the codes)
  return text;
}
const lastBoards = new Map();  // board number -> its last view (the dialog names the players)

function brokenCard(b, e) {
  // one board that cannot be drawn says so; the others are drawn all the same
  return `<article class="board alert down" id="board-${esc(b && b.number)}" data-number="${esc(b && b.number)}" data-link="error">
    <div class="top"><span class="num">${esc(b && b.number)}</span></div>
    <div class="sub">${esc(t("board_broken", { why: e }))}</div></article>`;
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
  $("page").textContent = pages > 1 ? t("page_of", { page: page + 1, pages }) : "";
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
  $("summary").textContent = t("summary", { boards: all.length, up }) + (flags ? t("summary_flagged", { flags }) : "") +
    (h.discover_error ? " \u00b7 " + said(h.discover_error_msg, h.discover_error) : "") +
    (h.error ? " \u00b7 " + said(h.msg, h.error) : "") + (canAct ? "" : " \u00b7 " + t("read_only"));
  // the hall without --key: its actions are unsigned and no log it pulls can be verified (a failed
  // view says nothing of the key: the warning stays as it was)
  if (typeof h.key === "boolean") $("nokey").hidden = h.key;
  const r = h.round;
  if (!r) $("round").textContent = "";
  else if (!r.measured) $("round").textContent = t("round_armed", { n: r.armed });
  else $("round").textContent = (r.spread_ms == null ? t("round_none") :
    t("round_started", { n: r.started, spread: r.spread_ms, err: r.err_ms })) + lateText(r);
  $("round").dataset.spread = r && r.spread_ms != null ? r.spread_ms : "";
  showRound(h);
}

// The round's results table (one A4 page in print): every board of this hall and the halls it shows
const LOG_WORDS = {verified: k("log_verified"), unkeyed: k("log_unkeyed"), failed: k("log_failed"),
                   pulling: k("log_pulling"), retrying: k("log_retrying"), reported: k("log_reported")};

// a game's final kazans as entered with its result (TK-R7): "82-79", or ""
function kazans(b) {
  const k = list(b.kazans);
  return k.length === 2 && k.every((x) => Number.isInteger(x)) ? `${k[0]}-${k[1]}` : "";
}

function resultRow(b) {
  const players = Array.isArray(b.players) ? `${esc(b.players[0])} &ndash; ${esc(b.players[1])}` : "";
  const res = typeof b.result === "string" && Object.hasOwn(RESULT_TEXT, b.result) ? RESULT_TEXT[b.result] : "";
  const pull = obj(b.pull);
  const log = typeof pull.state === "string" && Object.hasOwn(LOG_WORDS, pull.state) ? t(LOG_WORDS[pull.state]) : "";
  const flags = b.flag_note ? flagText(b.flag_note) :
    list(b.alerts).map(obj).filter((a) => a.kind === "flag").map((a) => flagText(a.text)).join(" ");
  return `<tr data-number="${esc(b.number)}"><td class="n">${esc(b.number)}</td><td>${players}</td>` +
    `<td class="r">${res}${res && kazans(b) ? ` <small>${kazans(b)}</small>` : ""}</td><td>${esc(b.result_code || "")}</td><td class="${word(pull.state)}">${esc(log)}</td>` +
    `<td>${esc(flags)}</td></tr>`;
}

let tcShown = false;  // the round's control goes into the field once (a reload, a second tab), not over typing

function showRound(h) {
  const ev = obj(h.event);
  const round = num(ev.round) != null ? t("round_n", { n: ev.round }) : "";
  const words = [ev.name, round, dateText(ev.date), ev.site].filter((x) => typeof x === "string" && x !== "");
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
  return n ? " \u00b7 " + t("late_starts", { n, boards: late.flatMap((x) => Object.keys(obj(x.boards))).join(", ") }) : "";
}

const MONTHS = [k("month_1"), k("month_2"), k("month_3"), k("month_4"), k("month_5"), k("month_6"), k("month_7"),
                k("month_8"), k("month_9"), k("month_10"), k("month_11"), k("month_12")];  // (in the genitive where it has one)
// a YYYY-MM-DD date as the page's language writes it (7 желтоқсан 2026, 7 декабря 2026, 7-декабрь 2026; English: ISO)
function dateText(iso) {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(String(iso || ""));
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return iso;
  return t("date", { d: Number(m[3]), month: t(MONTHS[Number(m[2]) - 1]), y: m[1], iso: m[0] });
}

let shownAt = null;  // the action last shown (its time): each tab shows what any tab did

function showAction(a) {
  if (!a) return;
  if (a.error) { $("action").textContent = said(a.msg, a.error); return; }
  shownAt = a.at;
  const rows = Object.entries(obj(a.boards)).map(([n, v]) => [n, obj(v)]);
  const bad = rows.filter(([, v]) => v.ok === false).map(([n, v]) => `${t("board_n", { n })}: ${said(v.msg, v.text)}`);
  const skipped = rows.filter(([, v]) => v.ok === null).map(([n, v]) => `${t("board_n", { n })}: ${said(v.msg, v.text)}`);
  $("action").textContent = t("action_done", { what: said(a.what_msg, a.what), done: a.done }) +
    (a.failed ? t("action_failed", { n: a.failed, why: bad.join("; ") }) : "") +
    (a.skipped ? t("action_skipped", { n: a.skipped, why: skipped.join("; ") }) : "") +
    (a.note ? ` \u00b7 ${said(a.note_msg, a.note)}` : "");
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
    const now = new Map(list(b.alerts).map(obj).map((a) => [`${a.kind}: ${a.text}`, a]));
    const before = known.get(key);
    if (before) for (const [seen, a] of now) if (!before.has(seen)) fresh.push(`${t("board_n", { n: b.number })}: ${alertWord(a)}`);
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
  $("btn-mute").textContent = muted ? t("sound_off") : t("sound_on");
  $("btn-mute").setAttribute("aria-pressed", String(!muted));
}

// A page whose hall stopped answering is greyed whole, and says since when.
let heard = Date.now();
setInterval(() => {
  const quiet = Date.now() - heard;
  if (quiet > 3000) {
    document.body.classList.add("stale");
    $("stale").textContent = t("stale", { ago: ago(quiet) });
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
    $("action").textContent = t("no_answer", { why: e });
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
  if (window.confirm(t("confirm_start", { n })))
    post("/api/start", {}, ev.currentTarget);
});
$("btn-pause").addEventListener("click", (ev) => {
  if (window.confirm(t("confirm_pause"))) post("/api/pause", {}, ev.currentTarget);
});
$("btn-resume").addEventListener("click", (ev) => {
  if (!window.confirm(t("confirm_resume"))) return;
  // a board whose clock restored its game after a power cut: its times are to be checked first (TK-C18)
  const restored = mine().filter((b) => b.restored === true && b.state === "paused").map((b) => b.number);
  const also = restored.length > 0 && window.confirm(t("confirm_restored", { boards: restored.join(", ") }));
  post("/api/resume", { restored: also }, ev.currentTarget);
});
$("btn-print").addEventListener("click", () => window.print());
$("btn-mute").addEventListener("click", () => {
  muted = !muted;
  localStorage.setItem("sagat-muted", muted ? "1" : "0");
  showMute();
  if (!muted && window.Notification && Notification.permission === "default") Notification.requestPermission();
});
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
    if (window.confirm(t("confirm_assign", { n: assign.dataset.assign, clock: b.stranger })))
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
  pause: [k("act_pause"), []], resume: [k("act_resume"), []],
  adjust: [k("act_adjust"), ["side", "ms", "moves", "stage"]],
  extend: [k("act_extend"), []], late_install: [k("act_late_install"), ["elapsed_ms", "moves"]],
  adjourn: [k("act_adjourn"), []], resume_adjourned: [k("act_resume_adjourned"), []],
  first: [k("act_first"), ["side"]],
};
const MATCH_ACTS = {
  start: [k("mact_start"), []], stoppage: [k("mact_stoppage"), []], resume: [k("act_resume"), []],
  score: [k("mact_score"), ["side", "points"]], card: [k("mact_card"), ["side", "kind"]], undo: [k("mact_undo"), []],
  result: [k("mact_result"), ["winner"]],
  restart: [k("mact_restart"), []],
  adjust: [k("mact_adjust"), ["ms"]],
  toss: [k("mact_toss"), ["side"]],
};
// the names of an action's fields in its confirmation
const FIELD_WORDS = {side: k("arg_side"), ms: k("arg_ms"), moves: k("arg_moves"), stage: k("arg_stage"),
                     elapsed_ms: k("arg_elapsed_ms"), points: k("arg_points"), kind: k("arg_kind"), winner: k("arg_winner")};

function actsOf(b) { return b.match ? MATCH_ACTS : GAME_ACTS; }

function openAct(n) {
  const b = obj(lastBoards.get(String(n)));
  const players = Array.isArray(b.players) ? `${b.players[0]} \u2013 ${b.players[1]}` : `${t("side_left")} \u2013 ${t("side_right")}`;
  $("act-title").textContent = `${t("board_title", { n })}: ${players}`;
  const acts = actsOf(b);
  $("act-cmd").innerHTML = Object.entries(acts).map(([cmd, [label]]) => `<option value="${esc(cmd)}">${esc(t(label))}</option>`).join("");
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
  if (body.ms === null) { $("act-question").textContent = t("bad_time"); return; }
  const what = $("act-cmd").selectedOptions[0].textContent;
  const value = (f, v) => (f === "ms" ? $("act-time").value : f === "side" || f === "winner" ? (v === "none" ? t("winner_none") : sideWord(v)) :
    f === "kind" ? (v === "red" ? t("card_red") : t("card_warning")) : v);
  const args = Object.entries(body).filter(([f]) => f !== "cmd")
    .map(([f, v]) => `${Object.hasOwn(FIELD_WORDS, f) ? t(FIELD_WORDS[f]) : f} ${value(f, v)}`).join(", ");
  if (!window.confirm(`${$("act-title").textContent}: ${what}${args ? " (" + args + ")" : ""}?`)) return;
  d.close();
  post(`/api/board/${encodeURIComponent(n)}/act`, body, ev.currentTarget);
});

// Result entry: a row of buttons, then a confirmation that names the board, the players and the
// result in words; a result already entered is replaced (signed and logged: the last one counts).
function openResult(n) {
  const b = obj(lastBoards.get(String(n)));
  const players = Array.isArray(b.players) ? `${b.players[0]} \u2013 ${b.players[1]}` : `${t("side_left")} \u2013 ${t("side_right")}`;
  $("res-title").textContent = `${t("board_title", { n })}: ${players}`;
  $("res-now").textContent = b.result ? t("res_entered", { result: b.result }) : "";
  $("res-pick").innerHTML = RESULTS.map((r) =>
    `<button type="button" data-pick="${esc(r)}" title="${esc(t(RESULT_WORDS[r]))}">${RESULT_TEXT[r]}</button>`).join("");
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
  const kz = $("res-kazans").value.trim();
  $("res-question").textContent = t("res_question", { result: r, n: d.dataset.board, who, words: t(RESULT_WORDS[r]) }) +
    (kz ? t("res_question_kazans", { kazans: kz }) : "?");
  $("res-yes").dataset.pick = r;
  $("res-pick").hidden = true;
  $("res-confirm").hidden = false;
});
$("res-yes").addEventListener("click", (ev) => {
  const d = $("result-dialog");
  d.close();
  const body = { result: ev.currentTarget.dataset.pick };
  const kz = $("res-kazans").value.trim();
  if (kz) body.kazans = kz;  // the final kazans, left's-right's (TK-R7): the clock checks them with the result
  post(`/api/board/${encodeURIComponent(d.dataset.board)}/result`, body, ev.currentTarget);
});
$("res-back").addEventListener("click", () => { $("res-confirm").hidden = true; $("res-pick").hidden = false; });
$("res-cancel").addEventListener("click", () => $("result-dialog").close());

// beyond this PC the page acts only where the address with the hall's access token was opened
let canAct = true;
let source = null;  // the hall's stream (once the page's words are in)
function start() {
fetch("/api/access").then((r) => r.json()).then((a) => {
  canAct = a.act === true;
  for (const el of document.querySelectorAll("#setup button, .actions button")) el.disabled = !canAct;
  drawn.clear();
}).catch(() => {});

source = new EventSource("/api/events");
source.onmessage = (ev) => {
  $("conn").className = "dot up";
  heard = Date.now();
  document.body.classList.remove("stale");
  try { render(JSON.parse(ev.data)); } catch (e) { $("summary").textContent = t("cannot_show", { why: e }); }
};
source.onerror = () => { $("conn").className = "dot lost"; $("summary").textContent = t("not_answering"); heard = Math.min(heard, Date.now() - 3001); };
}

// the page in another language, at once: its fixed words, the cards, the table (the choice kept in this browser)
$("lang").addEventListener("change", async () => {
  const lang = $("lang").value;
  localStorage.setItem("sagat-lang", lang);
  try { await setLang(lang); } catch (e) { $("action").textContent = String(e); return; }
  showMute();
  drawn.clear();
  $("results-body").dataset.html = "";
  if (last.boards) render(last);
});

// the language first (this browser's choice, else the hall's), then the hall
(async () => {
  let lang = localStorage.getItem("sagat-lang");
  if (!LANGS.includes(lang)) {
    try { lang = (await (await fetch("/api/lang")).json()).lang; } catch (e) { lang = "en"; }
  }
  try { await setLang(lang); } catch (e) { try { await setLang("en"); } catch (e2) { /* the keys, then */ } }
  showMute();
  start();
})();
