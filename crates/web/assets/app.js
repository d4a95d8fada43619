// gamelab's page: Play, Watch & compare, Explore. Everything goes through the JSON API
// (documented in docs/http-api.md); the page keeps no game rules of its own.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (x) => (100 * x).toFixed(1);

let toastTimer = null;
let toastsShown = 0;
function toast(message, isError = true) {
  toastsShown++;
  const t = $("#toast");
  t.textContent = message;
  t.className = "toast" + (isError ? " error" : "");
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (t.hidden = true), 5000);
}

// An error shown before an action (`since`: the toasts shown when it began) no longer
// stands over the action's success, say an editor's refused position over the game then
// set up; one shown since, for something else, stays.
function dismissErrorBefore(since) {
  const t = $("#toast");
  if (toastsShown !== since || !t.classList.contains("error")) return;
  clearTimeout(toastTimer);
  t.hidden = true;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  // The server takes JSON only, so every POST says so (it refuses cross-site form posts).
  if (method === "POST") {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body ?? {});
  }
  let res;
  try {
    res = await fetch(path, options);
  } catch {
    // The browser's own words ("Failed to fetch") say nothing a person can act on.
    throw new Error("Cannot reach the gamelab server: is it still running?");
  }
  const data = await res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }));
  if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
  return data;
}

// A whole number typed into `input`, from `min` to `max`; else a toast that says what is
// expected, and null.
function wholeNumber(input, what, min, max) {
  const text = input.value.trim();
  const n = Number(text);
  if (text === "" || !Number.isSafeInteger(n) || n < min || n > max) {
    toast(`${what} must be a whole number from ${min.toLocaleString()} to ${max.toLocaleString()}; "${text}" is not.`);
    input.focus();
    return null;
  }
  return n;
}
const MAX_SEED = Number.MAX_SAFE_INTEGER;

// ---------------------------------------------------------------- catalogue and pickers

let catalogue = null;
const gameInfo = (name) => catalogue.games.find((g) => g.name === name);
const sideTitle = (side) => side.charAt(0).toUpperCase() + side.slice(1);
// The server's outcome in words with the sides named as the page names them ("x wins"
// becomes "X wins", beside the result box's "X wins").
const outcomeText = (outcome, info) =>
  info.sides.reduce((text, side) => text.replace(new RegExp(`\\b${side}\\b`, "g"), sideTitle(side)), outcome.text);
// A side's piece as a small icon, in the look and colour the catalogue gives the game.
const pieceIcon = (side, info) => {
  const i = info.sides.indexOf(side);
  return el("span", { class: `piece ${info.pieces} side-${i}`, style: `--piece: ${info.piece_colours[i]}` });
};
// The catalogue's colours as the CSS variables the boards are drawn with.
// Saves `blob` as a file named `name`.
function download(blob, name) {
  const link = el("a", { href: URL.createObjectURL(blob) });
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// The position `board` as an SVG picture in the game's colours: squares, pieces, the
// last move marked, coordinates along the edges.
function boardSvg(board, info) {
  const [size, edge] = [48, 22];
  // Two pixels past the last squares, for their right and bottom edges.
  const [w, h] = [edge + board.cols * size + 2, edge + board.rows * size + 2];
  const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="sans-serif" font-size="12">`,
    `<rect width="${w}" height="${h}" fill="#ffffff"/>`];
  info.col_labels.forEach((c, i) => out.push(`<text x="${edge + (i + 0.5) * size}" y="15" text-anchor="middle" fill="#444">${esc(c)}</text>`));
  info.row_labels.forEach((r, i) => out.push(`<text x="11" y="${edge + (i + 0.5) * size + 4}" text-anchor="middle" fill="#444">${esc(r)}</text>`));
  const last = board.last ? board.last.square : null;
  for (let r = 0; r < board.rows; r++) {
    for (let c = 0; c < board.cols; c++) {
      const i = r * board.cols + c;
      const [x, y] = [edge + c * size, edge + r * size];
      const [cx, cy] = [x + size / 2, y + size / 2];
      out.push(`<rect class="square" x="${x}" y="${y}" width="${size}" height="${size}" fill="${esc(info.board_colour)}" stroke="#2b3040" stroke-width="1"/>`);
      const side = info.sides.indexOf(board.cells[i]);
      if (side < 0) continue;
      const colour = esc(info.piece_colours[side]);
      if (info.pieces === "discs") {
        out.push(`<circle class="piece" cx="${cx}" cy="${cy}" r="${size * 0.4}" fill="${colour}" stroke="#333" stroke-width="1.5"/>`);
      } else if (side === 0) {
        out.push(`<circle class="piece" cx="${cx}" cy="${cy}" r="${size * 0.3}" fill="none" stroke="${colour}" stroke-width="5"/>`);
      } else {
        const d = size * 0.28;
        out.push(`<path class="piece" d="M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}" stroke="${colour}" stroke-width="5" stroke-linecap="round"/>`);
      }
      if (i === last) out.push(`<circle cx="${cx}" cy="${cy}" r="4" fill="#facc15"/>`);
    }
  }
  out.push("</svg>");
  return out.join("\n");
}

// The same picture as a PNG, drawn by the browser from the SVG.
async function boardPng(board, info) {
  const svg = boardSvg(board, info);
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = el("canvas", { width: image.width * 2, height: image.height * 2 });
  const context = canvas.getContext("2d");
  context.scale(2, 2);
  context.drawImage(image, 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("no PNG"))), "image/png"));
}

function setColours(node, info) {
  node.style.setProperty("--piece-0", info.piece_colours[0]);
  node.style.setProperty("--piece-1", info.piece_colours[1]);
  node.style.setProperty("--board-colour", info.board_colour);
}

function fillGameSelect(select, names) {
  select.replaceChildren(...names.map((n) => el("option", { value: n, text: gameInfo(n).title })));
}

// The names of the server's programs a program parameter `p` may run: those offered
// for its protocol, or for any.
function offeredPrograms(p) {
  return catalogue.programs.filter((c) => c.protocol === null || c.protocol === p.protocol).map((c) => c.name);
}

// A choice of player: optionally "Human", else an AI with a form for its parameters.
// `spec()` gives `human` or `name:key=value,…` with the parameters changed from defaults.
function makePicker(container, info, { title, icon, human = true, initial = "human", onChange = () => {} }) {
  container.replaceChildren();
  const select = el("select", { "aria-label": title, class: "ai" });
  if (human) select.append(el("option", { value: "human", text: "Human" }));
  const group = el("optgroup", { label: "AIs" });
  // An AI that needs a model file can only be offered when the server has models to read,
  // and one that runs a program (an outside engine) when it offers programs by name for
  // that AI's protocol (`gamelab serve --engine [PROTOCOL:]NAME=COMMAND`).
  const usable = (ai) =>
    ai.params.every((p) => p.kind !== "program" || offeredPrograms(p).length > 0) &&
    (catalogue.models.length > 0 || !ai.params.some((p) => p.kind === "file" && p.default === null));
  for (const ai of info.ais.filter(usable)) group.append(el("option", { value: ai.name, text: ai.name }));
  select.append(group);
  // `initial` may be a whole spec, `name:key=value,…`: its values fill the form.
  let initialName, given;
  function take(spec) {
    const [name, paramText = ""] = spec.split(/:(.*)/s);
    initialName = name;
    given = new Map(paramText.split(",").filter((kv) => kv.includes("=")).map((kv) => kv.split(/=(.*)/s)));
    select.value = info.ais.some((a) => a.name === name && usable(a)) || (human && name === "human") ? name : select.options[0].value;
  }
  take(initial);
  const summary = el("div", { class: "summary" });
  const params = el("div");
  // Strengths by name, with the measured Elo where the game has one; the AI and its
  // parameters below stay the advanced choice.
  const rating = (spec) => (info.ratings || []).find((r) => r.spec === spec);
  const levelText = (p) => rating(p.spec) ? `Level: ${p.name} (Elo ${Math.round(rating(p.spec).elo)})` : `Level: ${p.name}`;
  const level = el("select", { "aria-label": `${title}: level`, class: "level" },
    el("option", { value: "", text: "Level: custom (below)" }),
    ...(info.presets || []).map((p) => el("option", { value: p.spec, text: levelText(p) })));
  const levelNote = el("div", { class: "summary level-note" });
  const showLevel = () => {
    const preset = (info.presets || []).find((p) => p.spec === level.value);
    const r = preset && rating(preset.spec);
    const elo = r ? ` Elo ${Math.round(r.elo)} ± ${Math.round(r.interval95)}, where a random mover is 0 (measured in a round robin of the levels).` : "";
    levelNote.textContent = preset ? `${preset.name}: ${preset.note}.${elo}` : "";
  };
  level.addEventListener("change", () => {
    showLevel();
    if (!level.value) return;
    take(level.value);
    showParams();
    onChange();
  });
  // A level picks an AI: a person's seat has none to pick (it would hand the seat over).
  const levelField = el("label", { class: "field" }, level);
  const showLevelField = () => {
    levelField.hidden = levelNote.hidden = select.value === "human";
  };
  const levelFields = info.presets?.length ? [levelField, levelNote] : [];
  container.append(el("div", { class: "seat-title" }, icon, title), ...levelFields, el("label", { class: "field" }, select), summary, params);

  let inputs = [];
  function showParams() {
    const ai = info.ais.find((a) => a.name === select.value);
    summary.textContent = ai ? ai.summary : "You click the squares.";
    params.replaceChildren();
    inputs = [];
    if (!ai || ai.params.length === 0) return;
    const details = el("details", { open: ai.name === initialName && given.size > 0 }, el("summary", { text: `Parameters (${ai.params.length})` }));
    for (const p of ai.params) {
      let input;
      if (p.kind === "bool") {
        input = el("input", { type: "checkbox" });
        input.checked = p.default === "true";
      } else if (p.kind === "choice") {
        input = el("select", {}, ...p.choices.map((c) => el("option", { value: c, text: c })));
        input.value = p.default;
      } else if (p.kind === "program") {
        // The server's engines for this protocol, by the names it was started with.
        const names = offeredPrograms(p);
        input = el("select", {}, ...names.map((c) => el("option", { value: c, text: c })));
        input.value = names[0];
      } else if (p.kind === "file" && (catalogue.models.length > 0 || p.choices)) {
        // The words it takes (`shipped`, `none`) and the server's models folder, by name
        // (`gamelab serve --models FOLDER`): a server reads no other file.
        const names = [...new Set([p.default, ...(p.choices ?? []), ...catalogue.models].filter((n) => n))];
        input = el("select", {}, ...names.map((c) => el("option", { value: c, text: c })));
        input.value = p.default ?? names[0];
      } else {
        input = el("input", {
          type: p.kind === "text" || p.kind === "file" ? "text" : "number",
          step: p.kind === "int" ? "1" : p.kind === "float" ? "any" : null,
          min: p.min ?? null, max: p.max ?? null,
          placeholder: p.default === null ? "required" : "",
        });
        input.value = p.default ?? "";
      }
      if (ai.name === initialName && given.has(p.name)) {
        if (p.kind === "bool") input.checked = given.get(p.name) === "true";
        else input.value = given.get(p.name);
      }
      input.dataset.param = p.name;
      input.addEventListener("change", () => { matchLevel(); onChange(); });
      inputs.push({ p, input });
      details.append(el("label", { class: "param", title: p.help }, el("span", { text: p.name }), input));
    }
    params.append(details);
  }
  // The level picker names the level whose spec is the seat's, else "custom": an AI picked
  // again gets back the values it was given, and a parameter typed by hand may be a level's.
  const matchLevel = () => {
    const now = picker.spec();
    level.value = (info.presets || []).some((p) => p.spec === now) ? now : "";
    showLevel();
  };
  select.addEventListener("change", () => {
    showParams(); matchLevel(); showLevelField(); onChange();
  });
  showParams();
  showLevelField();

  const picker = {
    select,
    spec() {
      if (select.value === "human") return "human";
      const changed = inputs
        .map(({ p, input }) => {
          const value = p.kind === "bool" ? String(input.checked) : input.value.trim();
          return value === (p.default ?? "") ? null : `${p.name}=${value}`;
        })
        .filter((x) => x !== null);
      return changed.length ? `${select.value}:${changed.join(",")}` : select.value;
    },
  };
  matchLevel();
  return picker;
}

// ---------------------------------------------------------------- boards

// Draws a board into `root`. `onSquare(index)` is called for clicks on legal squares;
// `overlay` maps a square to a short text shown in its corner (or `{ text, exact, deeper }`:
// an exact value, the game's, is marked as such, and so is a value from a level deeper
// than the others, `deeper` being that level).
function drawBoard(root, board, info, { onSquare = null, overlay = {}, pick = null, flipped = new Set(), animate = false } = {}) {
  root.className = `board ${info.pieces}`;
  setColours(root, info);
  root.style.setProperty("--rows", board.rows);
  root.style.setProperty("--cols", board.cols);
  const legal = new Map(board.legal.filter((m) => m.square !== null).map((m) => [m.square, m]));
  // Where a move is chosen by its column, any square of the column takes the click (a
  // fingertip on a phone rarely hits the one square where the piece lands).
  const landing = new Map();
  if (info.moves_by_column) for (const sq of legal.keys()) landing.set(sq % board.cols, sq);
  const last = board.last ? board.last.square : null;
  const highlight = new Set(board.highlight);
  const nodes = [el("span", { class: "label" })];
  for (const c of info.col_labels) nodes.push(el("span", { class: "label", text: c }));
  for (let r = 0; r < board.rows; r++) {
    nodes.push(el("span", { class: "label", text: info.row_labels[r] }));
    for (let c = 0; c < board.cols; c++) {
      const i = r * board.cols + c;
      const piece = board.cells[i];
      const canPlay = onSquare && legal.has(i);
      const cell = el("button", {
        class: "cell" + (canPlay ? " legal" : "") + (i === last ? " last" : "") + (i === pick ? " pick" : "") + (highlight.has(i) ? " won" : "") + (flipped.has(i) ? (animate ? " flipped flipping" : " flipped") : ""),
        "data-square": i, "data-row": r, "data-col": c, tabindex: "-1",
        "aria-label": `${info.square_names[i]}${piece ? " " + piece : ""}${overlay[i] === undefined ? "" : `, ${typeof overlay[i] === "object" ? overlay[i].text : overlay[i]}`}`,
        // On a board that takes moves every square can be reached with the arrow keys
        // (a screen reader reads it square by square); only the legal ones play.
        disabled: !onSquare,
        "aria-disabled": onSquare && !canPlay ? "true" : null,
      });
      const side = info.sides.indexOf(piece);
      if (piece && info.pieces === "marks") cell.append(el("span", { class: `mark-${side}` }));
      if (piece && info.pieces === "discs") cell.append(el("span", { class: `disc side-${side}` }));
      const shown = overlay[i];
      if (shown !== undefined) {
        const exact = typeof shown === "object" && shown.exact;
        const deeper = typeof shown === "object" && !exact && shown.deeper ? shown.deeper : null;
        cell.append(el("span", {
          class: exact ? "overlay exact" : deeper ? "overlay deeper" : "overlay",
          text: typeof shown === "object" ? shown.text : shown,
          title: exact ? "Exact: the game's value with best play"
            : deeper ? `Level ${deeper}: valued a level deeper than the others before the time ran out` : null,
        }));
      }
      if (canPlay) cell.addEventListener("click", () => onSquare(i, legal.get(i)));
      else if (onSquare && landing.has(c) && !piece) {
        // Not a Tab stop of its own: the landing square is the keyboard's.
        const to = landing.get(c);
        cell.removeAttribute("aria-disabled");
        cell.classList.add("in-column");
        cell.addEventListener("click", () => onSquare(to, legal.get(to)));
      }
      nodes.push(cell);
    }
  }
  root.replaceChildren(...nodes);
  if (onSquare) roveOver(root);
}

// The board is one Tab stop: the square last reached, else the first legal one; the arrow
// keys move between squares (and never step the game, as they do elsewhere on the page),
// Home and End go to a row's ends.
function roveOver(root) {
  const cells = [...root.querySelectorAll(".cell")];
  const remembered = root.querySelector(`.cell[data-square="${root.dataset.focus}"]`);
  const stop = remembered || root.querySelector(".cell.legal") || cells[0];
  if (!stop) return;
  stop.tabIndex = 0;
  if (root.dataset.roving) return;
  // Once per board: its squares are redrawn, the board stays.
  root.dataset.roving = "yes";
  root.addEventListener("focusin", (e) => {
    const cell = e.target.closest(".cell");
    if (!cell) return;
    root.dataset.focus = cell.dataset.square;
    for (const other of root.querySelectorAll('.cell[tabindex="0"]')) if (other !== cell) other.tabIndex = -1;
    cell.tabIndex = 0;
  });
  root.addEventListener("keydown", (e) => {
    const cell = e.target.closest(".cell");
    if (!cell || e.altKey || e.ctrlKey || e.metaKey) return;
    const [r, c] = [Number(cell.dataset.row), Number(cell.dataset.col)];
    const rows = Number(root.style.getPropertyValue("--rows")), cols = Number(root.style.getPropertyValue("--cols"));
    const to = {
      ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1], ArrowUp: [r - 1, c], ArrowDown: [r + 1, c],
      Home: [r, 0], End: [r, cols - 1],
    }[e.key];
    if (!to) return;
    e.preventDefault();
    e.stopPropagation();
    const [tr, tc] = [Math.max(0, Math.min(rows - 1, to[0])), Math.max(0, Math.min(cols - 1, to[1]))];
    root.querySelector(`.cell[data-row="${tr}"][data-col="${tc}"]`)?.focus();
  });
}

function miniBoard(cells, info, newSquare = null) {
  // Marks are written in their cells; discs are drawn, on cells small enough for an 8×8 board.
  const discs = info.pieces === "discs";
  const size = discs ? 11 : 22;
  const mini = el("div", { class: "mini" + (discs ? " discs" : ""), style: `grid-template-columns: repeat(${info.cols}, ${size}px); grid-template-rows: repeat(${info.rows}, ${size}px)` }, ...cells.map((c, i) =>
    el("span", { class: (c ? `side-${info.sides.indexOf(c)}` : "") + (i === newSquare ? " new" : ""), text: discs ? "" : c })));
  setColours(mini, info);
  return mini;
}

// ---------------------------------------------------------------- Play

const play = {
  state: null,
  info: null,
  seats: [],
  paused: false,
  // The id of the game a request (a move, an undo) is on its way for, else null.
  busy: null,
  // Where ◀, ▶, the slider and the arrow keys asked to go ({id, ply}), not yet sent
  // because a request for the game was on its way; and the seek on its way. Steps pile
  // up on them, so a quick double click steps twice.
  seek: null,
  seeking: null,
  // Bumped whenever the game changes hands, so a pending AI loop knows to stop.
  generation: 0,
  // Bumped by each new game asked for: quick picker changes ask for several, and the
  // server may answer them in any order; only the last one asked for is shown.
  asked: 0,
};

function setupPlaySeats(initial = null) {
  const info = gameInfo($("#play-game").value);
  const defaults = initial || info.default_players;
  play.seats = info.sides.map((side, i) =>
    makePicker($(`#play-seat-${i}`), info, {
      title: sideTitle(side) + (i === 0 ? " (moves first)" : ""), icon: pieceIcon(side, info), initial: defaults[i],
      // A new player takes over the game in play, from its position.
      onChange: () => { if (play.state) newGame(movesTo(play.state)); },
    }));
}

