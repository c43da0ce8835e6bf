// The referee console: live state, the event log with one-click review, operator input, undo, audit,
// and the cameras (vision workers) of the tables playing the match.
"use strict";

const matchId = location.pathname.split("/").filter(Boolean).pop();
const tokenInput = document.getElementById("token");
tokenInput.value = localStorage.getItem("boardreader-token") || "";
tokenInput.addEventListener("change", () => localStorage.setItem("boardreader-token", tokenInput.value));
document.getElementById("match-id").textContent = matchId;

let current = null;        // the latest state
let storedEvents = [];     // GET /api/matches/{id}/events

function say(text, kind) {
  const box = document.getElementById("message");
  box.textContent = text;
  box.className = kind;
}

async function post(events) {
  const response = await fetch(`/api/matches/${matchId}/events`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Authorization": `Bearer ${tokenInput.value}` },
    body: JSON.stringify(events),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail);
    say(`Not stored (${response.status}): ${detail}`, "error");
    return false;
  }
  say(`Stored: ${body.events.map((e) => `#${e.seq} ${boardreader.describeEvent(e.event)}`).join("; ")}`, "ok");
  return true;
}

// The log as it stands after corrections: id -> {event, seq, status}.
function effectiveLog() {
  const byId = new Map();
  for (const row of storedEvents) {
    const event = row.event;
    if (event.type === "correct") {
      const old = byId.get(event.target);
      if (old) byId.set(event.target, { ...old, event: { ...event.event, id: event.target }, corrected: true });
    } else if (event.type === "void") {
      byId.delete(event.target);
    } else {
      byId.set(event.id, { event, seq: row.seq });
    }
  }
  return byId;
}

function withoutReviewFlags(event) {
  const { needs_review, confidence, id, ...rest } = event;
  return rest;
}

function lastOfType(types) {
  const live = [...effectiveLog().values()].filter((entry) => types.includes(entry.event.type));
  return live.length ? live[live.length - 1].event : null;
}

function renderState(state) {
  current = state;
  const view = boardreader.summary(state);
  view.sides.forEach((side, i) => {
    document.getElementById(`name-${i}`).textContent = side;
    document.getElementById(`score-${i}`).textContent = view.scores[i];
  });
  document.getElementById("game").textContent = state.game;
  document.getElementById("period").textContent = view.period;
  document.getElementById("detail").textContent = view.detail;
  document.getElementById("last").textContent = view.last;
  document.getElementById("live").textContent = JSON.stringify(state.live, null, 1);
  document.getElementById("review-count").textContent = (state.needs_review || []).length;
  document.body.dataset.seq = state.seq;
  drawBoard(state);
  buildForms(state);
  refreshLists();
}

async function refreshLists() {
  const [events, audit] = await Promise.all([
    fetch(`/api/matches/${matchId}/events`).then((r) => r.json()),
    fetch(`/api/matches/${matchId}/audit`).then((r) => r.json()),
  ]);
  storedEvents = events;
  renderEvents();
  const body = document.querySelector("#audit tbody");
  body.replaceChildren(...audit.slice().reverse().map((entry) => row([
    clock(entry.at), entry.by,
    `${entry.action} ${entry.detail.seq ? "#" + entry.detail.seq : ""} ${entry.detail.event ? boardreader.describeEvent(entry.detail.event) : ""}`,
  ])));
}

function clock(iso) {
  return new Date(iso).toLocaleTimeString([], { hour12: false });
}

function row(cells) {
  const tr = document.createElement("tr");
  for (const cell of cells) {
    const td = document.createElement("td");
    if (cell instanceof Node) td.append(cell); else td.textContent = cell;
    tr.append(td);
  }
  return tr;
}

function button(label, onClick, className) {
  const b = document.createElement("button");
  b.textContent = label;
  b.onclick = onClick;
  if (className) b.className = className;
  return b;
}

