// The page's small helpers: an element by id, and what makes a value safe to draw.

export const $ = (id) => document.getElementById(id);
export const esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({
  "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

// Every value drawn goes through esc() (or textContent): a board's fields come from its clock, or
// from another hall through the MQTT broker, and none of them is trusted to be what it should be.
export const num = (x) => (typeof x === "number" && isFinite(x) ? x : null);
export const word = (x) => (typeof x === "string" && /^[a-z_]+$/.test(x) ? x : "");  // a class name, or none
export const list = (x) => (Array.isArray(x) ? x : []);
export const obj = (x) => (x && typeof x === "object" && !Array.isArray(x) ? x : {});