// The players of the game in play, as specs.
const playersOf = (state) => state.players.map((p) => (p.kind === "human" ? "human" : p.spec));

async function newGame(moves = [], players = null, game = null, record = null, position = null, headers = null) {
  const name = game || $("#play-game").value;
  const seed = wholeNumber($("#play-seed"), "The seed", 0, MAX_SEED);
  if (seed === null) return;
  const body = {
    game: name,
    players: players || play.seats.map((s) => s.spec()),
    seed,
    moves,
  };
  if (record !== null) body.record = record;
  if (position !== null) body.position = position;
  if (headers !== null) body.headers = headers;
  const clock = $("#play-clock").value.trim();
  if (clock) body.clock = clock;
  const asked = ++play.asked;
  const toastsBefore = toastsShown;
  try {
    const state = await api("POST", "/api/games", body);
    if (asked !== play.asked) return;
    play.paused = false;
    showGame(state);
    dismissErrorBefore(toastsBefore);
  } catch (e) {
    if (asked !== play.asked) return;
    toast(e.message);
    // The pickers show the game in play, never one that could not start.
    if (play.state) {
      $("#play-game").value = play.state.game;
      setupPlaySeats(playersOf(play.state));
    }
  }
}

// ---------------------------------------------------------------- clocks

// The clocks of a game on one, as the server read them when `play.state` came
// (`play.clockAt`), the running one counted down here between states.
function clockText(seconds, stones) {
  const tenths = Math.max(0, Math.floor(seconds * 10));
  const m = Math.floor(tenths / 600);
  const sec = Math.floor(tenths / 10) % 60;
  const text = `${m}:${String(sec).padStart(2, "0")}${m < 1 ? `.${tenths % 10}` : ""}`;
  return stones ? `${text} (${stones} moves)` : text;
}

// Whether the running clock is counting now: a person's always; an AI's while it thinks.
const clockCounts = (s) => {
  const mover = s.players.find((p) => p.side === s.clock.running);
  return mover && (mover.kind === "human" || !play.paused);
};

function renderClocks() {
  const s = play.state;
  const box = $("#play-clocks");
  box.hidden = !s?.clock;
  if (!s?.clock) return;
  const c = s.clock;
  const counting = c.running && clockCounts(s);
  const since = counting ? (performance.now() - play.clockAt) / 1000 : 0;
  box.title = `Clock: ${c.description}`;
  box.replaceChildren(...s.players.map((p, i) => {
    const running = c.running === p.side;
    const left = running ? c.left[i] - since : c.left[i];
    const flag = c.flag === p.side;
    return el("span", { class: `clock${running ? " running" : ""}${flag ? " flag" : ""}`, "data-side": p.side },
      pieceIcon(p.side, gameInfo(s.game)), clockText(left, c.stones[i]), flag ? " — out of time" : "");
  }));
  // A person whose time is up: the server says so (and ends the game) once asked.
  const mover = s.players.find((p) => p.side === c.running);
  const i = s.players.indexOf(mover);
  const asking = `${s.id} ${s.cursor} ${c.left[i]}`;
  if (counting && mover.kind === "human" && c.left[i] - since <= 0 && play.flagAsked !== asking) {
    play.flagAsked = asking;
    api("GET", `/api/games/${s.id}`).then((state) => {
      if (play.state?.id === state.id) showGame(state);
    }).catch((e) => toast(e.message));
  }
}

// A short click for each move, when asked for (off by default; the choice is kept in
// this browser): a higher one for the first side. Counted on the page for the tests.
let audio = null;
function moveSound(first) {
  if (!$("#sound").checked) return;
  try {
    audio ??= new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = first ? 660 : 520;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.08);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.08);
    document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  } catch {
    // No audio on this device: moves are silent.
  }
}

