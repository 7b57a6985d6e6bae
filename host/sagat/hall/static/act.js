// The arbiter acting from this page: whether it may (the hall's access token), an action POSTed to the
// hall (which signs it with the arbiter key; the clock logs it), and the line that says what it did.

import { $, obj } from "./dom.js";
import { said, t } from "./words.js";

// beyond this PC the page acts only where the address with the hall's access token was opened
export let canAct = true;

// the page's rights from the hall (/api/access: the token's cookie): true, or false (read-only)
export async function access() {
  const a = await (await fetch("/api/access")).json();
  canAct = a.act === true;
  for (const el of document.querySelectorAll("#setup button, .actions button")) el.disabled = !canAct;
}

export let shownAt = null;  // the action last shown (its time): each tab shows what any tab did

export function showAction(a) {
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

// What an action's answer says went wrong, in the page's language: the hall's refusal (a bad field, no such
// board), a board's clock that refused it (its reason code's words: a result's kazans that make no sense,
// TK-R7, TK-C12), or none (null): it was done. A dialog shows it and stays open to fix it.
export function refusal(a) {
  if (!a || typeof a !== "object") return null;
  if (a.error) return said(a.msg, a.error);
  const bad = Object.values(obj(a.boards)).map(obj).filter((v) => v.ok === false);
  return bad.length ? bad.map((v) => said(v.msg, v.text)).join("; ") : null;
}

// POST an action and show what it did on the action line; its answer (null when none came: the line says why)
export async function post(path, body, button) {
  button.disabled = true;
  try {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                  body: JSON.stringify(body || {}) });
    const a = await r.json();
    showAction(a);
    return a;
  } catch (e) {
    $("action").textContent = t("no_answer", { why: e });
    return { error: t("no_answer", { why: e }) };
  } finally {
    button.disabled = false;
  }
}
