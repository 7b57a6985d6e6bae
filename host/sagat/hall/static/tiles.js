// One board's card, as its clock shows it: the faces (a game) or the match's score, the result entered,
// the foot (state, control, log, protest window, the arbiter's buttons) and its alerts; the results as
// the page writes them.

import { esc, list, num, obj, word } from "./dom.js";
import { canAct } from "./act.js";
import { ago, alertWord, decimal, flagText, k, linkWord, mmss, said, sideWord, stateWord, t } from "./words.js";

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

export function card(b) {
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
export const RESULTS = ["1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-"];
export const RESULT_TEXT = {"1-0": "1&ndash;0", "0-1": "0&ndash;1", "1/2-1/2": "&frac12;&ndash;&frac12;",
                     "+/-": "+/&minus;", "-/+": "&minus;/+", "-/-": "&minus;/&minus;"};
export const RESULT_WORDS = {"1-0": k("res_1-0"), "0-1": k("res_0-1"), "1/2-1/2": k("res_draw"), "+/-": k("res_+/-"),
                      "-/+": k("res_-/+"), "-/-": k("res_-/-")};

export function brokenCard(b, e) {
  // one board that cannot be drawn says so; the others are drawn all the same
  return `<article class="board alert down" id="board-${esc(b && b.number)}" data-number="${esc(b && b.number)}" data-link="error">
    <div class="top"><span class="num">${esc(b && b.number)}</span></div>
    <div class="sub">${esc(t("board_broken", { why: e }))}</div></article>`;
}

// a game's final kazans as entered with its result (TK-R7): "82-79", or ""
export function kazans(b) {
  const k = list(b.kazans);
  return k.length === 2 && k.every((x) => Number.isInteger(x)) ? `${k[0]}-${k[1]}` : "";
}