function showGame(state) {
  play.generation++;
  // A move just played, by a person or an AI, is said to screen readers (the status
  // line only says whose turn it is).
  const before = play.state;
  if (before?.id === state.id && state.moves.length === before.moves.length + 1 && state.cursor === state.moves.length) {
    const m = state.moves[state.moves.length - 1];
    $("#play-announce").textContent = `${sideTitle(m.side)} played ${m.text}.`;
    moveSound(m.side === gameInfo(state.game).sides[0]);
  }
  play.clockAt = performance.now();
  if (play.state?.id !== state.id) $("#review-out").replaceChildren();
  // A new game's analysis AI is the game's own, unless the address brought one back.
  if (play.state?.game !== state.game) $("#analysis-ai").value = play.restoredAi ?? gameInfo(state.game).analysis_ai;
  play.restoredAi = null;
  play.state = state;
  play.info = gameInfo(state.game);
  // A closed position editor follows the game in play; an open one keeps its edits.
  if (!$("#editor").open) setupEditor(state.game);
  renderPlay();
  saveUrl();
  analyse();
  runAi(play.generation);
}

// ---------------------------------------------------------------- analysis

// The values an AI gives each move of the position shown, when asked for: `serial` drops
// answers for positions the page has left.
const analysis = { serial: 0, values: null, curve: new Map() };
// The moves of game state `s` up to `ply` (its position by default), as texts.
const movesTo = (s, ply = s.cursor) => s.moves.slice(0, ply).map((m) => m.text);
const positionKey = (s) => `${s.id} ${movesTo(s).join(" ")}`;
// The analysis AI `spec`'s values of the moves of `s` at `ply`, and the best of them
// (the first of equals; null when there are no moves).
async function valuesAt(s, ply, spec) {
  const view = await api("POST", "/api/analysis", { game: s.game, moves: movesTo(s, ply), ai: spec });
  return { ...view, best: bestOf(view.scores) };
}
// The best of a position's valued moves, as the server ranks them (a proven win over any
// estimate, any estimate over a proven loss); null when there are none.
const bestOf = (scores) => scores.find((v) => v.best) ?? null;
// A value with no units known (Explore's search values): two decimals below ten.
const valueText = (v) => (Math.abs(v) >= 10 ? v.toFixed(0) : String(+v.toFixed(2)));

// The evaluation of each position valued so far (by the analysis or a review): the best
// move's value from the first side's view (its share of the bar fixed by the AI's units,
// null for units with no bound), keyed by the game, the AI and the moves.
const curveKey = (s, spec, ply) => `${s.id} ${spec} ${movesTo(s, ply).join(" ")}`;
function remember(s, spec, ply, side, view) {
  const best = bestOf(view.scores);
  if (!best) return;
  const sign = side === gameInfo(s.game).sides[0] ? 1 : -1;
  analysis.curve.set(curveKey(s, spec, ply), {
    score: sign * best.score, share: best.share === null ? null : sign * best.share,
    text: best.value, against: best.against, side, ply, scale: view.scale,
  });
}

// What a valued position says: who is ahead and by what, in that side's words.
function standing(value, info) {
  if (value.score === 0) return value.text.startsWith("draw") ? "A draw with best play" : `Even (${value.text})`;
  const ahead = value.score > 0 ? info.sides[0] : info.sides[1];
  return `${sideTitle(ahead)} ahead: ${value.side === ahead ? value.text : value.against}`;
}

// The bar for the position shown and the graph over the game, from what has been valued
// with the analysis AI named now, on the scale its units fix (discs, win rates, proven
// results); only units with no bound are scaled to the largest value seen.
function renderEval(s, info) {
  const spec = $("#analysis-ai").value.trim();
  const values = s.moves.map((_, ply) => analysis.curve.get(curveKey(s, spec, ply)))
    .concat([analysis.curve.get(curveKey(s, spec, s.moves.length))]);
  const known = values.flatMap((v, ply) => (v === undefined ? [] : [[ply, v]]));
  const largest = Math.max(1e-9, ...known.map(([, v]) => Math.abs(v.score)));
  const shareOf = (v) => (v.share !== null ? v.share : v.score / largest);
  const here = values[s.cursor];
  const bar = $("#eval");
  bar.hidden = here === undefined;
  if (here !== undefined) {
    const share = shareOf(here);
    $("#eval-fill").style.width = `${(50 + 50 * share).toFixed(1)}%`;
    $("#eval-bar").setAttribute("aria-valuenow", share.toFixed(3));
    $("#eval-bar").setAttribute("aria-valuetext", standing(here, info));
    $("#eval-text").textContent = `${standing(here, info)}, by ${spec}`;
    $("#eval-bar").title = `By ${spec}, ${here.scale.about}.`;
  }
  const box = $("#eval-graph-box");
  box.hidden = known.length < 2;
  if (known.length < 2) return;
  const svg = $("#eval-graph");
  const [w, h] = [300, 90];
  const x = (ply) => (w * ply) / Math.max(1, s.moves.length);
  const y = (share) => h / 2 - 0.45 * h * share;
  const ns = "http://www.w3.org/2000/svg";
  const shape = (tag, attrs) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };
  const point = ([p, v]) => {
    const dot = shape("circle", { cx: x(p), cy: y(shareOf(v)), r: 2, "data-ply": p });
    const title = shape("title", {});
    title.textContent = `${p === 0 ? "Start" : `After move ${p}`}: ${standing(v, info)}`;
    dot.append(title);
    return dot;
  };
  svg.replaceChildren(
    shape("line", { class: "axis", x1: 0, y1: h / 2, x2: w, y2: h / 2 }),
    shape("line", { class: "cursor", x1: x(s.cursor), y1: 0, x2: x(s.cursor), y2: h }),
    shape("polyline", { class: "curve", points: known.map(([p, v]) => `${x(p)},${y(shareOf(v))}`).join(" ") }),
    ...known.map(point),
  );
  // A click anywhere goes to the position nearest it: the dots are too small to aim at.
  svg.onclick = (e) => {
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((e.clientX - box.left) / box.width) * s.moves.length);
    seekTo(ply);
  };
  // The axes: the scale's ends, for the first side up and the second down.
  const scale = known[known.length - 1][1].scale.name;
  const end = scale === "discs" ? " +64 discs" : scale === "points" ? ` +${valueText(largest)}` : scale === "win-rate" ? " won" : " wins";
  $("#eval-graph-top").textContent = `${sideTitle(info.sides[0])}${end}`;
  $("#eval-graph-bottom").textContent = `${sideTitle(info.sides[1])}${end}`;
  $("#eval-graph-end").textContent = `Move ${s.moves.length}`;
  $("#eval-graph-note").textContent = `${sideTitle(info.sides[0])}'s view by ${spec}, up is better for ${sideTitle(info.sides[0])}: ${known.length} of ${values.length} positions valued (Review the game values them all). Click to go to a move.`;
}

// The hint shown for position `s`, if one was asked for there.
const hint = (s) => (analysis.hint?.key === positionKey(s) ? analysis.hint.square : null);

// The best move by the analysis AI, outlined, with a line saying which it is.
async function askHint() {
  const s = play.state;
  if (!s || s.board.outcome) return;
  const spec = $("#analysis-ai").value.trim();
  const key = positionKey(s);
  try {
    const view = await valuesAt(s, s.cursor, spec);
    if (positionKey(play.state) !== key) return;
    const best = view.best;
    analysis.hint = { key, square: best.square };
    $("#analysis-note").textContent = `Hint: ${best.text} is ${view.spec}'s best move here (${best.value}).`;
    renderPlay();
  } catch (e) {
    toast(e.message);
  }
}

// Values every position of the game with the analysis AI and lists, for each side, the
// moves that lost the most against the AI's best (forced moves left out).
async function review() {
  const s = play.state;
  const spec = $("#analysis-ai").value.trim();
  const moves = movesTo(s, s.moves.length);
  const out = $("#review-out");
  const costs = [];
  let scaleAbout = null;
  $("#review").disabled = true;
  try {
    for (let ply = 0; ply < moves.length; ply++) {
      out.textContent = `Reviewing with ${spec}: move ${ply + 1} of ${moves.length}…`;
      const view = await valuesAt(s, ply, spec);
      if (play.state.id !== s.id) return;
      scaleAbout = view.scale.about;
      remember(s, spec, ply, s.moves[ply].side, view);
      renderEval(play.state, play.info);
      if (view.scores.length < 2) continue;
      const best = view.best;
      const played = view.scores.find((v) => v.text === moves[ply]);
      // The server's loss: 0 for a best move, and for a proven move only an estimate beats.
      if (played.loss > 1e-9) costs.push({ ply, side: s.moves[ply].side, played, best });
    }
  } catch (e) {
    out.textContent = "";
    toast(e.message);
    return;
  } finally {
    $("#review").disabled = false;
  }
  const info = gameInfo(s.game);
  out.replaceChildren(...info.sides.flatMap((side) => {
    const worst = costs.filter((c) => c.side === side).sort((a, b) => b.played.loss - a.played.loss || a.ply - b.ply).slice(0, 3);
    const items = worst.map((c) => el("li", {}, el("button", {
      class: "review-move", title: "Show the position before this move",
      onclick: () => seekTo(c.ply),
    }, `${c.ply + 1}. ${c.played.text}: ${c.played.value}; ${c.best.text} was better: ${c.best.value}${c.played.certain ? "" : " (by estimate)"}`)));
    return [
      el("h3", {}, pieceIcon(side, info), `${sideTitle(side)}'s costliest moves`),
      items.length ? el("ul", {}, ...items) : el("p", { class: "muted small", text: "None: every move was as good as the best." }),
    ];
  }), el("p", { class: "muted small", text: `By ${spec}, ${scaleAbout ?? "in its own units"}.` }));
}

// Whether value `v` of a deepening view at `level` comes from a level past it: a move the
// level the time cut short had valued (core's `Deepening::is_ahead`).
function isAhead(v, level) {
  return level !== null && v.level > level;
}

// What a deepening analysis has reached, in a line: the level, the exact values, the
// best move's line, and once it is over, why it ended.
function deepeningNote(view, lines) {
  const best = bestOf(view.scores);
  const exact = view.scores.filter((v) => v.exact).length;
  // The deepening's level, past the spec's own `level=` when it has one (that sets how
  // it plays): said as what the AI did, so that the two do not read as a contradiction.
  const level = view.level === null ? `By ${view.spec}` : `${view.spec} deepened to level ${view.level}`;
  const parts = [`${level}, for the side to move`];
  if (view.scores.length) parts.push(`${exact} of ${view.scores.length} ${lines ? "lines" : "values"} exact`);
  // A level cut short by time: the moves it had valued, best first, are shown at it.
  const deeper = view.scores.filter((v) => !v.exact && isAhead(v, view.level));
  if (deeper.length) parts.push(`${deeper.length} valued at level ${view.level + 1} before the time ran out`);
  if (view.nodes !== null) parts.push(`${view.nodes.toLocaleString("en")} positions`);
  parts.push(`${(view.elapsed_ms / 1000).toFixed(1)} s`);
  let text = parts.join(", ");
  if (best) text += `. Best ${best.text} (${best.value}), line ${best.line.join(" ")}`;
  return `${text}. ${view.done ? `Ended: ${view.reason}.` : "Deepening…"}`;
}

// The number of lines the deepening asks for, `null` for every move's value.
function lineCount() {
  const n = $("#analysis-line-count").value;
  return n === "" ? null : Number(n);
}

// Plays a line of the analysis out from the position shown: its moves into the game, the
// AIs paused there, so that a learner sees where it leads and can step back along the
// move list.
async function playLine(line) {
  await withGame(async (id) => {
    let state = play.state;
    for (const mv of line) {
      state = await api("POST", `/api/games/${id}/move`, { move: mv, ply: state.cursor });
      if (play.state.id !== id) return null;
    }
    play.paused = true;
    return state;
  });
}

