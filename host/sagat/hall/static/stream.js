// The hall's state as it comes: its stream of views (Server-Sent Events, 4 a second), each drawn at once,
// and the page's own second: a hall that stopped answering greys the page; the projector's pages turn.

import { $ } from "./dom.js";
import { access } from "./act.js";
import { drawn, last, projector, render } from "./view.js";
import { ago, t } from "./words.js";

// A page whose hall stopped answering is greyed whole, and says since when.
export let heard = Date.now();
setInterval(() => {
  const quiet = Date.now() - heard;
  if (quiet > 3000) {
    document.body.classList.add("stale");
    $("stale").textContent = t("stale", { ago: ago(quiet) });
  }
  if (projector && last.boards) render(last);  // (the projector's pages turn)
}, 1000);

export let source = null;  // the hall's stream (once the page's words are in)
export function start() {
  access().then(() => drawn.clear()).catch(() => {});

  source = new EventSource("/api/events");
  source.onmessage = (ev) => {
    $("conn").className = "dot up";
    heard = Date.now();
    document.body.classList.remove("stale");
    try { render(JSON.parse(ev.data)); } catch (e) { $("summary").textContent = t("cannot_show", { why: e }); }
  };
  source.onerror = () => { $("conn").className = "dot lost"; $("summary").textContent = t("not_answering"); heard = Math.min(heard, Date.now() - 3001); };
}