function renderEvents() {
  const effective = effectiveLog();
  const body = document.querySelector("#events tbody");
  body.replaceChildren(...storedEvents.slice().reverse().map((stored) => {
    const event = stored.event;
    const code = document.createElement("code");
    code.textContent = JSON.stringify(event);
    const actions = document.createElement("span");
    const entry = effective.get(event.id);
    let status = "";
    if (event.type !== "correct" && event.type !== "void") {
      if (!entry) status = "removed";
      else if (entry.corrected) status = "replaced";
    }
    if (entry && !entry.corrected && entry.event.needs_review) {
      actions.append(
        button("Confirm", () => post([{ type: "correct", target: event.id, event: withoutReviewFlags(event) }])),
        button("Fix", () => fix(event)),
      );
    } else if (entry && event.type !== "correct" && event.type !== "void") {
      actions.append(button("Fix", () => fix(entry.event)));
    }
    const tr = row([String(stored.seq), clock(stored.at), stored.by, code, actions]);
    if (entry && !entry.corrected && entry.event.needs_review) tr.classList.add("review");
    if (status) tr.classList.add(status);
    return tr;
  }));
}

function fix(event) {
  const edited = prompt(`Correct event ${event.id} (JSON):`, JSON.stringify(withoutReviewFlags(event)));
  if (edited === null) return;
  let replacement;
  try { replacement = JSON.parse(edited); } catch (error) { say(`Not JSON: ${error.message}`, "error"); return; }
  post([{ type: "correct", target: event.id, event: replacement }]);
}

document.getElementById("undo").onclick = () => {
  const effective = [...effectiveLog().values()];
  if (!effective.length) { say("Nothing to undo", "error"); return; }
  const last = effective.reduce((a, b) => (a.seq > b.seq ? a : b));
  post([{ type: "void", target: last.event.id }]);
};

document.getElementById("send-raw").onclick = () => {
  let event;
  try { event = JSON.parse(document.getElementById("raw-event").value); } catch (error) { say(`Not JSON: ${error.message}`, "error"); return; }
  post(Array.isArray(event) ? event : [event]);
};

document.getElementById("issue-token").onclick = async () => {
  const response = await fetch("/api/tokens", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Authorization": `Bearer ${tokenInput.value}` },
    body: JSON.stringify({ name: document.getElementById("token-name").value }),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    say(`No token (${response.status}): ${typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail)}`, "error");
    return;
  }
  document.getElementById("issued-token").textContent = body.token;
  say(`Token for ${body.name} issued: copy it now, it is shown once`, "ok");
};

fetch("/api/games").then((r) => r.json()).then((games) => { window.eventTypes = games; });

// Game-specific forms for what the camera cannot see or the referee enters directly.
let formsFor = null;
function buildForms(state) {
  if (formsFor === state.game) return;
  formsFor = state.game;
  const [a, b] = boardreader.sidesOf(state).map(escapeHtml);
  const sides = `<option>${a}</option><option>${b}</option>`;
  const forms = {
    carrom: `
      <div class="form" id="stroke-form"><b>Stroke</b>
        <label>white <input type="number" min="0" max="9" value="0" name="white"></label>
        <label>black <input type="number" min="0" max="9" value="0" name="black"></label>
        <label><input type="checkbox" name="queen"> queen</label>
        <label><input type="checkbox" name="striker"> striker</label>
        <label><input type="checkbox" name="foul"> foul</label>
        <button data-send="stroke">Enter stroke</button></div>
      <div class="form"><b>Foul</b> <select name="side">${sides}</select>
        <select name="kind"><option>technical</option><option>foul</option></select>
        <button data-send="foul">Enter foul</button>
        <button data-send="foul-last">Flag last stroke as foul</button></div>
      <div class="form"><b>Extra points on demand</b> <input type="number" min="0" max="12" value="1" name="extra">
        <button data-send="extra">Set on the last board-ending entry</button> <small>(0 = waived)</small></div>
      <div class="form"><b>Dues</b> forgone by <select name="beneficiary">${sides}</select>
        <button data-send="forgo">Forgo dues</button></div>
      <div class="form"><b>Board</b> winner <select name="winner">${sides}</select>
        <label>opponent coins left <input type="number" min="0" max="9" value="0" name="left"></label>
        queen <select name="queen-to"><option>winner</option><option>loser</option><option>none</option></select>
        <button data-send="board">Enter board</button></div>`,
    crokinole: `
      <div class="form"><b>Round</b><br>
        <label>${a} discs <input name="discs-a" placeholder="15,10,5"></label> 20s <input type="number" min="0" value="0" name="tw-a"><br>
        <label>${b} discs <input name="discs-b" placeholder="10"></label> 20s <input type="number" min="0" value="0" name="tw-b"><br>
        <button data-send="round">Enter round</button></div>`,
    couronne: `
      <div class="form"><b>Stroke</b>
        <label>own <input type="number" min="0" value="0" name="own"></label>
        <label>opponent <input type="number" min="0" value="0" name="opp"></label>
        <label><input type="checkbox" name="shooter-in"> shooter pocketed</label>
        <label><input type="checkbox" name="shooter-off"> shooter off</label>
        <label>off own <input type="number" min="0" value="0" name="off-own"></label>
        <label>off opp <input type="number" min="0" value="0" name="off-opp"></label>
        <button data-send="stroke">Enter stroke</button></div>`,
  };
  const box = document.getElementById("game-forms");
  box.innerHTML = forms[state.game] || "";
  box.querySelectorAll("button[data-send]").forEach((b) => { b.onclick = () => send(b.dataset.send, b.closest(".form")); });
  const types = (window.eventTypes || {})[state.game];
  if (types) document.getElementById("event-types").textContent = `types: ${types.join(", ")}, correct, void`;
}

