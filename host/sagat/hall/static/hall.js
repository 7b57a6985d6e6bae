// The hall's page: the hall's state by Server-Sent Events (4 a second), drawn as one card per board;
// the arbiter's buttons POST to the hall, which signs each action with the arbiter key. Its modules
// (no build step: the browser loads each as it is):
//   dom.js      an element by id; what makes a value safe to draw
//   words.js    the page's language: its tables (lang/*.json), the hall's sentences said in them
//   act.js      whether this page may act (the access token); an action POSTed; the action line
//   alerts.js   sound and notification at a flag or an alert; the mute button
//   tiles.js    one board's card
//   view.js     the hall's view drawn: the cards in place, the projector's pages, the round, the results
//   stream.js   the hall's stream of views; a silent hall greys the page
//   dialogs.js  the arbiter's dialogs on one board: its corrections (the clock's actions) and its result
//   hall.js     this: the header's buttons, the language chosen, the page's start

import { $, list, obj } from "./dom.js";
import { post } from "./act.js";
import { showMute } from "./alerts.js";
import { loadActs } from "./dialogs.js";
import { start } from "./stream.js";
import { drawn, last, projector, render, setProjector, tcTyped } from "./view.js";
import { LANG, LANGS, setLang, t } from "./words.js";

$("setup").addEventListener("submit", (ev) => {
  ev.preventDefault();
  // the page's language goes with it: the clocks' faces speak it unless the hall has its own (--lang)
  post("/api/setup", { tc: $("tc").value, first: $("first").value, mode: $("mode").value || null, lang: LANG },
       $("btn-setup"));
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
$("btn-projector").addEventListener("click", () => {
  setProjector(!projector);
  history.replaceState(null, "", projector ? "#projector" : "#");
  document.body.classList.toggle("projector", projector);
  drawn.clear();
  if (last.boards) render(last);
});
document.body.classList.toggle("projector", projector);
$("tc").addEventListener("input", tcTyped);

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
  loadActs().catch(() => {});  // (else asked again when a dialog opens)
  start();
})();