// The moves' values deeper and deeper, one server-sent event a level, shown as each
// comes; leaving the position aborts the request, which stops the search on the server.
async function deepen(s, spec, serial) {
  const controller = new AbortController();
  analysis.abort = controller;
  let res;
  try {
    res = await fetch("/api/analysis/deepen", {
      method: "POST", headers: { "content-type": "application/json" }, signal: controller.signal,
      body: JSON.stringify({ game: s.game, moves: movesTo(s), ai: spec, lines: lineCount() }),
    });
  } catch (e) {
    if (serial !== analysis.serial) return;
    throw new Error("Cannot reach the gamelab server: is it still running?");
  }
  if (!res.ok) {
    const data = await res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }));
    throw new Error(data.error || `${res.status} ${res.statusText}`);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ done: true }));
    if (done || serial !== analysis.serial) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const data = buffer.slice(0, end).split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("");
      buffer = buffer.slice(end + 2);
      if (!data) continue; // a keep-alive comment
      const view = JSON.parse(data);
      // With a line count the server sends the best lines, best first, and only those.
      analysis.values = { key: positionKey(s), scores: view.scores, level: view.level, lines: lineCount() !== null };
      remember(s, spec, s.cursor, s.board.to_move, view);
      $("#analysis-note").textContent = deepeningNote(view, analysis.values.lines);
      renderPlay();
    }
  }
}

async function analyse() {
  const s = play.state;
  const serial = ++analysis.serial;
  // A deepening analysis of the position left stops.
  analysis.abort?.abort();
  analysis.abort = null;
  const note = $("#analysis-note");
  if (!$("#analysis-on").checked || !s || s.board.outcome) {
    note.textContent = $("#analysis-on").checked && s?.board.outcome ? "The game is over: no moves to value." : "";
    if (analysis.values) { analysis.values = null; renderPlay(); }
    return;
  }
  const spec = $("#analysis-ai").value.trim();
  note.textContent = `${spec} is valuing the moves…`;
  try {
    // Not while an AI to move thinks: the deepening would take the cores from it (and
    // from its clock).
    const aiThinking = s.ai_to_move && !play.paused;
    if ($("#analysis-deepen").checked && !aiThinking) return await deepen(s, spec, serial);
    const view = await valuesAt(s, s.cursor, spec);
    if (serial !== analysis.serial) return;
    analysis.values = { key: positionKey(s), scores: view.scores };
    remember(s, spec, s.cursor, s.board.to_move, view);
    const waits = $("#analysis-deepen").checked ? " Deepening waits while the AI to move thinks." : "";
    note.textContent = `Values by ${view.spec} for the side to move, ${view.scale.about}; the best is outlined.${waits}`;
    renderPlay();
  } catch (e) {
    if (serial !== analysis.serial) return;
    analysis.values = null;
    note.textContent = "";
    renderPlay();
    toast(e.message);
  }
}

// Runs `work`, which posts to the game shown (its id given) and answers its new state,
// or null when the page went on to another game meanwhile (a new player, New game): the
// answer is then for the old one. One request at a time per game, its state shown, an
// error as a toast.
async function withGame(work) {
  const id = play.state.id;
  // Busy with this game only: a request still on its way for a game the page has left
  // (an AI thinking when a picker changed) must not hold up the new game's AI.
  if (play.busy === id) return;
  play.busy = id;
  try {
    const state = await work(id);
    if (state && play.state.id === id) showGame(state);
  } catch (e) {
    if (play.state.id === id) toast(e.message);
  } finally {
    if (play.busy === id) play.busy = null;
    renderControls();
    // Steps asked for while this request was on its way.
    sendSeek();
  }
}

// The move game state `s` is going to: the last asked for, else its own.
function seekBase(s) {
  for (const target of [play.seek, play.seeking]) if (target?.id === s.id) return target.ply;
  return s.cursor;
}

// Goes to move `ply` of the game shown, now or as soon as the request on its way lands.
function seekTo(ply) {
  const s = play.state;
  play.seek = { id: s.id, ply: Math.max(0, Math.min(ply, s.moves.length)) };
  renderReplay();
  sendSeek();
}

async function sendSeek() {
  const target = play.seek;
  // withGame sends it when the request on its way lands.
  if (!target || play.busy === target.id) return;
  play.seek = null;
  const s = play.state;
  if (target.id !== s.id || target.ply === s.cursor) return renderReplay();
  play.seeking = target;
  try {
    await send("seek", { ply: Math.min(target.ply, s.moves.length) });
  } finally {
    if (play.seeking === target) play.seeking = null;
  }
}

async function send(path, body) {
  await withGame(async (id) => {
    const state = await api("POST", `/api/games/${id}/${path}`, body);
    if (play.state.id !== id) return null;
    // Going back in a game stops the AIs there until Resume; a move played goes on.
    if (["seek", "undo", "redo"].includes(path)) play.paused = state.cursor < state.moves.length;
    else if (path === "move") play.paused = false;
    return state;
  });
}

// Lets the AIs move while it is their turn, unless paused (as going back pauses them).
async function runAi(generation) {
  const s = play.state;
  if (!s.ai_to_move || play.paused) return;
  // Small boards fill in a few moves: slow down so a person can follow them.
  await sleep(s.board.cells.length <= 16 ? 350 : 180);
  if (generation !== play.generation || play.paused) return;
  await send("ai-move", { ply: s.cursor });
}

function renderControls() {
  const s = play.state;
  if (!s) return;
  const humans = s.players.filter((p) => p.kind === "human").length;
  $("#undo").disabled = play.busy === s.id || !s.can_undo;
  $("#redo").disabled = play.busy === s.id || s.cursor === s.moves.length;
  const pass = s.board.legal.length === 1 && s.board.legal[0].square === null && !s.ai_to_move;
  $("#pass").hidden = !pass;
  $("#pause").hidden = s.board.outcome !== null || !(s.ai_to_move || humans === 0);
  $("#pause").textContent = play.paused ? "Resume" : "Pause";
  $("#hint").hidden = s.ai_to_move || s.board.outcome !== null;
  $("#review").hidden = !(s.board.outcome && s.cursor === s.moves.length);
}

function renderPlay() {
  const s = play.state;
  const info = play.info;
  // The game's own format (Othello's GGF), for games that have one.
  // (None for a game set up square by square: the format's games start from the start.)
  const format = s.record.native ? s.record.format : null;
  $("#record-native").hidden = !format;
  if (format) {
    $("#record-native").textContent = `Copy as ${format.toUpperCase()}`;
    $("#record-native").title = `This game as a ${format.toUpperCase()} record, which other programs read`;
  }
  // A game saves in its own format when it has one, else as its moves (which paste back).
  $("#record-save").title = format ? `Save this game as a .${format} file` : "Save this game's moves as a text file";
  const mover = s.players.find((p) => p.side === s.board.to_move);
  const status = $("#play-status");
  const last = s.cursor > 0 ? s.moves[s.cursor - 1] : null;
  const passed = last && last.square === null ? `${sideTitle(last.side)} passed. ` : "";
  if (s.board.outcome) {
    status.replaceChildren(passed + "Game over: " + outcomeText(s.board.outcome, info));
  } else {
    const mustPass = s.board.legal.length === 1 && s.board.legal[0].square === null;
    let who;
    if (mover.kind === "human") who = mustPass ? "you have no move: press Pass" : "your move";
    else if (play.paused) {
      const where = s.cursor < s.moves.length ? ` at move ${s.cursor} of ${s.moves.length}` : "";
      who = `${mover.spec} to play, paused${where}: Resume plays on from here`;
    } else who = `${mover.spec} is thinking…`;
    status.replaceChildren(pieceIcon(s.board.to_move, info), `${passed}${sideTitle(s.board.to_move)} to move — ${who}`);
  }
  renderClocks();
  // A player's name when the game came with one (a database's game, a pasted GGF), else
  // who plays the seat; then the event and the date.
  const names = s.headers?.players ?? [null, null];
  const about = [s.headers?.event, s.headers?.date].filter(Boolean).join(", ");
  $("#play-players").replaceChildren(...s.players.flatMap((p, i) => [
    i > 0 ? " · " : null,
    pieceIcon(p.side, info),
    `${sideTitle(p.side)}: `,
    el("strong", { text: names[i] ?? (p.kind === "human" ? "Human" : p.spec) }),
    names[i] && p.kind !== "human" ? ` (played by ${p.spec})` : null,
  ].filter((x) => x !== null)), ...(about ? [el("span", { class: "event", text: ` — ${about}` })] : []));
  // The named opening the position shown was reached by (Othello's catalogue of names).
  $("#play-opening").hidden = !s.opening;
  $("#play-opening").textContent = s.opening ? `Opening: ${s.opening}` : "";
  // What the AI's search did for the move just shown: how deep, how many positions, the line
  // it expected (the search's own principal variation, its move first).
  const searched = last?.search;
  $("#play-search").hidden = !searched;
  if (searched) {
    const how = searched.book_games != null
      ? `from the opening book (${searched.book_games.toLocaleString("en")} games reached this position)`
      : `${searched.exact ? `solved to the end (${searched.depth} empty squares)` : `searched ${searched.depth} plies`}, ${searched.nodes.toLocaleString("en")} positions`;
    const expects = searched.pv.length > 1 ? `, expecting ${searched.pv.join(" ")}` : "";
    $("#play-search").textContent = `Move ${s.cursor}, ${last.text}: ${how}${expects}`;
  }
  const score = $("#play-score");
  score.replaceChildren(...(s.board.score ? info.sides.map((side, i) => el("span", {}, pieceIcon(side, info), String(s.board.score[i]))) : []));

  const humanToMove = !s.ai_to_move && !s.board.outcome;
  // The board is drawn anew: a square that had the keyboard's focus gets it back.
  // The board is drawn anew: the keyboard's focus stays on it, on the same square when it
  // can still be played, else on the first that can, else on the board while the AI thinks.
  const board = $("#play-board");
  const hadFocus = board.contains(document.activeElement);
  const focused = document.activeElement?.dataset?.square;
  // Pieces that changed side since the position one move before (Othello's flips).
  const before = play.shown;
  const flipped = new Set(before && before.id === s.id && before.cursor + 1 === s.cursor
    ? s.board.cells.flatMap((c, i) => (c && before.cells[i] && c !== before.cells[i] ? [i] : [])) : []);
  // The flips turn over once, when the move comes; a redraw of the same position (new
  // values, a clock) keeps them marked without turning them again.
  const moved = !before || before.id !== s.id || before.cursor !== s.cursor;
  if (moved) play.flipped = flipped;
  play.shown = { id: s.id, cursor: s.cursor, cells: s.board.cells };
  const shownValues = analysis.values?.key === positionKey(s) ? analysis.values : null;
  const values = shownValues ? shownValues.scores : [];
  const level = shownValues?.level ?? null;
  const overlay = Object.fromEntries(values.filter((v) => v.square !== null)
    .map((v) => [v.square, {
      text: v.label, exact: v.exact === true, words: v.value,
      deeper: isAhead(v, level) ? v.level : null,
    }]));
  const best = bestOf(values);
  // The best lines, each with its value in words and the line the AI expects from it, a
  // button that plays it out: a multi-line analysis's as the server sends them (best
  // first), else the best three moves as the server ranks them.
  const ranked = shownValues?.lines ? values
    : [...values].sort((a, b) => (b.best - a.best) || (a.loss - b.loss) || (b.score - a.score)).slice(0, 3);
  $("#analysis-lines").replaceChildren(...ranked.map((v) => el("li", {},
    el("button", {
      class: "play-line", title: "Play this line out on the board (the AIs pause there)",
      onclick: () => playLine(v.line),
    }, el("strong", { text: v.text }), `: ${v.value}`,
    v.line.length > 1 ? el("span", { class: "line", text: ` — ${v.line.join(" ")}` }) : null))));
  drawBoard(board, s.board, info, {
    onSquare: humanToMove ? (i, mv) => send("move", { move: mv.text, ply: s.cursor }) : null,
    overlay, pick: best ? best.square : hint(s), flipped: play.flipped, animate: moved,
  });
  renderEval(s, info);
  if (hadFocus) {
    // The square that had the focus, else the board's Tab stop (the square last
    // reached), else the board itself while no square takes a move.
    const again = focused === undefined ? null : $(`#play-board .cell[data-square="${focused}"]`);
    (again && !again.disabled ? again : $('#play-board .cell[tabindex="0"]:not(:disabled)') || board).focus();
  }

  const list = $("#move-list");
  const focusedMove = document.activeElement?.closest?.("#move-list li")?.dataset.ply;
  list.replaceChildren(...s.moves.map((m, i) => {
    const item = el("li", {
      class: (i + 1 === s.cursor ? "current" : "") + (i >= s.cursor ? " future" : ""),
      "data-ply": i + 1,
    }, el("button", {
      title: "Show the position after this move",
      "aria-current": i + 1 === s.cursor ? "step" : null,
      onclick: () => seekTo(i + 1),
    }, el("span", { class: "n", text: `${i + 1}.` }), pieceIcon(m.side, info), m.text));
    return item;
  }));
  if (focusedMove !== undefined) list.querySelector(`li[data-ply="${focusedMove}"] button`)?.focus();
  // The current move is scrolled into view inside the list only: scrolling the page would
  // carry the board off a small screen at every move.
  const current = list.querySelector("li.current");
  if (current) {
    const inList = list.getBoundingClientRect(), item = current.getBoundingClientRect();
    if (item.top < inList.top) list.scrollTop -= inList.top - item.top;
    else if (item.bottom > inList.bottom) list.scrollTop += item.bottom - inList.bottom;
  }

  const result = $("#play-result");
  const finished = s.board.outcome && s.cursor === s.moves.length;
  result.hidden = !finished;
  if (finished) {
    const o = s.board.outcome;
    const scoreText = s.board.score ? ` (${s.board.score[0]}–${s.board.score[1]})` : "";
    result.textContent = (o.winner ? `${sideTitle(o.winner)} wins` : "Draw") + scoreText;
    result.className = "result " + (o.winner === info.sides[0] ? "win-first" : o.winner ? "win-second" : "");
  }

  renderReplay();
  renderControls();
}

