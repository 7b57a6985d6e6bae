// The arbiter's dialogs on one board: its corrections (the actions the clock takes, as the hall offers
// them) and its result; each asked once more in a sentence that names the board and the players.

import { $, esc, list, num, obj } from "./dom.js";
import { post, refusal } from "./act.js";
import { RESULTS, RESULT_TEXT, RESULT_WORDS } from "./tiles.js";
import { lastBoards } from "./view.js";
import { hasWord, k, sideWord, t } from "./words.js";

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
// action, its fields, and a sentence to confirm that names the board and the players. The actions are
// the clock's own (sagatfw/ui/actions.py), as the hall offers them (/api/actions, host/sagat/hall/acts.py):
// for a game and for a match, each action's name, the fields it takes and the key of its words.
let ACTS = null;
export async function loadActs() {
  const r = await fetch("/api/actions");
  if (!r.ok) throw new Error(`/api/actions: ${r.status}`);
  const a = obj(await r.json());
  const table = (rows) => new Map(list(rows).map(obj).filter((x) => typeof x.cmd === "string")
    .map((x) => [x.cmd, { label: String(x.label), args: list(x.args) }]));
  ACTS = { game: table(a.game), match: table(a.match) };
}

// the names of an action's fields in its confirmation
const FIELD_WORDS = {side: k("arg_side"), ms: k("arg_ms"), moves: k("arg_moves"), stage: k("arg_stage"),
                     elapsed_ms: k("arg_elapsed_ms"), points: k("arg_points"), kind: k("arg_kind"), winner: k("arg_winner")};

function actsOf(b) { return ACTS ? (b.match ? ACTS.match : ACTS.game) : new Map(); }
const argsOf = (b, cmd) => (actsOf(b).get(cmd) || { args: [] }).args;

async function openAct(n) {
  if (!ACTS) {  // (not had at the page's start: asked now)
    try { await loadActs(); } catch (e) { $("action").textContent = t("no_answer", { why: e }); return; }
  }
  const b = obj(lastBoards.get(String(n)));
  const players = Array.isArray(b.players) ? `${b.players[0]} \u2013 ${b.players[1]}` : `${t("side_left")} \u2013 ${t("side_right")}`;
  $("act-title").textContent = `${t("board_title", { n })}: ${players}`;
  const acts = actsOf(b);
  $("act-cmd").innerHTML = Array.from(acts).map(([cmd, a]) =>
    `<option value="${esc(cmd)}">${esc(hasWord(a.label) ? t(a.label) : cmd)}</option>`).join("");
  const faces = obj(b.faces);
  const left = obj(faces.left);
  if (num(left.moves) != null) $("act-moves").value = left.moves;
  if (num(left.stage) != null) $("act-stage").value = left.stage;
  $("act-dialog").dataset.board = String(n);
  $("act-refused").textContent = "";
  showFields();
  $("act-dialog").showModal();
}

function showFields() {
  const b = obj(lastBoards.get($("act-dialog").dataset.board));
  const fields = argsOf(b, $("act-cmd").value);
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
  for (const f of argsOf(b, cmd)) {
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
  $("act-refused").textContent = "";
  done(d, $("act-refused"), post(`/api/board/${encodeURIComponent(n)}/act`, body, ev.currentTarget));
});

// A dialog's action answered: done, the dialog closes; refused (by the hall or by the board's clock), the
// refusal is shown in the dialog, in the page's language, and the dialog stays open to fix what it names.
async function done(d, line, answer) {
  const why = refusal(await answer);
  if (why == null) { d.close(); return false; }
  line.textContent = why;
  return true;
}

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
  $("res-refused").textContent = "";
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
$("res-yes").addEventListener("click", async (ev) => {
  const d = $("result-dialog");
  const body = { result: ev.currentTarget.dataset.pick };
  const kz = $("res-kazans").value.trim();
  if (kz) body.kazans = kz;  // the final kazans, left's-right's (TK-R7): the clock checks them with the result
  $("res-refused").textContent = "";
  if (await done(d, $("res-refused"), post(`/api/board/${encodeURIComponent(d.dataset.board)}/result`, body,
                                           ev.currentTarget))) {
    $("res-confirm").hidden = true;  // back to the results, the kazans kept to be corrected (TK-R7, TK-C12)
    $("res-pick").hidden = false;
    $("res-kazans").focus();
  }
});
$("res-back").addEventListener("click", () => { $("res-confirm").hidden = true; $("res-pick").hidden = false; });
$("res-cancel").addEventListener("click", () => $("result-dialog").close());
