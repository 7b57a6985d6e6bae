// The page's language: its words (the tables static/lang/<lang>.json), the hall's own sentences said in
// them (said), and how the page's language writes a time, a date, a board's state, link, flags and alerts.

import { $ } from "./dom.js";

// The page's words: one table a language (static/lang/<lang>.json, English the fallback; written from the
// gettext catalogues' msgctxt "page:KEY" entries by `python tools/i18n.py compile`), t(key, {name: value})
// a word in the chosen language ({name} in it replaced); k(key): a key kept to be looked up later (the tests
// check that every t() and k() key is in every table). The language: the one chosen on this page (kept in
// this browser), else the hall's (`sagat hall --lang`, else the browser's Accept-Language).
export const LANGS = ["kk", "ru", "ky", "en"];
export let LANG = "en";
let WORDS = {};
let EN = {};
export const k = (key) => key;
export const decimal = (x) => (LANG === "en" ? String(x) : String(x).replace(".", ","));  // 3,5 in kk, ru, ky
export const hasWord = (key) => Object.hasOwn(WORDS, key) || Object.hasOwn(EN, key);
export function t(key, vars) {
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
  k("what_resume_all"), k("what_set_up"), k("what_start_round"),
  // a clock's refusal by its reason code (host/sagat/hall/refusals.py)
  k("err_clock_refused"), k("why_no_flag"), k("why_state"),
  k("why_state_start"), k("why_state_arm"), k("why_state_disarm"),
  k("why_state_pause"), k("why_state_resume"), k("why_resume_adjourned_game"),
  k("why_state_adjourn"), k("why_state_resume_adjourned"), k("why_game_in_progress"),
  k("why_settings_between_games"), k("why_events_pending"), k("why_correction_running"),
  k("why_late_started"), k("why_late_countup"), k("why_match_set_up"),
  k("why_no_match"), k("why_break_runs"), k("why_period_runs"),
  k("why_no_stoppage"), k("why_stop_period_first"), k("why_no_scores"),
  k("why_too_many_entries"), k("why_score_limit"), k("why_no_cards"),
  k("why_no_lot"), k("why_no_lot_due"), k("why_nothing_to_undo"),
  k("why_undo_scores_first"), k("why_not_entering_team"), k("why_match_in_progress"),
  k("why_erase_in_progress"), k("why_key_between_games"), k("why_maintenance_in_game"),
  k("why_kazans_range"), k("why_kazans_over_162"), k("why_kazans_forfeit"),
  k("why_kazans_draw"), k("why_match_state_setup"), k("why_match_state_ready"),
  k("why_match_state_running"), k("why_match_state_stopped"), k("why_match_state_break"),
  k("why_match_state_lot"), k("why_match_state_over"), k("why_match_state_finished"),
  k("why_flag_needs_kazans_left"), k("why_flag_needs_kazans_right"), k("why_flag_lost_left"),
  k("why_flag_lost_right"), k("why_kazans_over_half_left"), k("why_kazans_over_half_right")
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
export function said(msg, text) {
  const s = msg && typeof msg === "object" ? sayCode(msg, 0) : null;
  return s == null ? String(text == null ? "" : text) : s;
}

async function table(lang) {
  const r = await fetch(`/static/lang/${lang}.json`);
  if (!r.ok) throw new Error(`${lang}.json: ${r.status}`);
  return r.json();
}
// the page's fixed words: data-i18n (the text), data-i18n-title, data-i18n-placeholder
export function translatePage() {
  document.documentElement.lang = LANG;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  if ($("lang")) $("lang").value = LANG;
  document.body.dataset.lang = LANG;
}
export async function setLang(lang) {
  if (!LANGS.includes(lang)) lang = "en";
  if (!Object.keys(EN).length) EN = await table("en");
  WORDS = lang === "en" ? EN : await table(lang);
  LANG = lang;
  translatePage();
}

export function mmss(ms) {
  const s = Math.ceil(ms / 1000);
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

export function ago(ms) {
  const s = Math.floor(ms / 1000);
  return s < 60 ? t("ago_s", { s }) : s < 3600 ? t("ago_min", { m: Math.floor(s / 60), s: s % 60 }) :
    t("ago_h", { h: Math.floor(s / 3600), m: Math.floor(s / 60) % 60 });
}

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
export const stateWord = (s) => (typeof s === "string" && Object.hasOwn(STATE_WORDS, s) ? t(STATE_WORDS[s]) : String(s || "-"));
export const linkWord = (s) => (typeof s === "string" && Object.hasOwn(LINK_WORDS, s) ? t(LINK_WORDS[s]) : String(s || ""));
export const sideWord = (s) => (s === "left" ? t("side_left") : s === "right" ? t("side_right") : String(s));
// "FLAG left (1st) right", the hall's words for a board's flags, in the page's
export function flagText(text) {
  const m = /^FLAG ((?:left|right)(?: \(1st\))?)(?: ((?:left|right)(?: \(1st\))?))?$/.exec(String(text));
  if (!m) return String(text);
  const one = (x) => sideWord(x.split(" ")[0]) + (x.endsWith("(1st)") ? " (" + t("flag_first") + ")" : "");
  return t("mark_flag") + " " + [m[1], m[2]].filter(Boolean).map(one).join(" ");
}
export function alertWord(a) {
  const text = String(a.text);
  if (a.kind === "flag") return flagText(text);
  if (a.msg != null) return said(a.msg, text);
  if (Object.hasOwn(ALERT_WORDS, text)) return t(ALERT_WORDS[text]);  // (a hall of before the codes)
  return text;
}

const MONTHS = [k("month_1"), k("month_2"), k("month_3"), k("month_4"), k("month_5"), k("month_6"), k("month_7"),
                k("month_8"), k("month_9"), k("month_10"), k("month_11"), k("month_12")];  // (in the genitive where it has one)
// a YYYY-MM-DD date as the page's language writes it (7 желтоқсан 2026, 7 декабря 2026, 7-декабрь 2026; English: ISO)
export function dateText(iso) {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(String(iso || ""));
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return iso;
  return t("date", { d: Number(m[3]), month: t(MONTHS[Number(m[2]) - 1]), y: m[1], iso: m[0] });
}