// The slider and its label at the move shown; the step buttons from the move asked for,
// which may not have landed yet.
function renderReplay() {
  const s = play.state;
  const slider = $("#replay");
  slider.max = s.moves.length;
  slider.value = s.cursor;
  $("#replay-label").textContent = `move ${s.cursor} of ${s.moves.length}`;
  const ply = seekBase(s);
  $("#step-back").disabled = ply === 0;
  $("#step-forward").disabled = ply === s.moves.length;
}

function initPlay() {
  const names = catalogue.games.map((g) => g.name);
  fillGameSelect($("#play-game"), names);
  $("#play-game").addEventListener("change", () => { setupPlaySeats(); newGame(); });
  setupPlaySeats();
  $("#new-game").addEventListener("click", () => newGame());
  $("#undo").addEventListener("click", () => send("undo"));
  $("#redo").addEventListener("click", () => send("redo"));
  $("#pass").addEventListener("click", () => send("move", { move: "pass", ply: play.state.cursor }));
  $("#pause").addEventListener("click", () => {
    play.paused = !play.paused;
    renderPlay();
    // A deepening analysis waits while an AI thinks, and starts when it pauses.
    analyse();
    if (!play.paused) runAi(++play.generation);
  });
  // The slider previews while dragging and asks the server when released or stepped.
  $("#replay").addEventListener("input", (e) => {
    $("#replay-label").textContent = `move ${e.target.value} of ${play.state.moves.length}`;
  });
  $("#replay").addEventListener("change", (e) => seekTo(Number(e.target.value)));
  $("#step-back").addEventListener("click", () => seekTo(seekBase(play.state) - 1));
  $("#step-forward").addEventListener("click", () => seekTo(seekBase(play.state) + 1));
  $("#sound").checked = localStorage.getItem("gamelab-sound") === "on";
  $("#sound").addEventListener("change", (e) => localStorage.setItem("gamelab-sound", e.target.checked ? "on" : "off"));
  $("#analysis-on").addEventListener("change", () => { analyse(); saveUrl(); });
  $("#analysis-deepen").addEventListener("change", () => { analyse(); saveUrl(); });
  $("#analysis-line-count").addEventListener("change", () => { analyse(); saveUrl(); });
  $("#hint").addEventListener("click", askHint);
  $("#review").addEventListener("click", review);
  // A game's moves as people write them (the server's: Othello's as a transcript,
  // `f5d6c3`), or the whole game in the game's own format (Othello's GGF) to copy or save.
  const copyRecord = (text) => {
    $("#record-text").value = text;
    $("#record-text").select();
    navigator.clipboard?.writeText(text).catch(() => {});
  };
  $("#record-copy").addEventListener("click", () => copyRecord(play.state.record.moves));
  $("#record-native").addEventListener("click", () => copyRecord(play.state.record.native));
  $("#record-save").addEventListener("click", () => {
    const r = play.state.record;
    const [text, extension] = r.native ? [r.native, r.format] : [r.moves, "txt"];
    download(new Blob([text + "\n"], { type: "text/plain" }), `${play.state.game}-game.${extension}`);
  });
  $("#board-svg").addEventListener("click", () => {
    download(new Blob([boardSvg(play.state.board, play.info)], { type: "image/svg+xml" }), `${play.state.game}-board.svg`);
  });
  $("#board-png").addEventListener("click", async () => {
    try {
      download(await boardPng(play.state.board, play.info), `${play.state.game}-board.png`);
    } catch (e) {
      toast(`The picture could not be made: ${e.message}`);
    }
  });
  $("#record-load").addEventListener("click", () => {
    const text = $("#record-text").value.trim();
    if (!text) return toast("Paste the moves of a game first (e.g. f5d6c3 in Othello, 1,1 0,0 in tic-tac-toe).");
    newGame([], play.seats.map((seat) => seat.spec()), null, text);
  });
  $("#analysis-ai").addEventListener("change", () => { analyse(); saveUrl(); });
  $("#skip-to-board").addEventListener("click", (e) => {
    e.preventDefault();
    switchView("play");
    ($('#play-board .cell[tabindex="0"]:not(:disabled)') || $("#play-board")).focus();
  });
  // ← and → step through the game, Home and End go to its ends (not while typing).
  document.addEventListener("keydown", (e) => {
    if (!$("#view-play").classList.contains("active") || !play.state || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest("input, select, textarea, .board")) return;
    const s = play.state;
    const at = seekBase(s);
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: s.moves.length }[e.key];
    if (to === undefined || to < 0 || to > s.moves.length || to === at) return;
    e.preventDefault();
    seekTo(to);
  });
}

// The game a link or a reload names: the server's, while it keeps it; else replayed.
async function restorePlay(q) {
  const name = q.get("game");
  if (!gameInfo(name)) return false;
  const players = [q.get("a") || "human", q.get("b") || "human"];
  // The analysis as it was: on or off, deepening or not, by which AI.
  $("#analysis-on").checked = q.get("analysis") === "1";
  $("#analysis-deepen").checked = q.get("deepen") === "1";
  if (["1", "2", "3", "5"].includes(q.get("lines"))) $("#analysis-line-count").value = q.get("lines");
  play.restoredAi = q.get("ai") || null;
  if (play.state?.game === name && play.restoredAi) $("#analysis-ai").value = play.restoredAi;
  $("#play-game").value = name;
  $("#play-seed").value = q.get("seed") || "0";
  $("#play-clock").value = q.get("clock") || "";
  try {
    const state = await api("GET", `/api/games/${encodeURIComponent(q.get("id") || "")}`);
    if (state.game === name) {
      setupPlaySeats(playersOf(state));
      play.paused = state.cursor < state.moves.length;
      showGame(state);
      return true;
    }
  } catch {
    // Gone from the server (restarted, or the game was dropped): played again below.
  }
  setupPlaySeats(players);
  const moves = (q.get("moves") || "").split(" ").filter((m) => m);
  await newGame(moves, players, name, null, q.get("position") ? positionFromText(q.get("position"), gameInfo(name)) : null);
  const cursor = Number(q.get("cursor"));
  if (play.state && Number.isInteger(cursor) && cursor < play.state.moves.length) {
    play.paused = true;
    await send("seek", { ply: cursor });
  }
  return true;
}

// ---------------------------------------------------------------- position editor

// A position set up square by square, for games that allow it: the cells (a side's name
// or null) and the side to move, as the server's `position` reads them.
const editor = { cells: [], toMove: null, info: null };

// In the address: a character a square (`0`, `1` for the sides' pieces, `-` empty), `:`,
// the side to move's number.
function positionText(position, info) {
  return position.cells.map((c) => (c === null ? "-" : String(info.sides.indexOf(c)))).join("") + ":" + info.sides.indexOf(position.to_move);
}

function positionFromText(text, info) {
  const [cells, side] = text.split(":");
  return {
    cells: [...cells].map((c) => (c === "0" || c === "1" ? info.sides[Number(c)] : null)),
    to_move: info.sides[Number(side)] ?? info.sides[0],
  };
}

function renderEditor() {
  const info = editor.info;
  const board = { rows: info.rows, cols: info.cols, cells: editor.cells.map((c) => c || ""), legal: [], last: null, highlight: [] };
  const root = $("#editor-board");
  drawBoard(root, board, info);
  // Every square takes a click: empty, the first side's piece, the second's, empty again.
  for (const cell of root.querySelectorAll(".cell")) {
    cell.disabled = false;
    cell.addEventListener("click", () => {
      const i = Number(cell.dataset.square);
      const now = editor.cells[i];
      editor.cells[i] = now === null ? info.sides[0] : now === info.sides[0] ? info.sides[1] : null;
      renderEditor();
      root.querySelector(`.cell[data-square="${i}"]`)?.focus();
    });
  }
  roveOver(root);
  $("#editor-to-move").value = editor.toMove;
}

// The editor for the game picked, starting from the board in play when it is that game's.
function setupEditor(name = $("#play-game").value) {
  const info = gameInfo(name);
  $("#editor").hidden = !info.can_set_up;
  if (!info.can_set_up) return;
  editor.info = info;
  $("#editor-to-move").replaceChildren(...info.sides.map((side) => el("option", { value: side, text: sideTitle(side) })));
  editorFromGame();
}

function editorFromGame() {
  const info = editor.info;
  const s = play.state;
  if (s && s.game === info.name) {
    editor.cells = s.board.cells.map((c) => c || null);
    editor.toMove = s.board.to_move || info.sides[0];
  } else {
    editor.cells = Array(info.rows * info.cols).fill(null);
    editor.toMove = info.sides[0];
  }
  renderEditor();
}

function initEditor() {
  $("#editor-to-move").addEventListener("change", (e) => { editor.toMove = e.target.value; });
  $("#editor-from-game").addEventListener("click", editorFromGame);
  $("#editor-clear").addEventListener("click", () => {
    editor.cells = editor.cells.map(() => null);
    renderEditor();
  });
  $("#editor-play").addEventListener("click", () =>
    newGame([], play.seats.map((seat) => seat.spec()), editor.info.name, null, { cells: editor.cells, to_move: editor.toMove }));
  $("#editor").addEventListener("toggle", () => { if ($("#editor").open) editorFromGame(); });
  $("#play-game").addEventListener("change", () => setupEditor());
  setupEditor();
}

// ---------------------------------------------------------------- WTHOR games

// The French federation's tournament games, when the server was started with them: found
// by player and year, opened in the Play view between two humans, to step through.
const wthor = { shown: 0, query: null, asked: 0 };
const WTHOR_PAGE = 50;