function escapeHtml(text) {
  const span = document.createElement("span");
  span.textContent = String(text);
  return span.innerHTML;
}

function value(form, name) { return form.querySelector(`[name="${name}"]`); }
function number(form, name) { return Number(value(form, name).value) || 0; }
function checked(form, name) { return value(form, name).checked; }
function discs(text) { return text.split(",").map((s) => s.trim()).filter(Boolean).map(Number); }

function send(kind, form) {
  const [a, b] = boardreader.sidesOf(current);
  if (current.game === "carrom") {
    if (kind === "stroke") {
      const pocketed = [...Array(number(form, "white")).fill("white"), ...Array(number(form, "black")).fill("black")];
      if (checked(form, "queen")) pocketed.push("queen");
      return post([{ type: "stroke", pocketed, striker: checked(form, "striker"), foul: checked(form, "foul") }]);
    }
    if (kind === "foul") return post([{ type: "foul", side: value(form, "side").value, kind: value(form, "kind").value }]);
    if (kind === "foul-last") {
      const last = lastOfType(["stroke"]);
      if (!last) return say("No stroke to flag", "error");
      return post([{ type: "correct", target: last.id, event: { ...withoutReviewFlags(last), foul: true } }]);
    }
    if (kind === "extra") {
      const last = lastOfType(["stroke", "board"]);
      if (!last) return say("No stroke or board entry to add extra points to", "error");
      return post([{ type: "correct", target: last.id, event: { ...withoutReviewFlags(last), extra_points: number(form, "extra") } }]);
    }
    if (kind === "forgo") return post([{ type: "forgo", side: value(form, "beneficiary").value }]);
    if (kind === "board") {
      return post([{ type: "board", winner: value(form, "winner").value, opponent_coins_left: number(form, "left"), queen: value(form, "queen-to").value }]);
    }
  }
  if (current.game === "crokinole") {
    return post([{ type: "round", discs: { [a]: discs(value(form, "discs-a").value), [b]: discs(value(form, "discs-b").value) },
                   twenties: { [a]: number(form, "tw-a"), [b]: number(form, "tw-b") } }]);
  }
  if (current.game === "couronne") {
    return post([{ type: "stroke", pocketed: { own: number(form, "own"), opponent: number(form, "opp") },
                   shooter_pocketed: checked(form, "shooter-in"), shooter_off_board: checked(form, "shooter-off"),
                   off_board: { own: number(form, "off-own"), opponent: number(form, "off-opp") } }]);
  }
}

