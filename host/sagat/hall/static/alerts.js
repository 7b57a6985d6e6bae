// Sound and a browser notification at a board's first flag and at an alert, unless muted (kept in
// this browser). The first news of a board is not news: only what appears while the page is open.

import { $, list, obj } from "./dom.js";
import { alertWord, t } from "./words.js";

const known = new Map();  // board number -> its alerts' kinds and texts as last seen
let muted = localStorage.getItem("sagat-muted") === "1";
let alertsHeard = 0;

export function alertsOf(boards) {
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

export function showMute() {
  $("btn-mute").textContent = muted ? t("sound_off") : t("sound_on");
  $("btn-mute").setAttribute("aria-pressed", String(!muted));
}

// the mute button's (and a test's): muted or not, kept in this browser
export function setMuted(on) {
  muted = on;
  localStorage.setItem("sagat-muted", muted ? "1" : "0");
  showMute();
}

$("btn-mute").addEventListener("click", () => {
  setMuted(!muted);
  if (!muted && window.Notification && Notification.permission === "default") Notification.requestPermission();
});