async function findWthor(more = false) {
  if (!more) {
    const year = $("#wthor-year").value.trim();
    const [first, last] = catalogue.wthor.years;
    if (year !== "" && !(Number.isInteger(Number(year)) && Number(year) >= first && Number(year) <= last)) {
      toast(`The year must be from ${first} to ${last}, the years of the games; "${year}" is not.`);
      $("#wthor-year").focus();
      return;
    }
    wthor.query = { player: $("#wthor-player").value.trim(), year };
    wthor.shown = 0;
  }
  const q = new URLSearchParams({ offset: String(wthor.shown), limit: String(WTHOR_PAGE) });
  if (wthor.query.player) q.set("player", wthor.query.player);
  if (wthor.query.year) q.set("year", wthor.query.year);
  // Only the last search asked for is shown (a page more of an earlier one would join
  // the later one's list).
  const asked = ++wthor.asked;
  let page;
  try {
    page = await api("GET", `/api/wthor?${q}`);
  } catch (e) {
    if (asked === wthor.asked) toast(e.message);
    return;
  }
  if (asked !== wthor.asked) return;
  const items = page.games.map((g) => el("li", { "data-id": g.id },
    el("span", { class: "small" }, `${g.year} · `, el("strong", { text: g.black }), ` ${g.black_discs}–${64 - g.black_discs} `, el("strong", { text: g.white }),
      el("span", { class: "muted", text: ` · ${g.tournament}` })),
    el("button", { text: "Open", "aria-label": `Open ${g.black} against ${g.white}, ${g.year}`, onclick: () => openWthor(g) })));
  if (more) $("#wthor-list").append(...items);
  else $("#wthor-list").replaceChildren(...items);
  wthor.shown += page.games.length;
  $("#wthor-note").textContent = page.matching === 0
    ? `No game of the ${page.total.toLocaleString("en")} matches.`
    : `${page.matching.toLocaleString("en")} of ${page.total.toLocaleString("en")} games match; showing ${wthor.shown.toLocaleString("en")}.`;
  $("#wthor-more").hidden = wthor.shown >= page.matching;
}

function openWthor(g) {
  const players = ["human", "human"];
  $("#play-game").value = "othello";
  setupPlaySeats(players);
  // The players, the tournament and the year go with the game (and into its GGF).
  const headers = { players: [g.black, g.white], event: g.tournament || null, date: String(g.year) };
  newGame([], players, "othello", g.moves, null, headers);
}

function initWthor() {
  if (!catalogue.wthor) return;
  $("#wthor").hidden = false;
  const [first, last] = catalogue.wthor.years;
  $("#wthor-year").min = String(first);
  $("#wthor-year").max = String(last);
  $("#wthor-year").title = `A year from ${first} to ${last}`;
  $("#wthor-form").addEventListener("submit", (e) => { e.preventDefault(); findWthor(); });
  $("#wthor-more").addEventListener("click", () => findWthor(true));
}

// ---------------------------------------------------------------- Watch

const watch = { run: null, source: null, filter: "", a: null, b: null, shown: 0, listedAt: 0, listing: 0, runsListedAt: 0, runsListing: 0 };
// Games asked for at a time, and how often the list follows a running run.
const GAMES_PAGE = 200;
const LIST_EVERY_MS = 1000;

// The Results and Games cards as before any run: a run of another game is not shown.
function clearRun() {
  if (watch.run && !watch.run.done) api("POST", `/api/runs/${watch.run.id}/stop`).catch(() => {});
  if (watch.source) watch.source.close();
  watch.run = null;
  restartListing();
  $("#watch-title").textContent = "Results";
  $("#watch-bar").style.width = "0%";
  $("#watch-progress").textContent = "No run yet: choose A and B and press Start.";
  delete $("#watch-progress").dataset.state;
  for (const id of ["#watch-count", "#watch-ratio", "#watch-exact", "#watch-games-list"]) $(id).replaceChildren();
  for (const id of ["#watch-exact-note", "#watch-digest", "#watch-games-note"]) $(id).textContent = "";
  $("#watch-more").hidden = true;
  $("#watch-downloads").hidden = true;
  $("#watch-start").disabled = false;
  $("#watch-stop").disabled = true;
}

function setupWatchPickers(players = null) {
  const info = gameInfo($("#watch-game").value);
  const [a, b] = players || info.default_match;
  watch.a = makePicker($("#watch-a"), info, { title: "A", icon: el("span", { class: "tag win", text: "A" }), human: false, initial: a });
  watch.b = makePicker($("#watch-b"), info, { title: "B", icon: el("span", { class: "tag lose", text: "B" }), human: false, initial: b });
}

function tallyTable(table, run, cell) {
  const [first, second] = run.sides;
  const rows = [
    [`A as ${first}`, run.first, ""],
    [`A as ${second}`, run.second, ""],
    ["total", run.total, "total"],
  ];
  table.replaceChildren(
    el("thead", {}, el("tr", {}, el("th", {}, el("span", { class: "visually-hidden", text: "A played" })), el("th", { text: "win" }), el("th", { text: "lose" }), el("th", { text: "draw" }))),
    el("tbody", {}, ...rows.map(([label, t, cls]) =>
      el("tr", { class: cls }, el("td", { text: label }), ...["win", "lose", "draw"].map((k) => el("td", { "data-cell": `${label}-${k}`, text: cell(t, k) }))))),
  );
}

function renderRun(run) {
  watch.run = run;
  const total = run.games_per_side * 2;
  $("#watch-title").textContent = `A = ${run.a}  vs  B = ${run.b}`;
  $("#watch-bar").style.width = `${(100 * run.played) / total}%`;
  const secs = (run.elapsed_ms / 1000).toFixed(2);
  const state = run.done ? (run.stopped ? "stopped" : "done") : "running";
  $("#watch-progress").textContent = `${run.played.toLocaleString()} of ${total.toLocaleString()} games · ${secs} s · ${state}`;
  $("#watch-progress").dataset.state = state;
  tallyTable($("#watch-count"), run, (t, k) => t[k].toLocaleString());
  // Each share with the half-width of its 95% interval (Agresti–Coull: two wins and two
  // losses added, so that a share of 0 or 1 still has an honest width; the games of a row
  // are independent draws of the same match-up).
  tallyTable($("#watch-ratio"), run, (t, k) => {
    const n = t.win + t.lose + t.draw;
    if (!n) return "–";
    const p = (t[k] + 2) / (n + 4);
    return `${pct(t[k] / n)} ±${(196 * Math.sqrt((p * (1 - p)) / (n + 4))).toFixed(1)}`;
  });
  if (run.exact) {
    tallyTable($("#watch-exact"), { ...run, first: run.exact.first, second: run.exact.second, total: run.exact.total }, (t, k) => pct(t[k]));
  } else {
    $("#watch-exact").replaceChildren();
  }
  const lost = run.forfeits ? ` A forfeited ${run.forfeits.a}, B ${run.forfeits.b} (the first: ${run.forfeits.first?.reason ?? "–"}).` : "";
  const from = run.opening_plies ? ` Each pair of games from its own random opening of ${run.opening_plies} plies.` : "";
  const repeated = run.repeated_one_game ? " Both AIs are deterministic and the games start from the start: each way round is one game played over and over (give random opening plies)." : "";
  $("#watch-exact-note").textContent = (run.exact
    ? "Expectation over the game tree of both AIs' move distributions."
    : run.clock
      ? `On a clock of ${run.clock} s a side in every game: the games depend on the machine and its load.${lost}`
      : (run.exact_note || "") + lost) + from + repeated;
  const openingsArg = run.opening_plies ? ` --openings ${run.opening_plies}` : "";
  $("#watch-digest").textContent = run.digest ? `seed ${run.seed}${openingsArg} · digest ${run.digest} (the same as gamelab match --json)` : "";
  $("#watch-start").disabled = !run.done;
  $("#watch-stop").disabled = run.done;
  // The kept games as files, in the formats `gamelab match --records` writes.
  $("#watch-downloads").hidden = !run.games_kept;
  const records = (format) => `/api/runs/${run.id}/records?format=${format}`;
  $("#watch-download-jsonl").href = records("jsonl");
  $("#watch-download-csv").href = records("csv");
  $("#watch-download-table").href = records("table");
  const native = gameInfo(run.game).record_format;
  $("#watch-download-native-item").hidden = !native;
  if (native) {
    $("#watch-download-native").href = records(native);
    $("#watch-download-native").textContent = native.toUpperCase();
  }
  // The runs list follows too, while it is open, about once a second and when a run ends.
  const finished = run.done && watch.listedDone !== run.id;
  if (finished) watch.listedDone = run.id;
  if (finished || ($("#watch-runs").open && Date.now() - watch.runsListedAt > LIST_EVERY_MS)) listRuns();
  // The list follows a running run about once a second, and shows all of a finished one.
  if (run.done || Date.now() - watch.listedAt > LIST_EVERY_MS) loadRunGames();
}

// Shows run `run` and follows it while it goes on.
function followRun(run) {
  if (watch.source) watch.source.close();
  renderRun(run);
  saveUrl();
  if (run.done) return;
  const source = new EventSource(`/api/runs/${run.id}/events`);
  watch.source = source;
  source.onmessage = (e) => {
    const state = JSON.parse(e.data);
    renderRun(state);
    if (state.done) source.close();
  };
  source.onerror = () => source.close();
}

// Shows run `run` with its players and settings in the set-up card.
function openRun(run) {
  $("#watch-game").value = run.game;
  setupWatchPickers([run.a, run.b]);
  $("#watch-games").value = String(run.games_per_side);
  $("#watch-seed").value = String(run.seed);
  $("#watch-clock").value = run.clock ?? "";
  $("#watch-openings").value = String(run.opening_plies ?? 0);
  restartListing();
  followRun(run);
}

async function restoreWatch(q) {
  const id = q.get("run");
  if (!id) return;
  try {
    openRun(await api("GET", `/api/runs/${encodeURIComponent(id)}`));
  } catch {
    toast("The run this page showed is no longer on the server (it keeps the last 64 runs, until it restarts).");
  }
}

// Every run on the server, the newest first, to reopen (after a reload, or from another
// tab) or to stop.
async function listRuns() {
  watch.runsListedAt = Date.now();
  // Only the newest listing is shown: one overtaken by the listing of a run's end would
  // show it playing for good.
  const listing = ++watch.runsListing;
  let runs;
  try {
    ({ runs } = await api("GET", "/api/runs"));
  } catch (e) {
    toast(e.message);
    return;
  }
  if (listing !== watch.runsListing) return;
  const list = $("#watch-runs-list");
  $("#watch-runs").querySelector("summary").textContent = `Runs on this server (${runs.length})`;
  if (runs.length === 0) {
    list.replaceChildren(el("li", { class: "muted small", text: "None yet." }));
    return;
  }
  list.replaceChildren(...runs.map((r) => {
    const state = r.done ? (r.stopped ? "stopped" : "done") : "playing";
    const item = el("li", { "data-run": r.id, "data-state": state },
      el("span", { class: "small" }, el("strong", { text: `${gameInfo(r.game).title}: ` }), `${r.a} vs ${r.b}`,
        el("span", { class: "muted", text: ` · ${r.played.toLocaleString()} of ${(2 * r.games_per_side).toLocaleString()} · ${state}` })),
      el("span", { class: "run-buttons" },
        el("button", { text: "Open", "aria-label": `Open the run ${r.a} vs ${r.b}`, onclick: () => openRun(r) }),
        r.done ? null : el("button", {
          text: "Stop", "aria-label": `Stop the run ${r.a} vs ${r.b}`,
          onclick: () => api("POST", `/api/runs/${r.id}/stop`).then(listRuns, (e) => toast(e.message)),
        })));
    return item;
  }));
}

function startRun() {
  const games = wholeNumber($("#watch-games"), "Games per side", 1, 1000000);
  const seed = games === null ? null : wholeNumber($("#watch-seed"), "The seed", 0, MAX_SEED);
  const openings = seed === null ? null : wholeNumber($("#watch-openings"), "Random opening plies", 0, 30);
  if (openings === null) return;
  const body = {
    game: $("#watch-game").value,
    a: watch.a.spec(),
    b: watch.b.spec(),
    games_per_side: games,
    seed,
    openings,
  };
  const clock = $("#watch-clock").value.trim();
  if (clock) body.clock = clock;
  if (watch.source) watch.source.close();
  $("#watch-games-list").replaceChildren();
  $("#watch-games-note").textContent = "";
  restartListing();
  api("POST", "/api/runs", body).then((run) => { followRun(run); listRuns(); }, (e) => toast(e.message));
}

