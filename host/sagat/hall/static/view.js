// The hall's view drawn: each board's card in place (only the cards that changed), a projector's pages,
// the summary line, the round's line and the round's results table.

import { $, esc, list, num, obj, word } from "./dom.js";
import { canAct, showAction, shownAt } from "./act.js";
import { alertsOf } from "./alerts.js";
import { RESULT_TEXT, brokenCard, card, kazans } from "./tiles.js";
import { dateText, flagText, k, said, t } from "./words.js";

export const lastBoards = new Map();  // board number -> its last view (the dialog names the players)

export const drawn = new Map();  // board number -> the card's HTML as last drawn

export let last = {};  // the hall's last view (the confirmations count its boards)

// The projector view: 32 boards a screen (8 x 4 on 1920x1080), the pages in turn every 10 s.
const PAGE = 32;
const PAGE_MS = 10000;
export let projector = location.hash === "#projector";
export function setProjector(on) { projector = on; }
function pageOf(boards) {
  if (!projector || boards.length <= PAGE) return { list: boards, page: 0, pages: 1 };
  const pages = Math.ceil(boards.length / PAGE);
  const page = Math.floor(Date.now() / PAGE_MS) % pages;
  return { list: boards.slice(page * PAGE, page * PAGE + PAGE), page, pages };
}

export function render(h) {
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
export function tcTyped() { tcShown = true; }

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