// A schematic of the board from the live state (counts, not positions: those come with vision).
function drawBoard(state) {
  const canvas = document.getElementById("drawing");
  const g = canvas.getContext("2d");
  const size = canvas.width, mid = size / 2;
  const live = state.live || {};
  g.clearRect(0, 0, size, size);
  function disc(x, y, r, fill) { g.beginPath(); g.arc(x, y, r, 0, 2 * Math.PI); g.fillStyle = fill; g.fill(); g.strokeStyle = "#333"; g.stroke(); }
  if (state.game === "crokinole") {
    [140, 100, 60, 22].forEach((r, i) => disc(mid, mid, r, ["#e7c58f", "#dcb377", "#d1a263", "#5b3a1a"][i]));
    g.fillStyle = "#111"; g.font = "16px sans-serif"; g.textAlign = "center";
    g.fillText(`round ${live.round ?? "-"} · starter ${live.starter ?? "-"}`, mid, size - 6);
    return;
  }
  g.fillStyle = "#e9c98b"; g.fillRect(10, 10, size - 20, size - 20);
  [[22, 22], [size - 22, 22], [22, size - 22], [size - 22, size - 22]].forEach(([x, y]) => disc(x, y, 12, "#222"));
  if (state.game === "carrom") {
    const onBoard = live.on_board || {};
    const coins = [...Array(onBoard.white || 0).fill("#f8f5e7"), ...Array(onBoard.black || 0).fill("#222")];
    // The opening formation: six coins around the queen, twelve around those; colours alternate.
    const white = coins.filter((c) => c !== "#222"), black = coins.filter((c) => c === "#222");
    const mixed = [];
    while (white.length || black.length) { if (white.length) mixed.push(white.pop()); if (black.length) mixed.push(black.pop()); }
    mixed.forEach((fill, i) => {
      const [ring, slots, k] = i < 6 ? [24, 6, i] : [48, 12, i - 6];
      const angle = (2 * Math.PI * k) / slots;
      disc(mid + ring * Math.cos(angle), mid + ring * Math.sin(angle), 11, fill);
    });
    if (onBoard.queen) disc(mid, mid, 11, "#c81e1e");
  } else {
    const left = state.rings_left || {};
    const colours = { [boardreader.sidesOf(state)[0]]: "#f472b6", [boardreader.sidesOf(state)[1]]: "#60a5fa" };
    let i = 0;
    for (const [side, n] of Object.entries(left)) {
      for (let k = 0; k < n; k++, i++) {
        const angle = (2 * Math.PI * i) / 24;
        disc(mid + 90 * Math.cos(angle), mid + 90 * Math.sin(angle), 10, colours[side] || "#999");
      }
    }
  }
}

// The tables whose cameras feed this match, and what their vision workers are doing.
const CAMERAS_EVERY_MS = 2000;
const CAMERA_DOWN = new Set(["failed", "restarting", "waiting", "no match"]);

async function refreshCameras() {
  try {
    const tables = (await fetch("/api/tables").then((r) => r.json())).filter((t) => String(t.match_id) === matchId);
    const statuses = await Promise.all(tables.map((t) => fetch(`/api/tables/${t.id}/status`).then((r) => r.json())));
    const body = document.querySelector("#cameras tbody");
    body.replaceChildren(...tables.map((table, i) => cameraRow(table, statuses[i])));
  } catch (error) {
    // The live badge already says when the service is unreachable; try again on the next round.
  }
}

function cameraRow(table, status) {
  const frames = status.alive ? `${status.frames} (${status.fps} fps)` : String(status.frames ?? "");
  const last = status.last_event ? `#${status.last_event.seq} ${status.last_event.type}` : "";
  const problems = [status.last_error, ...(status.held || []).map((held) => `held: ${held.reason || held.type}`)];
  if (status.gaps && status.gaps.length) problems.push(`${status.gaps.length} camera drop-out(s)`);
  const tr = row([`${table.name} (#${table.id})`, status.state, frames, last, problems.filter(Boolean).join("; ")]);
  tr.dataset.table = table.id;
  if (CAMERA_DOWN.has(status.state)) tr.className = "camera-down";
  return tr;
}

refreshCameras();
setInterval(refreshCameras, CAMERAS_EVERY_MS);

boardreader.connectLive(matchId, renderState, (status) => {
  const badge = document.getElementById("status");
  badge.textContent = status;
  badge.className = `badge ${status}`;
});