// The games list starts again from its first page, and no listing asked for before
// (another run's) is shown.
function restartListing() {
  watch.shown = 0;
  watch.listedAt = 0;
  watch.listing++;
}

// The run's games, from the first: as many as are shown already (at least a page), or
// with `more`, a page more.
async function loadRunGames(more = false) {
  const run = watch.run;
  watch.listedAt = Date.now();
  // Shown unless a newer listing was asked for meanwhile: a running run sends a new state
  // every few milliseconds, so "still the same state" would throw most listings away.
  const listing = ++watch.listing;
  if (!run.games_kept) {
    $("#watch-games-note").textContent = "Games are kept for runs of up to 10,000 games per side.";
    return;
  }
  try {
    const limit = Math.min(1000, Math.max(GAMES_PAGE, watch.shown) + (more ? GAMES_PAGE : 0));
    const q = new URLSearchParams({ limit: String(limit) });
    if (watch.filter) q.set("result", watch.filter);
    const page = await api("GET", `/api/runs/${run.id}/games?${q}`);
    if (listing !== watch.listing) return;
    watch.shown = page.games.length;
    const info = gameInfo(run.game);
    $("#watch-games-list").replaceChildren(...page.games.map((g) => {
      const score = g.score ? ` · ${g.score[0]}–${g.score[1]}` : "";
      return el("li", { "data-index": g.index },
        el("span", {}, `#${g.index + 1} · A as ${g.a_side} · `, el("span", { class: `tag ${g.result}`, text: g.result }), `${score} · ${g.moves.length} moves`),
        el("button", { text: "Replay", "aria-label": `Replay game ${g.index + 1} in ${info.title}`, onclick: () => openInPlay(run, g) }));
    }));
    const running = run.done ? "" : " so far";
    $("#watch-games-note").textContent = page.matching > page.games.length
      ? `Showing the first ${page.games.length.toLocaleString()} of ${page.matching.toLocaleString()}${running}.`
      : `${page.matching.toLocaleString()} games${running}.`;
    // The server gives at most 1,000 games a request: past that, the filters narrow it.
    $("#watch-more").hidden = page.matching <= page.games.length || page.games.length >= 1000;
  } catch (e) {
    toast(e.message);
  }
}

// Opens a finished game of a run in the Play view, at its last move, for replay.
function openInPlay(run, g) {
  const aFirst = g.a_side === run.sides[0];
  const players = aFirst ? [run.a, run.b] : [run.b, run.a];
  switchView("play");
  $("#play-game").value = run.game;
  setupPlaySeats(players);
  newGame(g.moves, players, run.game);
}

function initWatch() {
  fillGameSelect($("#watch-game"), catalogue.games.map((g) => g.name));
  $("#watch-game").addEventListener("change", () => { clearRun(); setupWatchPickers(); saveUrl(); });
  $("#watch-more").addEventListener("click", () => loadRunGames(true));
  $("#watch-runs").addEventListener("toggle", () => { if ($("#watch-runs").open) listRuns(); });
  setupWatchPickers();
  $("#watch-start").addEventListener("click", startRun);
  $("#watch-stop").addEventListener("click", () => {
    if (watch.run) api("POST", `/api/runs/${watch.run.id}/stop`).catch((e) => toast(e.message));
  });
  for (const chip of document.querySelectorAll("#watch-filters .chip")) {
    chip.addEventListener("click", () => {
      watch.filter = chip.dataset.result;
      watch.shown = 0;
      for (const c of document.querySelectorAll("#watch-filters .chip")) c.classList.toggle("active", c === chip);
      if (watch.run) loadRunGames();
    });
  }
}

// ---------------------------------------------------------------- Tournament

const tour = { entrants: [], state: null, source: null };
const MAX_ENTRANTS = 8;

function addEntrant(initial) {
  const info = gameInfo($("#tour-game").value);
  const box = el("div", { class: "seat entrant" });
  const entry = { box, picker: null };
  entry.picker = makePicker(box, info, { title: `AI ${tour.entrants.length + 1}`, icon: null, human: false, initial });
  box.append(el("button", {
    class: "remove", text: "Remove", title: "This AI does not enter",
    onclick: () => {
      if (tour.entrants.length <= 2) return toast("A tournament needs at least two AIs.");
      tour.entrants = tour.entrants.filter((e) => e !== entry);
      box.remove();
    },
  }));
  tour.entrants.push(entry);
  $("#tour-entrants").append(box);
}

function setupEntrants(ais = null) {
  const info = gameInfo($("#tour-game").value);
  tour.entrants = [];
  $("#tour-entrants").replaceChildren();
  // By default the game's match pair and one more AI, so that there is a table to see.
  const third = info.ais.map((a) => a.name).find((n) => !info.default_match.includes(n));
  for (const spec of ais || [...info.default_match, ...(third ? [third] : [])]) addEntrant(spec);
}

function renderTournament(t) {
  tour.state = t;
  $("#tour-title").textContent = `Standings · ${gameInfo(t.game).title}`;
  $("#tour-bar").style.width = `${(100 * t.played) / t.total}%`;
  const state = t.done ? (t.stopped ? "stopped" : "done") : "running";
  const settings = (t.openings ? ` · openings of ${t.openings} plies` : "") + (t.clock ? ` · clock ${t.clock} s a side` : "");
  $("#tour-progress").textContent = `${t.played.toLocaleString("en")} of ${t.total.toLocaleString("en")} games${settings} · ${(t.elapsed_ms / 1000).toFixed(2)} s · ${state}` + (t.error ? ` — ${t.error}` : "");
  $("#tour-progress").dataset.state = state;
  $("#tour-start").disabled = !t.done;
  $("#tour-stop").disabled = t.done;
  const games = (p) => p.results.reduce((n, r) => n + r.win + r.lose + r.draw, 0);
  const points = (p) => p.results.reduce((n, r) => n + r.win + r.draw / 2, 0);
  $("#tour-standings").replaceChildren(
    el("thead", {}, el("tr", {}, ...["#", "AI", "Elo", "± 95%", "games", "score"].map((h) => el("th", { text: h })))),
    el("tbody", {}, ...t.standings.map((p, i) => el("tr", { "data-ai": p.ai },
      el("td", { text: String(i + 1) }), el("td", { class: "ai-name" }, ...breakable(p.ai)),
      el("td", { text: p.elo.toFixed(0) }), el("td", { text: p.interval95.toFixed(0) }),
      el("td", { text: games(p).toLocaleString("en") }),
      el("td", { text: games(p) ? `${pct(points(p) / games(p))}%` : "–" })))));
  // The crosstable, rows and columns in the standings' order.
  const order = t.standings.map((p) => p.ai);
  $("#tour-cross").replaceChildren(
    el("thead", {}, el("tr", {}, el("th", {}, el("span", { class: "visually-hidden", text: "AI" })), ...order.map((a, i) => el("th", { title: a, text: String(i + 1) })))),
    el("tbody", {}, ...t.standings.map((p, i) => el("tr", {},
      el("th", { class: "ai-name", title: p.ai, text: `${i + 1}. ${p.ai}` }),
      ...order.map((o) => {
        const r = p.results.find((x) => x.opponent === o);
        if (!r) return el("td", { class: "self", text: "" });
        const n = r.win + r.lose + r.draw;
        return el("td", { "data-cell": `${p.ai}|${o}`, title: `${r.win} won, ${r.lose} lost, ${r.draw} drawn`, text: n ? `${pct((r.win + r.draw / 2) / n)}%` : "–" });
      })))));
  renderEloChart(t);
  $("#tour-download-line").hidden = false;
  $("#tour-download").href = `/api/tournaments/${t.id}/csv`;
}

// An AI's spec as text that a narrow column may break after its `:` and `,` only, never
// inside a word.
function breakable(spec) {
  return spec.split(/(?<=[:,])/).flatMap((part, i) => (i ? [el("wbr"), part] : [part]));
}

// Each AI's rating as a point with its 95% interval as a bar, on one scale.
function renderEloChart(t) {
  const svg = $("#tour-chart");
  const rows = t.standings;
  // Names on the left, each rating's value on the right, the scale between.
  const row = 26, left = 150, right = 90, width = 480;
  const height = rows.length * row + 24;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const lo = Math.min(...rows.map((p) => p.elo - p.interval95), -50);
  const hi = Math.max(...rows.map((p) => p.elo + p.interval95), 50);
  const x = (v) => left + ((v - lo) / (hi - lo)) * (width - left - right);
  const ns = "http://www.w3.org/2000/svg";
  const shape = (name, attrs, text) => {
    const node = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const parts = [shape("line", { class: "axis", x1: x(0), x2: x(0), y1: 4, y2: height - 18 }), shape("text", { class: "tick", x: x(0), y: height - 4, "text-anchor": "middle" }, "0")];
  rows.forEach((p, i) => {
    const y = 16 + i * row;
    const name = p.ai.length > 22 ? `${p.ai.slice(0, 21)}…` : p.ai;
    parts.push(
      shape("text", { class: "label", x: left - 8, y: y + 4, "text-anchor": "end" }, name),
      shape("line", { class: "interval", x1: x(p.elo - p.interval95), x2: x(p.elo + p.interval95), y1: y, y2: y }),
      shape("circle", { class: "rating", cx: x(p.elo), cy: y, r: 4.5, "data-ai": p.ai }),
      shape("text", { class: "value", x: width - 4, y: y + 4, "text-anchor": "end" }, `${p.elo >= 0 ? "+" : "−"}${Math.abs(p.elo).toFixed(0)} ±${p.interval95.toFixed(0)}`));
  });
  svg.replaceChildren(...parts);
  $("#tour-chart-box").hidden = false;
}

async function restoreTournament(q) {
  const id = q.get("tournament");
  if (!id) return;
  try {
    const t = await api("GET", `/api/tournaments/${encodeURIComponent(id)}`);
    $("#tour-game").value = t.game;
    setupEntrants(t.ais);
    $("#tour-games").value = String(t.games_per_side);
    $("#tour-seed").value = String(t.seed);
    $("#tour-openings").value = String(t.openings ?? 0);
    $("#tour-clock").value = t.clock ?? "";
    followTournament(t);
  } catch {
    toast("The tournament this page showed is no longer on the server (it keeps the last 16, until it restarts).");
  }
}

function followTournament(t) {
  if (tour.source) tour.source.close();
  renderTournament(t);
  saveUrl();
  if (t.done) return;
  const source = new EventSource(`/api/tournaments/${t.id}/events`);
  tour.source = source;
  source.onmessage = (e) => {
    const state = JSON.parse(e.data);
    renderTournament(state);
    if (state.done) source.close();
  };
  source.onerror = () => source.close();
}

function startTournament() {
  const games = wholeNumber($("#tour-games"), "Games per side", 1, 100000);
  const seed = games === null ? null : wholeNumber($("#tour-seed"), "The seed", 0, MAX_SEED);
  const openings = seed === null ? null : wholeNumber($("#tour-openings"), "Random opening plies", 0, 30);
  if (openings === null) return;
  const body = { game: $("#tour-game").value, ais: tour.entrants.map((e) => e.picker.spec()), games_per_side: games, seed, openings };
  const clock = $("#tour-clock").value.trim();
  if (clock) body.clock = clock;
  api("POST", "/api/tournaments", body).then(followTournament, (e) => toast(e.message));
}

function initTournament() {
  fillGameSelect($("#tour-game"), catalogue.games.map((g) => g.name));
  $("#tour-game").addEventListener("change", () => setupEntrants());
  $("#tour-add").addEventListener("click", () => {
    if (tour.entrants.length >= MAX_ENTRANTS) return toast(`A tournament takes at most ${MAX_ENTRANTS} AIs.`);
    const info = gameInfo($("#tour-game").value);
    const taken = new Set(tour.entrants.map((e) => e.picker.spec()));
    addEntrant(info.ais.map((a) => a.name).find((n) => !taken.has(n)) || info.ais[0].name);
  });
  $("#tour-start").addEventListener("click", startTournament);
  $("#tour-stop").addEventListener("click", () => {
    if (tour.state) api("POST", `/api/tournaments/${tour.state.id}/stop`).catch((e) => toast(e.message));
  });
  setupEntrants();
}

// ---------------------------------------------------------------- Explore

const explore = { moves: [], picker: null, view: null, info: null, asked: 0 };

async function exploreAt(moves) {
  const game = explore.info.name;
  // A game too large to solve whole is valued by a search: the AI named in the field.
  const valuer = explore.info.explorable ? undefined : ($("#explore-valuer").value.trim() || explore.info.analysis_ai);
  const body = { game, moves, valuer };
  const ai = explore.picker.spec();
  // Only the position asked for last is shown: two children tapped quickly, the first
  // answered last, must not leave the page on the first.
  const asked = ++explore.asked;
  try {
    const view = await api("POST", "/api/explore", body);
    if (asked !== explore.asked || explore.info.name !== game) return;
    explore.moves = moves;
    explore.view = view;
    renderExplore();
    saveUrl();
    if (!view.board.outcome) {
      const withAi = await api("POST", "/api/explore", { ...body, ai });
      if (asked === explore.asked && explore.info.name === game) {
        explore.view = withAi;
        renderExplore();
      }
    }
  } catch (e) {
    if (asked === explore.asked) toast(e.message);
  }
}

function valueBadge(value) {
  return el("span", { class: `badge v${value.value}`, text: value.text });
}

function renderExplore() {
  const v = explore.view;
  const info = explore.info;
  const status = $("#explore-status");
  status.replaceChildren(...(v.board.outcome ? ["Game over: " + outcomeText(v.board.outcome, info)] : [pieceIcon(v.board.to_move, info), `${v.board.to_move} to move`]));
  const badge = $("#explore-value");
  badge.className = `badge v${v.value.value}`;
  badge.textContent = (v.board.outcome ? "" : v.valuer ? `by ${v.valuer}: ` : "with best play: ") + v.value.text;
  $("#explore-children-note").textContent = v.valuer
    ? `value by ${v.valuer}'s search (exact where it reaches the end); ★ best for the side to move`
    : "value with best play; ★ best for the side to move";
  $("#explore-path").textContent = v.moves.length ? `Moves: ${v.moves.join("  ")}` : "The empty board.";

  const overlay = {};
  let pick = null;
  if (v.valuer) {
    // Searched values: each move's on its square, as the Play view's analysis shows them.
    for (const c of v.children) if (c.square !== null && c.value.score !== undefined) overlay[c.square] = valueText(c.value.score * (v.board.to_move === info.sides[0] ? 1 : -1));
  }
  if (v.ai) {
    pick = v.ai.choice.square;
    if (!v.valuer) for (const r of v.ai.policy || []) overlay[r.square] = `${Math.round(100 * r.score)}%`;
  }
  drawBoard($("#explore-board"), v.board, info, {
    onSquare: (i, mv) => exploreAt([...v.moves, mv.text]),
    overlay, pick,
  });

  const parent = $("#explore-parent");
  if (v.parent) {
    const last = v.board.last ? v.board.last.square : null;
    parent.replaceChildren(el("button", { class: "child", id: "explore-up", title: "Go up to the parent", onclick: () => exploreAt(v.parent) },
      el("span", { class: "mv", text: "↑ Parent" }), miniBoard(v.parent_cells, info), el("span", { class: "muted small", text: last !== null ? `then ${v.moves[v.moves.length - 1]}` : "" })));
  } else {
    parent.replaceChildren(el("span", { class: "none", text: "The start has no parent." }));
  }

  const children = $("#explore-children");
  if (v.children.length === 0) {
    children.replaceChildren(el("p", { class: "muted", text: "The game is over here: no children." }));
  } else {
    children.replaceChildren(...v.children.map((c) =>
      el("button", { class: "child" + (c.best ? " best" : ""), "data-move": c.text, onclick: () => exploreAt(c.moves) },
        el("span", { class: "mv", text: (c.best ? "★ " : "") + c.text }),
        miniBoard(c.cells, info, c.square),
        valueBadge(c.value))));
  }

  const out = $("#explore-ai-result");
  if (!v.ai) {
    out.replaceChildren(el("p", { class: "muted small", text: v.board.outcome ? "The game is over: no move to choose." : "" }));
    return;
  }
  const parts = [el("p", {}, `${v.ai.spec} plays `, el("strong", { id: "explore-ai-choice", text: v.ai.choice.text }), " here (seed 0).")];
  const scores = new Map((v.ai.scores || []).map((s) => [s.text, s.score]));
  const probs = new Map((v.ai.policy || []).map((s) => [s.text, s.score]));
  if (scores.size || probs.size) {
    const moves = v.board.legal.map((m) => m.text);
    parts.push(el("table", { class: "ai-table" },
      el("thead", {}, el("tr", {}, el("th", { text: "move" }), el("th", { text: "score" }), el("th", { text: "chance" }))),
      el("tbody", {}, ...moves.map((m) => el("tr", { class: m === v.ai.choice.text ? "chosen" : "" },
        el("td", { text: m }),
        el("td", { text: scores.has(m) ? String(+scores.get(m).toFixed(3)) : "–" }),
        el("td", { text: probs.has(m) ? `${pct(probs.get(m))}%` : "–" }))))));
  }
  if (v.ai.explain) {
    parts.push(el("h3", { text: "Its reasoning" }), el("pre", { class: "explain", text: v.ai.explain, tabindex: "0", "aria-label": "The AI's reasoning" }));
  }
  out.replaceChildren(...parts);
}

// Explore `name` from `moves`: its AI picker and, for a game valued by a search, the valuer.
function exploreGame(name, moves = []) {
  explore.info = gameInfo(name);
  $("#explore-game").value = name;
  $("#explore-valuer-row").hidden = explore.info.explorable;
  $("#explore-valuer").value = explore.info.analysis_ai;
  explore.picker = makePicker($("#explore-ai"), explore.info, {
    title: "AI", icon: null, human: false, initial: explore.info.default_match[0], onChange: () => exploreAt(explore.moves),
  });
  explore.moves = [];
  return exploreAt(moves);
}

function initExplore(game, moves = []) {
  fillGameSelect($("#explore-game"), catalogue.games.map((g) => g.name));
  $("#explore-game").addEventListener("change", (e) => exploreGame(e.target.value));
  $("#explore-valuer").addEventListener("change", () => exploreAt(explore.moves));
  $("#explore-start").addEventListener("click", () => exploreAt([]));
  // By default the first game small enough to solve whole.
  const known = catalogue.games.some((g) => g.name === game);
  exploreGame(known ? game : (catalogue.games.find((g) => g.explorable) || catalogue.games[0]).name, known ? moves : []);
}

// ---------------------------------------------------------------- tabs and start

function switchView(name) {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.classList.toggle("active", tab.dataset.view === name);
    tab.setAttribute("aria-selected", String(tab.dataset.view === name));
  }
  for (const view of document.querySelectorAll(".view")) view.classList.toggle("active", view.id === `view-${name}`);
  if (name === "watch") listRuns();
  saveUrl();
}

// The page's state in its address, so that a reload or a link brings it back: the view,
// the game in play (its id on the server, and enough to replay it), the run, the tree
// position.
let restoring = true;
function saveUrl() {
  if (restoring || !catalogue) return;
  const view = document.querySelector(".tab.active")?.dataset.view || "play";
  const q = new URLSearchParams({ view });
  if (view === "play" && play.state) {
    const s = play.state;
    const [a, b] = playersOf(s);
    q.set("game", s.game);
    q.set("id", s.id);
    q.set("a", a);
    q.set("b", b);
    q.set("seed", String(s.seed));
    q.set("moves", s.moves.map((m) => m.text).join(" "));
    q.set("cursor", String(s.cursor));
    if (s.position) q.set("position", positionText(s.position, gameInfo(s.game)));
    if (s.clock) q.set("clock", s.clock.control);
    if ($("#analysis-on").checked) q.set("analysis", "1");
    if ($("#analysis-deepen").checked) q.set("deepen", "1");
    if (lineCount() !== null) q.set("lines", String(lineCount()));
    const ai = $("#analysis-ai").value.trim();
    if (ai && ai !== gameInfo(s.game).analysis_ai) q.set("ai", ai);
  } else if (view === "watch" && watch.run) {
    q.set("run", watch.run.id);
  } else if (view === "tournament" && tour.state) {
    q.set("tournament", tour.state.id);
  } else if (view === "explore" && explore.info) {
    q.set("game", explore.info.name);
    if (explore.moves.length) q.set("moves", explore.moves.join(" "));
  }
  // A new entry in the browser's history for each view, game, run, tournament or tree
  // position, so that Back and Forward move through them; moves within a game, and the
  // settings, replace the entry.
  const key = [view, q.get("id"), q.get("run"), q.get("tournament"), view === "explore" ? `${q.get("game")} ${q.get("moves")}` : ""].join("|");
  if (history.state?.key && history.state.key !== key) history.pushState({ key }, "", `#${q}`);
  else history.replaceState({ key }, "", `#${q}`);
}

// Back and Forward: the view and what it showed, from the address. Restoring may wait on
// the server; a tab the user picks meanwhile is the view they want, so it is not undone.
let tabsPicked = 0;
let historyFollowed = 0;
async function followHistory() {
  restoring = true;
  const picked = tabsPicked;
  try {
    const q = new URLSearchParams(location.hash.slice(1));
    const view = ["play", "watch", "tournament", "explore"].includes(q.get("view")) ? q.get("view") : "play";
    if (view === "play" && q.get("id") && q.get("id") !== play.state?.id) await restorePlay(q);
    if (view === "watch" && q.get("run") !== watch.run?.id) await restoreWatch(q);
    if (view === "tournament" && q.get("tournament") !== tour.state?.id) await restoreTournament(q);
    if (view === "explore" && q.get("game")) {
      const moves = (q.get("moves") || "").split(" ").filter((m) => m);
      if (q.get("game") !== explore.info?.name) await exploreGame(q.get("game"), moves);
      else if (moves.join(" ") !== explore.moves.join(" ")) await exploreAt(moves);
    }
    if (tabsPicked === picked) switchView(view);
  } finally {
    restoring = false;
  }
  saveUrl();
  document.body.dataset.historyFollowed = String(++historyFollowed);
}

async function main() {
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => { tabsPicked++; switchView(tab.dataset.view); });
  try {
    catalogue = await api("GET", "/api/catalogue");
  } catch (e) {
    toast(`Cannot reach the gamelab server: ${e.message}`);
    return;
  }
  const q = new URLSearchParams(location.hash.slice(1));
  const view = ["play", "watch", "tournament", "explore"].includes(q.get("view")) ? q.get("view") : "play";
  initPlay();
  // The running clock counts down between the server's readings.
  setInterval(() => { if (play.state?.clock?.running) renderClocks(); }, 100);
  initEditor();
  initWthor();
  initWatch();
  initTournament();
  if (view === "explore") initExplore(q.get("game"), (q.get("moves") || "").split(" ").filter((m) => m));
  else initExplore(null);
  if (!(view === "play" && (await restorePlay(q)))) await newGame();
  if (view === "watch") await restoreWatch(q);
  if (view === "tournament") await restoreTournament(q);
  switchView(view);
  restoring = false;
  saveUrl();
  window.addEventListener("popstate", followHistory);
  document.body.dataset.ready = "true";
}

main();
