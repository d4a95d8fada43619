// Browser tests of the web app: a real `gamelab serve` driven through Debian's Chromium.
//
//   GAMELAB_BIN=target/debug/gamelab node --test app.test.mjs
//
// Screenshots go to $SCREENSHOT_DIR (default target/screenshots) for a person to look at.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const bin = resolve(root, process.env.GAMELAB_BIN || "target/debug/gamelab");
const shots = resolve(root, process.env.SCREENSHOT_DIR || "target/screenshots");
mkdirSync(shots, { recursive: true });

// A game of two humans in which black must pass after these moves (found by random play
// through the API; the test checks that the pass really comes).
const OTHELLO_TO_PASS = ["d3", "c5", "c6", "c7", "f6", "e3", "f3", "f2", "f1", "d6", "d7", "e8", "b5",
  "b6", "a7", "f4", "b7", "a6", "f5", "g3", "d8", "c4", "b8", "g2", "a4", "g6", "g5", "a5", "h2", "h3",
  "b3", "h1", "c3", "g4", "h6", "c8", "h4", "g1", "f8", "e2", "d2", "e7", "b4", "g7", "h8", "f7", "h7",
  "a8", "e1", "g8", "h5", "e6"];

let server;
let url;
let browser;

before(async () => {
  // `opener` is a scripted outside engine that answers F5 (tests/fixtures/opener.sh).
  const opener = resolve(root, "crates/web/tests/fixtures/opener.sh");
  const wthorFolder = resolve(root, "../shared/data/othello/wthor");
  server = spawn(bin, ["serve", "--port", "0", "--engine", `opener=${opener}`, "--engine", `nboard:nboard-opener=${opener}`, "--wthor", wthorFolder], { stdio: ["ignore", "pipe", "inherit"] });
  url = await new Promise((ok, fail) => {
    let out = "";
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) ok(m[0]);
    });
    server.on("exit", (code) => fail(new Error(`gamelab serve exited with ${code}: ${out}`)));
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

async function open(viewport = { width: 1360, height: 900 }, options = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector("body[data-ready]");
  page.errors = errors;
  return page;
}

const shot = (page, name) => page.screenshot({ path: join(shots, `${name}.png`) });
const square = (board, i) => `#${board} .cell[data-square="${i}"]`;
const cellsOf = (page, board) =>
  page.$$eval(`#${board} .cell`, (cells) => cells.map((c) => c.querySelector(".mark-0") ? "o" : c.querySelector(".mark-1") ? "x" : ""));
const status = (page) => page.textContent("#play-status");
const moveCount = (page) => page.$$eval("#move-list li", (items) => items.length);

// Clicks a square and waits until the move is in the list.
async function playAt(page, selector) {
  const before = await moveCount(page);
  await page.click(selector);
  await page.waitForFunction((n) => document.querySelectorAll("#move-list li").length > n, before);
}

// Waits until the human is to move or the game is over.
async function humanTurn(page) {
  await page.waitForFunction(() => {
    const s = document.querySelector("#play-status").textContent;
    return s.includes("your move") || s.startsWith("Game over");
  });
}

// The lines above the board (status, players, opening, clocks, the search's line, the
// board) that are shown, each wholly below the one before: none rides over another.
async function assertLinesApart(page) {
  const boxes = await page.$$eval(
    ".board-card .status-line, #play-players, #play-opening, #play-clocks, #play-search, .board-card .board-frame",
    (els) => els.filter((e) => e.offsetParent !== null).map((e) => {
      const r = e.getBoundingClientRect();
      return { id: e.id || e.className, top: r.top, bottom: r.bottom };
    }));
  assert.ok(boxes.length >= 3, JSON.stringify(boxes));
  for (let i = 1; i < boxes.length; i++) {
    assert.ok(boxes[i].top >= boxes[i - 1].bottom - 0.5,
      `${boxes[i].id} (top ${boxes[i].top}) overlaps ${boxes[i - 1].id} (bottom ${boxes[i - 1].bottom})`);
  }
  return boxes;
}

// A of the Watch view as minimax at depth 4 on Othello: a run of 10,000 games per side
// takes hours of a core (depth 3, the default, plays hundreds of games a second), so a
// test can see it running, list its games and stop it on any machine.
async function slowWatchA(page) {
  await page.selectOption("#watch-a select.ai", "minimax");
  await page.click("#watch-a details summary");
  await page.fill('#watch-a [data-param="depth"]', "4");
}

// Holds the page's next request to `pattern` (one `which` accepts): the server answers
// it at once, the page gets the answer only when `deliver` is called. `held` settles, with
// `deliver`, when the request is made; `deliver` settles once the page has had the answer.
async function holdOneAnswer(page, pattern, which = () => true) {
  let holding = true;
  let made;
  const held = new Promise((ok) => { made = ok; });
  await page.route(pattern, async (route) => {
    if (!holding || !which(route.request())) return route.continue();
    holding = false;
    const request = route.request();
    const response = await route.fetch();
    made(async () => {
      const answered = page.waitForResponse((r) => r.request() === request);
      await route.fulfill({ response });
      await answered;
      // The page's handler runs within a frame or two of the answer.
      await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
      await page.unroute(pattern);
    });
  });
  return { held };
}

// An Othello game between two people, its first `plies` moves those of OTHELLO_TO_PASS.
async function othelloBetweenPeople(page, plies) {
  await page.selectOption("#play-game", "othello");
  await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
  await page.selectOption("#play-seat-1 select.ai", "human");
  await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("White: Human"));
  await page.click("#records summary");
  await page.fill("#record-text", OTHELLO_TO_PASS.slice(0, plies).join(""));
  await page.click("#record-load");
  await page.waitForFunction((n) => document.querySelectorAll("#move-list li").length === n, plies);
}

async function api(path, body) {
  const res = await fetch(new URL(path, url), {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

test("a tic-tac-toe game against ai14s: first free square loses, best play draws", async () => {
  const page = await open();
  // Human o takes the first free square every move (ai1's rule): ai14s wins, as the exact
  // table says (ai1 loses 100% as o against ai14s).
  const exact = await api("/api/runs", { game: "ttt", a: "ai1", b: "ai14s", games_per_side: 1 });
  assert.equal(exact.body.exact.first.lose, 1);
  for (;;) {
    await humanTurn(page);
    if ((await status(page)).startsWith("Game over")) break;
    await playAt(page, "#play-board .cell.legal >> nth=0");
  }
  assert.equal(await page.textContent("#play-result"), "X wins");
  assert.equal((await page.$$("#play-board .cell.won")).length, 3, "the winning line is marked");
  await shot(page, "ttt-lost-to-ai14s");

  // Now the best move each time, read from the tree viewer's API: ai14s never loses, so
  // perfect play by both is a draw.
  await page.click("#new-game");
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 0);
  for (;;) {
    await humanTurn(page);
    if ((await status(page)).startsWith("Game over")) break;
    const moves = await page.$$eval("#move-list li button", (items) => items.map((b) => b.lastChild.textContent));
    const view = await api("/api/explore", { moves });
    const best = view.body.children.find((c) => c.best);
    await playAt(page, square("play-board", best.square));
  }
  assert.equal(await page.textContent("#play-result"), "Draw");
  assert.equal((await page.$$("#move-list li")).length, 9);
  await shot(page, "ttt-draw-with-ai14s");
  assert.deepEqual(page.errors, []);
});

test("undo and redo step over the AI's replies", async () => {
  const page = await open();
  await page.click(square("play-board", 4));
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2);
  await humanTurn(page);
  const afterTwo = await cellsOf(page, "play-board");
  assert.equal(afterTwo.filter((c) => c).length, 2);
  assert.equal(afterTwo[4], "o");

  await page.click("#undo");
  await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 0 of 2");
  assert.deepEqual(await cellsOf(page, "play-board"), Array(9).fill(""));
  assert.equal(await page.isDisabled("#undo"), true);
  await shot(page, "ttt-after-undo");

  await page.click("#redo");
  await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 2 of 2");
  assert.deepEqual(await cellsOf(page, "play-board"), afterTwo);
  assert.equal(await page.isDisabled("#redo"), true);

  // A different move after an undo starts a new line.
  await page.click("#undo");
  await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 0 of 2");
  await page.click(square("play-board", 0));
  await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 2 of 2");
  assert.equal((await cellsOf(page, "play-board"))[0], "o");
  assert.deepEqual(page.errors, []);
});

// An AI that opens: its move is no move of yours to take back (it would only be played
// again the same way), so Undo waits for your first move.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`an AI that opens: Undo waits for a move of yours (${name})`, async () => {
    const page = await open(viewport);
    await page.selectOption("#play-seat-1 select.ai", "human");
    await page.selectOption("#play-seat-0 select.ai", "ai14s");
    await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 1);
    await humanTurn(page);
    assert.equal(await page.isDisabled("#undo"), true);
    const free = (await cellsOf(page, "play-board")).indexOf("");
    await page.click(square("play-board", free));
    await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 3);
    await humanTurn(page);
    assert.equal(await page.isDisabled("#undo"), false);
    await page.click("#undo");
    await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 1 of 3");
    assert.equal(await page.isDisabled("#undo"), true);
    assert.equal((await cellsOf(page, "play-board")).filter((c) => c).length, 1);
    await page.$eval("#play-board", (e) => e.scrollIntoView());
    await shot(page, `${name}-undo-after-an-ai-opening`);
    assert.deepEqual(page.errors, []);
  });
}

test("the replay slider shows any move of a finished game", async () => {
  const page = await open();
  // Two AIs play a whole game by themselves.
  // (A changed player takes the game over at once: no New game needed.)
  await page.selectOption("#play-seat-0 select.ai", "ai2");
  await page.waitForFunction(() => document.querySelector("#play-players").textContent === "O: ai2 · X: ai14s");
  await page.waitForSelector("#play-result:not([hidden])");
  const total = (await page.$$("#move-list li")).length;
  assert.ok(total >= 5 && total <= 9, `a game has 5 to 9 moves, not ${total}`);

  await page.$eval("#replay", (s) => {
    s.value = "3";
    s.dispatchEvent(new Event("input"));
    s.dispatchEvent(new Event("change"));
  });
  await page.waitForFunction((n) => document.querySelector("#replay-label").textContent === `move 3 of ${n}`, total);
  // The label follows the slider at once; the board and the move list only once the
  // server has answered the seek.
  await page.waitForFunction(() => document.querySelector("#move-list li.current")?.textContent.startsWith("3."));
  const cells = await cellsOf(page, "play-board");
  assert.equal(cells.filter((c) => c === "o").length, 2);
  assert.equal(cells.filter((c) => c === "x").length, 1);
  assert.equal(await page.isHidden("#play-result"), true, "the result is not shown mid-replay");
  await shot(page, "ttt-replay-slider");

  // A click on the last move in the list goes back to the end.
  await page.click(`#move-list li >> nth=${total - 1}`);
  await page.waitForSelector("#play-result:not([hidden])");
  assert.equal((await cellsOf(page, "play-board")).filter((c) => c).length, total);
  assert.deepEqual(page.errors, []);
});

test("a 200-game watch run fills a table that adds up, and opens a game for replay", async () => {
  const page = await open();
  await page.click("#tab-watch");
  await page.fill("#watch-games", "200");
  await page.click("#watch-start");
  await page.waitForSelector('#watch-progress[data-state="done"]');
  const cell = async (table, row, col) => Number((await page.textContent(`#${table} td[data-cell="${row}-${col}"]`)).replace(/,/g, ""));
  const rows = ["A as o", "A as x", "total"];
  const counts = {};
  for (const r of rows) counts[r] = await Promise.all(["win", "lose", "draw"].map((c) => cell("watch-count", r, c)));
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  assert.equal(sum(counts["A as o"]), 200);
  assert.equal(sum(counts["A as x"]), 200);
  assert.deepEqual(counts.total, counts["A as o"].map((x, i) => x + counts["A as x"][i]));
  // ai14s never loses.
  assert.equal(counts.total[1], 0);
  // The exact table is there, and its rows are distributions.
  const exactRow = await Promise.all(["win", "lose", "draw"].map((c) => cell("watch-exact", "A as o", c)));
  assert.ok(Math.abs(sum(exactRow) - 100) < 0.2);
  assert.match(await page.textContent("#watch-progress"), /^400 of 400 games/);
  // Each share with its 95% interval: 200 games of A as o.
  const ratio = await page.textContent('#watch-ratio td[data-cell="A as o-draw"]');
  const [, share, half] = ratio.match(/^([\d.]+) ±([\d.]+)$/);
  const drawn = counts["A as o"][2];
  assert.equal(Number(share), Number((100 * drawn / 200).toFixed(1)));
  const p = (drawn + 2) / 204;
  assert.equal(Number(half), Number((196 * Math.sqrt((p * (1 - p)) / 204)).toFixed(1)));
  assert.match(await page.textContent('#watch-ratio td[data-cell="A as o-lose"]'), /^0\.0 ±[1-9]/);
  // The run's digest is the CLI's.
  assert.match(await page.textContent("#watch-digest"), /digest [0-9a-f]{16}/);
  await page.waitForSelector("#watch-games-list li");
  await shot(page, "watch-200-games");

  // Only draws, then open the first one in the Play view.
  await page.click('#watch-filters .chip[data-result="draw"]');
  await page.waitForFunction(() => [...document.querySelectorAll("#watch-games-list .tag")].every((t) => t.textContent === "draw"));
  const draws = await page.$$("#watch-games-list li");
  assert.equal(draws.length, counts.total[2]);
  await page.click("#watch-games-list li >> nth=0 >> button");
  await page.waitForSelector("#view-play.active");
  await page.waitForSelector("#play-result:not([hidden])");
  assert.equal(await page.textContent("#play-result"), "Draw");
  assert.equal((await page.$$("#move-list li")).length, 9);
  await shot(page, "watch-game-in-replay");
  assert.deepEqual(page.errors, []);
});

for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
test(`a watch run can be stopped (${name})`, async () => {
  const page = await open(viewport);
  await page.click("#tab-watch");
  await page.selectOption("#watch-game", "othello");
  // Stop comes first however fast the machine.
  await slowWatchA(page);
  await page.fill("#watch-games", "10000");
  await page.click("#watch-start");
  await page.waitForFunction(() => document.querySelector("#watch-progress").dataset.state === "running");
  // Some games in, so that a run playing one colour first would be lopsided (issue 63).
  await page.waitForFunction(() => /^([5-9]|\d\d[\d,]*) of /.test(document.querySelector("#watch-progress").textContent), null, { timeout: 120000 });
  await page.click("#watch-stop");
  await page.waitForSelector('#watch-progress[data-state="stopped"]');
  assert.equal(await page.isDisabled("#watch-start"), false);
  assert.match(await page.textContent("#watch-exact-note"), /tic-tac-toe/);
  // Games come in pairs, A first then A second, and a stopped run counts whole pairs:
  // as many games of each colour, and every count on the page is the same.
  const rows = await page.$$eval("#watch-count tbody tr", (trs) => trs.map((tr) => [...tr.querySelectorAll("td")].slice(1).reduce((n, td) => n + Number(td.textContent.replace(/,/g, "")), 0)));
  const played = Number(/^([\d,]+) of/.exec(await page.textContent("#watch-progress"))[1].replace(/,/g, ""));
  assert.equal(rows[0], rows[1], `A first ${rows[0]}, A second ${rows[1]}`);
  assert.equal(rows[2], played);
  assert.equal(rows[0] + rows[1], played);
  await page.waitForFunction((n) => document.querySelector("#watch-games-note").textContent === `${n} games.`, played);
  assert.deepEqual(page.errors, []);
});
}

// Random openings for runs and tournaments: two deterministic AIs then play many games.
test("watch and tournament runs start from random openings when asked", async () => {
  const page = await open();
  await page.click("#tab-watch");
  await page.selectOption("#watch-game", "othello");
  await page.selectOption("#watch-a select.ai", "minimax");
  await page.selectOption("#watch-b select.ai", "greedy");
  await page.fill("#watch-games", "10");
  await page.fill("#watch-openings", "6");
  await page.click("#watch-start");
  await page.waitForSelector('#watch-progress[data-state="done"]', { timeout: 60000 });
  assert.match(await page.textContent("#watch-exact-note"), /Each pair of games from its own random opening of 6 plies\./);
  assert.match(await page.textContent("#watch-digest"), /--openings 6 · digest [0-9a-f]{16}/);
  await page.fill("#watch-openings", "31");
  await page.click("#watch-start");
  await page.waitForSelector("#toast:not([hidden])");
  assert.match(await page.textContent("#toast"), /Random opening plies/);
  await page.click("#tab-tournament");
  await page.selectOption("#tour-game", "ttt");
  await page.fill("#tour-games", "5");
  await page.fill("#tour-openings", "2");
  await page.fill("#tour-clock", "10+1");
  await page.click("#tour-start");
  await page.waitForSelector('#tour-progress[data-state="done"]', { timeout: 60000 });
  assert.match(await page.textContent("#tour-progress"), /games · openings of 2 plies · clock 10\+1 s a side ·/);
  assert.deepEqual(page.errors, []);
});

// Issue 22: runs are listed, so that one can be reopened after a reload (or from another
// tab) and stopped; a run's games download in the CLI's record formats.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`runs are listed, reopened and stopped from another page; a run's games download (${name})`, async () => {
    const page = await open(viewport);
    await page.click("#tab-watch");
    await page.selectOption("#watch-game", "othello");
    await page.fill("#watch-games", "3");
    await page.click("#watch-start");
    await page.waitForSelector('#watch-progress[data-state="done"]');
    assert.ok(await page.isVisible("#watch-downloads"));
    const hrefs = await page.$$eval("#watch-downloads a", (as) => as.map((a) => a.getAttribute("href")));
    const id = hrefs[0].split("/")[3];
    assert.deepEqual(hrefs, ["jsonl", "csv", "table", "ggf"].map((f) => `/api/runs/${id}/records?format=${f}`));
    const text = async (href) => (await fetch(new URL(href, url))).text();
    const records = (await text(hrefs[0])).trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(records.map((r) => [r.game, r.index]), [0, 1, 2, 3, 4, 5].map((i) => ["othello", i]));
    assert.ok(records.every((r) => r.moves.length >= 9 && ["black", "white", "draw"].includes(r.result)));
    assert.equal((await text(hrefs[1])).trim().split("\n").length, 6);
    // The table: a header row, then a game a row with its moves as typed.
    const table = (await text(hrefs[2])).trim().split("\n");
    assert.equal(table[0], "game,first,second,result,moves");
    assert.equal(table.length, 7);
    assert.match(table[1], /^0,[^,]+,[^,]+,(black|white|draw),([a-h][1-8]|pass)( ([a-h][1-8]|pass))+$/);
    assert.equal((await text(hrefs[3])).match(/\(;GM\[Othello\]/g).length, 6);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#watch-download-native")]);
    assert.equal(download.suggestedFilename(), `gamelab-run-${id}.ggf`);

    // A long run left playing; another page, with nothing in its address, finds it, opens
    // it and stops it. On a game clock (which the reopened run shows too).
    await slowWatchA(page);
    await page.fill("#watch-games", "100000");
    await page.fill("#watch-clock", "3600+1");
    await page.click("#watch-start");
    await page.waitForFunction(() => document.querySelector("#watch-progress").dataset.state === "running");
    assert.match(await page.textContent("#watch-exact-note"), /^On a clock of 3600\+1 s a side in every game/);
    const running = await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("run"));
    const other = await open(viewport);
    await other.click("#tab-watch");
    await other.click("#watch-runs summary");
    await other.waitForSelector(`#watch-runs-list li[data-run="${running}"][data-state="playing"]`);
    await other.waitForSelector(`#watch-runs-list li[data-run="${id}"][data-state="done"]`);
    await other.click(`#watch-runs-list li[data-run="${running}"] button >> text=Open`);
    await other.waitForFunction(() => document.querySelector("#watch-progress").dataset.state === "running");
    assert.equal(await other.textContent("#watch-title"), "A = minimax:depth=4  vs  B = random");
    assert.equal(await other.inputValue("#watch-game"), "othello");
    assert.equal(await other.inputValue("#watch-games"), "100000");
    assert.equal(await other.inputValue("#watch-clock"), "3600+1");
    // The list follows the run it shows.
    const listed = await other.textContent(`#watch-runs-list li[data-run="${running}"]`);
    await other.waitForFunction(([r, before]) => document.querySelector(`#watch-runs-list li[data-run="${r}"]`).textContent !== before, [running, listed]);
    if (name === "phone") {
      assert.ok(await other.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "the runs list makes the page wider");
    }
    await shot(other, `${name}-watch-runs`);
    // A listing of the runs answered late, after the run's end was listed, must not show
    // it playing again: nothing lists the runs after that. One listing made while it plays
    // is held until then.
    const { held } = await holdOneAnswer(other, "**/api/runs", (r) => r.method() === "GET");
    const deliver = await held;
    assert.match(await other.textContent(`#watch-runs-list li[data-run="${running}"]`), /playing/);
    await other.click(`#watch-runs-list li[data-run="${running}"] button >> text=Stop`);
    await other.waitForSelector('#watch-progress[data-state="stopped"]');
    await other.waitForSelector(`#watch-runs-list li[data-run="${running}"][data-state="stopped"]`);
    await deliver();
    assert.equal(await other.getAttribute(`#watch-runs-list li[data-run="${running}"]`, "data-state"), "stopped");
    // The page that started it sees it stop.
    await page.waitForSelector('#watch-progress[data-state="stopped"]');
    assert.deepEqual(page.errors, []);
    assert.deepEqual(other.errors, []);
  });
}

test("the tree viewer goes down to children and back up to parents", async () => {
  const page = await open();
  await page.click("#tab-explore");
  await page.waitForSelector("#explore-children .child");
  assert.equal((await page.$$("#explore-children .child")).length, 9);
  assert.match(await page.textContent("#explore-value"), /draw/);
  // At the start every move draws with best play, so every child is best.
  assert.equal((await page.$$("#explore-children .child.best")).length, 9);

  // Two children tapped quickly, the first answered last: the page stays on the second.
  const { held } = await holdOneAnswer(page, "**/api/explore");
  await page.click('#explore-children .child[data-move="0,1"]');
  const deliver = await held;
  await page.click('#explore-children .child[data-move="0,0"]');
  await page.waitForFunction(() => document.querySelector("#explore-path").textContent === "Moves: 0,0");
  await deliver();
  assert.equal(await page.textContent("#explore-path"), "Moves: 0,0");
  await page.click("#explore-up");
  await page.waitForFunction(() => document.querySelectorAll("#explore-children .child").length === 9);

  await page.click('#explore-children .child[data-move="1,1"]');
  await page.waitForFunction(() => document.querySelectorAll("#explore-children .child").length === 8);
  // After the centre, x must take a corner: the edges lose.
  const best = await page.$$eval("#explore-children .child.best", (cs) => cs.map((c) => c.dataset.move).sort());
  assert.deepEqual(best, ["0,0", "0,2", "2,0", "2,2"]);
  await page.click('#explore-children .child[data-move="1,0"]');
  await page.waitForFunction(() => document.querySelectorAll("#explore-children .child").length === 7);
  assert.match(await page.textContent("#explore-value"), /o wins/);
  await page.waitForSelector("#explore-ai-choice");
  await shot(page, "explore-tree");

  await page.click("#explore-up");
  await page.waitForFunction(() => document.querySelectorAll("#explore-children .child").length === 8);
  await page.click("#explore-up");
  await page.waitForFunction(() => document.querySelectorAll("#explore-children .child").length === 9);
  assert.equal(await page.textContent("#explore-parent"), "The start has no parent.");

  // What ai14s plays on the empty board, with its scores.
  await page.waitForSelector("#explore-ai-choice");
  assert.ok((await page.$$("#explore-ai-result .ai-table tbody tr")).length === 9);
  assert.deepEqual(page.errors, []);
});

test("an Othello game between two people, with a pass", async () => {
  const page = await open();
  await page.selectOption("#play-game", "othello");
  await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
  await page.selectOption("#play-seat-1 select.ai", "human");
  await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("White: Human"));
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 0);
  for (const [i, mv] of OTHELLO_TO_PASS.entries()) {
    const index = (Number(mv[1]) - 1) * 8 + (mv.charCodeAt(0) - 97);
    await page.click(`#play-board .cell[data-square="${index}"].legal`);
    await page.waitForFunction((n) => document.querySelectorAll("#move-list li").length === n, i + 1);
  }
  await page.waitForSelector("#pass:not([hidden])");
  // The status says why there are no dots (it said "your move").
  assert.match(await status(page), /Black to move — you have no move: press Pass/);
  assert.equal((await page.$$("#play-board .cell.legal")).length, 0);
  await shot(page, "othello-must-pass");
  await page.click("#pass");
  await page.waitForFunction((n) => document.querySelectorAll("#move-list li").length === n, OTHELLO_TO_PASS.length + 1);
  assert.match(await status(page), /Black passed\. White to move/);
  assert.match(await page.textContent("#move-list li:last-child"), /pass/);
  assert.equal(await page.isHidden("#pass"), true);
  const [black, white] = await page.$$eval("#play-score > span", (s) => s.map((x) => Number(x.textContent)));
  assert.equal(black + white, 4 + OTHELLO_TO_PASS.length);
  assert.deepEqual(page.errors, []);
});

for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`an Othello move against the default engine (${name})`, async () => {
    const page = await open(viewport);
    await page.selectOption("#play-game", "othello");
    await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
    await page.click('#play-seat-1 details summary');
    // A changed parameter hands the game to the new AI at once: wait until it plays, or a
    // click on the old board would be answered by the old game's AI.
    await page.fill('#play-seat-1 input[data-param="time"]', "0.05");
    await page.press('#play-seat-1 input[data-param="time"]', "Tab");
    await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("engine:time=0.05"));
    // On the desktop the engine is given the shipped opening book and answers d3 from it;
    // on the phone it has none (the default) and searches.
    const fromBook = name === "desktop";
    if (fromBook) {
      await page.selectOption('#play-seat-1 select[data-param="book"]', "shipped");
      await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("engine:time=0.05,book=shipped"));
    }
    await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 0);
    await page.waitForSelector('#play-board .cell[data-square="19"].legal');
    await page.click(square("play-board", 19)); // d3
    await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2);
    await humanTurn(page);
    assert.match(await page.textContent("#move-list li:first-child"), /d3/);
    // What the engine's search did for its reply: depth, positions, and the line it expects,
    // its own move first.
    const reply = (await page.textContent("#move-list li:nth-child(2)")).replace(/^2\.\s*/, "").trim();
    const searchLine = await page.textContent("#play-search");
    assert.ok(await page.isVisible("#play-search"));
    if (fromBook) {
      const m = searchLine.match(/^Move 2, ([a-h][1-8]): from the opening book \(([\d,]+) games reached this position\), expecting ([a-h][1-8])/);
      assert.ok(m, searchLine);
      assert.equal(m[1], reply);
      assert.equal(m[3], reply);
      assert.ok(Number(m[2].replaceAll(",", "")) > 1000, searchLine);
    } else {
      const m = searchLine.match(/^Move 2, ([a-h][1-8]): searched (\d+) plies, ([\d,]+) positions, expecting ([a-h][1-8])/);
      assert.ok(m, searchLine);
      assert.equal(m[1], reply);
      assert.equal(m[4], reply);
      assert.ok(Number(m[2]) >= 1 && Number(m[3].replaceAll(",", "")) > 0, searchLine);
    }
    await page.$eval("#play-status", (e) => e.scrollIntoView());
    // d3 c5 is the Perpendicular: the opening's line sits between the players and the
    // search's line, clear of both.
    assert.equal(await page.textContent("#play-opening"), "Opening: Perpendicular");
    const lines = await assertLinesApart(page);
    assert.deepEqual(lines.map((l) => l.id).slice(1, 4), ["play-players", "play-opening", "play-search"]);
    await shot(page, `${name}-othello-vs-engine`);
    // A person's move has no search to show.
    await page.click('#move-list li[data-ply="1"]');
    await page.waitForFunction(() => document.querySelector("#play-search").hidden);
    assert.deepEqual(page.errors, []);
  });
}

for (const [name, viewport] of [["tablet", { width: 1024, height: 768 }], ["phone", { width: 390, height: 844 }]]) {
  test(`the board stays on the screen move after move (${name})`, async () => {
    const page = await open(viewport);
    await page.selectOption("#play-game", "othello");
    await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
    const onScreen = () => page.$eval("#play-board", (b) => {
      const r = b.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, height: innerHeight, scrollY };
    });
    const before = await onScreen();
    assert.ok(before.top >= 0 && before.bottom <= before.height, JSON.stringify(before));
    // Twelve moves, six of them the AI's: the move list grows past its own height.
    for (let move = 0; move < 6; move++) {
      await humanTurn(page);
      const n = await moveCount(page);
      await page.click("#play-board .cell.legal");
      await page.waitForFunction((n) => document.querySelectorAll("#move-list li").length >= n + 2, n);
      const now = await onScreen();
      assert.equal(now.scrollY, before.scrollY, `move ${move + 1}: the page scrolled`);
      assert.ok(now.top >= 0 && now.bottom <= now.height, `move ${move + 1}: ${JSON.stringify(now)}`);
    }
    await shot(page, `${name}-board-after-moves`);
    assert.deepEqual(page.errors, []);
  });
}

test("a Connect Four game against alpha-beta: the page draws what the catalogue says", async () => {
  const page = await open();
  await page.selectOption("#play-game", "connect4");
  // Seven legal squares, one at the bottom of each column (row by row from the top).
  await page.waitForSelector('#play-board.discs .cell[data-square="38"].legal');
  assert.equal((await page.$$("#play-board .cell.legal")).length, 7);
  await page.click(square("play-board", 38)); // column d
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2);
  await humanTurn(page);
  assert.match(await page.textContent("#move-list li:first-child"), /d/);
  assert.ok(await page.$('#play-board .cell[data-square="38"] .disc.side-0'), "red's disc in d1");
  assert.equal(await page.getAttribute(square("play-board", 38), "aria-label"), "d1 red");
  await shot(page, "connect4-vs-alphabeta");
  assert.deepEqual(page.errors, []);
});

// Issue 63: a disc is dropped by a tap anywhere in its column, on a phone too.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`Connect Four takes a tap anywhere in a column (${name})`, async () => {
    const page = await open(viewport);
    await page.selectOption("#play-game", "connect4");
    await page.waitForSelector('#play-board.discs .cell[data-square="38"].legal');
    // The top square of column c (square 2): the disc lands at the bottom, c1 (square 37).
    await page.click(square("play-board", 2));
    await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2);
    await humanTurn(page);
    assert.match(await page.textContent("#move-list li:first-child"), /c/);
    assert.ok(await page.$('#play-board .cell[data-square="37"] .disc.side-0'), "red's disc in c1");
    // The board is one Tab stop (the square last reached), whatever takes clicks.
    assert.equal(await page.$$eval('#play-board .cell[tabindex="0"]', (c) => c.length), 1);
    assert.equal((await page.$$("#play-board .cell.legal")).length, 7);
    await shot(page, `${name}-connect4-column-tap`);
    assert.deepEqual(page.errors, []);
  });
}

test("two tabs play their own games", async () => {
  const one = await open();
  const two = await open();
  await one.click(square("play-board", 0));
  await one.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2);
  await two.click(square("play-board", 8));
  await two.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2);
  assert.equal((await cellsOf(one, "play-board"))[0], "o");
  assert.notEqual((await cellsOf(one, "play-board"))[8], "o");
  assert.equal((await cellsOf(two, "play-board"))[8], "o");
  assert.notEqual((await cellsOf(two, "play-board"))[0], "o");
  await one.reload();
  await one.waitForSelector("body[data-ready]");
  assert.equal((await two.$$("#move-list li")).length, 2);
});

test("an AI's parameters go into its spec and come back with a replayed game", async () => {
  const page = await open();
  await page.click("#tab-watch");
  await page.selectOption("#watch-a select.ai", "ai12s");
  await page.click("#watch-a details summary");
  await page.fill('#watch-a input[data-param="score_victory"]', "200");
  await page.fill("#watch-games", "20");
  await page.click("#watch-start");
  await page.waitForSelector('#watch-progress[data-state="done"]');
  assert.equal(await page.textContent("#watch-title"), "A = ai12s:score_victory=200  vs  B = ai2");
  await page.click("#watch-games-list li >> nth=0 >> button");
  await page.waitForSelector("#play-result:not([hidden])");
  // Game 1 has A moving first.
  assert.equal(await page.inputValue("#play-seat-0 select.ai"), "ai12s");
  assert.equal(await page.inputValue('#play-seat-0 input[data-param="score_victory"]'), "200");
  assert.equal(await page.inputValue("#play-seat-1 select.ai"), "ai2");
  assert.deepEqual(page.errors, []);
});

// Issue 22, bug 1: AIs playing each other stalled for good after a seek or an undo, and a
// paused game still said "thinking".
test("two AIs: going back pauses them there, Resume plays on, Pause says so", async () => {
  const page = await open();
  await page.selectOption("#play-seat-0 select.ai", "ai2");
  await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("O: ai2"));
  await page.selectOption("#play-seat-1 select.ai", "ai2");
  await page.waitForFunction(() => document.querySelector("#play-status").textContent.startsWith("Game over"));
  const played = await moveCount(page);
  await page.click("#move-list li >> nth=1");
  await page.waitForFunction(() => document.querySelector("#replay-label").textContent.startsWith("move 2 of"));
  assert.match(await status(page), /ai2 to play, paused at move 2 of \d: Resume plays on from here/);
  assert.equal(await page.textContent("#pause"), "Resume");
  await shot(page, "ttt-two-ais-paused");
  await page.click("#pause");
  await page.waitForFunction(() => document.querySelector("#play-status").textContent.startsWith("Game over"));
  // Each AI's move depends on the seed and the ply only: the same game again.
  assert.equal(await moveCount(page), played);
  assert.equal(await page.textContent("#replay-label"), `move ${played} of ${played}`);

  // Pause while they play: the status says paused, not thinking.
  await page.click("#new-game");
  await page.click("#pause");
  await page.waitForFunction(() => document.querySelector("#pause").textContent === "Resume");
  assert.match(await status(page), /paused/);
  assert.doesNotMatch(await status(page), /thinking/);
  assert.deepEqual(page.errors, []);
});

// Issue 22, bug 3: a changed picker did nothing until New game, a refused one stayed in the
// picker while the old game went on, and nothing near the board said who was playing.
test("the pickers are the game's players: a new one takes over, a refused one is undone", async () => {
  const page = await open();
  await page.click(square("play-board", 4));
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2);
  await humanTurn(page);
  assert.match(await page.textContent("#play-players"), /O: Human · X: ai14s/);
  await page.selectOption("#play-seat-1 select.ai", "ai_abs_dls");
  await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("X: ai_abs_dls"));
  assert.equal(await moveCount(page), 2, "the game goes on from its position");
  // An out-of-range depth: the server refuses it, the picker shows the game's AI again.
  await page.click("#play-seat-1 details summary");
  await page.fill('#play-seat-1 [data-param="maxdepth"]', "99");
  await page.press('#play-seat-1 [data-param="maxdepth"]', "Tab");
  await page.waitForSelector("#toast:not([hidden])");
  assert.match(await page.textContent("#toast"), /maxdepth/);
  await page.waitForFunction(() => document.querySelector('#play-seat-1 [data-param="maxdepth"]').value === "8");
  assert.equal(await page.inputValue("#play-seat-1 select.ai"), "ai_abs_dls");
  assert.match(await page.textContent("#play-players"), /X: ai_abs_dls$/);
  await shot(page, "ttt-players-line");
  assert.deepEqual(page.errors, []);
});

// Issue 22, bug 4: raw server text in toasts, and an AI offered that cannot be used.
test("an outside engine the server was started with plays from the pickers, by its name", async () => {
  const page = await open();
  await page.selectOption("#play-game", "othello");
  await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
  await page.selectOption("#play-seat-1 select.ai", "human");
  await page.selectOption("#play-seat-0 select.ai", "nboard");
  await page.click('#play-seat-0 details summary');
  assert.deepEqual(await page.$$eval('#play-seat-0 select[data-param="cmd"] option', (o) => o.map((x) => x.value)), ["opener", "nboard-opener"]);
  // One the server offers for NBoard alone is not offered to the GTP engine.
  assert.deepEqual(await page.evaluate(() => offeredPrograms({ protocol: "gtp" })), ["opener"]);
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 1);
  assert.match(await page.textContent("#move-list li:first-child"), /f5/);
  assert.match(await page.textContent("#play-players"), /nboard:cmd=opener/);
  await shot(page, "othello-outside-engine");
  assert.deepEqual(page.errors, []);
});

// CI once saw the test above stall: two picker changes ask for two games, and the server
// answered the first one last, so the page showed it (two humans) over the later choice.
// Here that order is forced, and so is the other way a picker change could stall: an AI
// of the game being replaced still thinking when the new game's AI wants to move.
test("the pickers' last choice plays, in whatever order the server's answers come", async () => {
  const page = await open();
  await page.selectOption("#play-game", "othello");
  await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
  // The first new game asked for is answered a second after the server has it.
  let posts = 0;
  let lateAnswered;
  const late = new Promise((ok) => { lateAnswered = ok; });
  await page.route("**/api/games", async (route) => {
    if (route.request().method() !== "POST" || posts++ > 0) return route.continue();
    const response = await route.fetch();
    await new Promise((ok) => setTimeout(ok, 1000));
    await route.fulfill({ response });
    lateAnswered();
  });
  await page.selectOption("#play-seat-1 select.ai", "human");
  await page.selectOption("#play-seat-0 select.ai", "nboard");
  await late;
  // Time for the page to take the late answer, which it must drop.
  await page.evaluate(() => new Promise((ok) => setTimeout(ok, 300)));
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 1);
  assert.match(await page.textContent("#play-players"), /nboard:cmd=opener/);
  assert.deepEqual(page.errors, []);
});

test("a picker changed while the replaced game's AI thinks: the new game's AI moves", async () => {
  const page = await open();
  await page.selectOption("#play-game", "othello");
  await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
  await page.selectOption("#play-seat-1 select.ai", "human");
  await page.waitForFunction(() => !document.querySelector("#play-players").textContent.includes("engine"));
  // The first AI move asked for reaches the server a second and a half late.
  let held = 0;
  let heldAsked;
  const asked = new Promise((ok) => { heldAsked = ok; });
  await page.route("**/ai-move", async (route) => {
    if (held++ === 0) {
      heldAsked();
      await new Promise((ok) => setTimeout(ok, 1500));
    }
    await route.continue();
  });
  await page.selectOption("#play-seat-0 select.ai", "engine");
  await asked;
  await page.selectOption("#play-seat-0 select.ai", "nboard");
  await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("nboard:cmd=opener"));
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 1);
  assert.match(await page.textContent("#move-list li:first-child"), /f5/);
  assert.ok(held >= 2, "the new game's AI asked for its move");
  assert.deepEqual(page.errors, []);
});

test("numbers are checked on the page, and AIs that need a model file are offered only with models", async () => {
  const page = await open();
  await page.fill("#play-seed", "-5");
  await page.click("#new-game");
  await page.waitForSelector("#toast:not([hidden])");
  const text = await page.textContent("#toast");
  assert.match(text, /The seed must be a whole number from 0 to/);
  assert.doesNotMatch(text, /deserialize/);
  await page.click("#tab-watch");
  await page.fill("#watch-games", "1.5");
  await page.click("#watch-start");
  await page.waitForFunction(() => document.querySelector("#toast").textContent.startsWith("Games per side"));
  for (const seat of ["#play-seat-0", "#play-seat-1", "#watch-a", "#watch-b"]) {
    assert.equal(await page.$$eval(`${seat} option[value="regression"]`, (o) => o.length), 0, seat);
  }
  assert.deepEqual(page.errors, []);
});

// Issue 22, bug 2: on a phone the Explore view kept three columns, the tab bar and the
// Othello board overflowed, and the board came ~700 px down, below the set-up card.
test("a phone: every view fits the screen and the board comes first", async () => {
  const page = await open({ width: 390, height: 844 });
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  const box = (sel) => page.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top }; });
  assert.ok(await fits(), "the Play view is wider than the screen");
  assert.ok((await box(".tabs")).right <= 390, "the tabs overflow");
  assert.ok((await box(".board-card")).top < (await box(".setup")).top, "the board is not first");
  await shot(page, "phone-play-ttt");
  await page.selectOption("#play-game", "othello");
  await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
  assert.ok(await fits(), "the Othello board makes the page wider than the screen");
  const card = await box(".board-card");
  for (const sel of ['#play-board .cell[data-square="63"]', "#play-score", "#replay-label"]) {
    assert.ok((await box(sel)).right <= card.right, `${sel} is cut off`);
  }
  await shot(page, "phone-play-othello");
  await page.click("#tab-watch");
  assert.ok(await fits(), "the Watch view is wider than the screen");
  await shot(page, "phone-watch");
  await page.click("#tab-tournament");
  assert.ok(await fits(), "the Tournament view is wider than the screen");
  await page.click("#tab-explore");
  await page.waitForSelector("#explore-children .child");
  assert.ok(await fits(), "the Explore view is wider than the screen");
  const [children, ai] = [await box("#explore-children"), await box("#explore-ai")];
  assert.ok(ai.top > children.top, "the AI card sits beside the children instead of below them");
  await shot(page, "phone-explore");
  assert.deepEqual(page.errors, []);
});

// Issue 22, bug 6: Watch kept the last run after the game changed; the games list stopped at
// 200 with no way on and stayed empty while a run went on; Othello games had no score.
test("watch: games page on, fill in while a run goes on, show Othello's score, and a new game clears the run", async () => {
  const page = await open();
  await page.click("#tab-watch");
  await page.selectOption("#watch-game", "othello");
  // While a run goes on, the games played so far are listed. The list refreshes once a
  // second, so this run must outlast that on any machine; it is stopped once its games
  // are seen.
  await slowWatchA(page);
  await page.selectOption("#watch-b select.ai", "random");
  await page.fill("#watch-games", "10000");
  // Each listing of the games is answered only after the run has sent a newer state: a
  // listing overtaken by the run's progress is still shown (it was thrown away, and on a
  // loaded machine the list stayed empty until the run ended).
  let held = 0;
  await page.route("**/api/runs/*/games?*", async (route) => {
    const played = await page.textContent("#watch-progress");
    if (/running/.test(played)) {
      held++;
      await page.waitForFunction((before) => document.querySelector("#watch-progress").textContent !== before, played);
    }
    await route.continue();
  });
  await page.click("#watch-start");
  await page.waitForFunction(() => document.querySelector("#watch-progress").dataset.state === "running"
    && document.querySelectorAll("#watch-games-list li").length > 0);
  assert.ok(held > 0, "no listing was held while the run went on");
  assert.match(await page.textContent("#watch-games-note"), /so far/);
  await page.unroute("**/api/runs/*/games?*");
  await page.click("#watch-stop");
  await page.waitForSelector('#watch-progress[data-state="stopped"]');
  // A finished run pages on.
  await page.selectOption("#watch-a select.ai", "alphabeta");
  await page.click("#watch-a details summary");
  await page.fill('#watch-a [data-param="time"]', "0");
  await page.fill('#watch-a [data-param="depth"]', "3");
  await page.fill("#watch-games", "300");
  await page.click("#watch-start");
  await page.waitForSelector('#watch-progress[data-state="done"]', { timeout: 120000 });
  await page.waitForFunction(() => document.querySelectorAll("#watch-games-list li").length === 200);
  assert.match(await page.textContent("#watch-games-note"), /^Showing the first 200 of 600\.$/);
  // Each Othello game with its final count of discs.
  assert.match(await page.textContent("#watch-games-list li >> nth=0"), /· \d+–\d+ · \d+ moves/);
  await page.click("#watch-more");
  await page.waitForFunction(() => document.querySelectorAll("#watch-games-list li").length === 400);
  await shot(page, "watch-othello-games-paged");
  // Another game: the Othello run is no longer shown.
  await page.selectOption("#watch-game", "connect4");
  assert.equal(await page.textContent("#watch-title"), "Results");
  assert.equal(await page.$$eval("#watch-games-list li", (l) => l.length), 0);
  assert.equal(await page.$$eval("#watch-count td", (l) => l.length), 0);
  assert.match(await page.textContent("#watch-progress"), /No run yet/);
  assert.deepEqual(page.errors, []);
});

// Issue 22, bug 5: a reload lost the game, the tab and the run; the keyboard's focus was lost
// after every move; moves in the list could not be focused; no arrow keys; no aria-selected.
test("a reload brings back the view, the game, its position and the run; keys play and step", async () => {
  const page = await open();
  assert.equal(await page.getAttribute("#tab-play", "aria-selected"), "true");
  // The first Tab stop skips to the board, whose Tab stop is a legal square.
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "skip-to-board");
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement.closest("#play-board .cell.legal") !== null), true);
  // Enter on a focused square plays it, and the focus stays on the board.
  await page.focus(square("play-board", 4));
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2);
  await humanTurn(page);
  assert.equal(await page.evaluate(() => document.activeElement.closest("#play-board") !== null), true);
  const cells = await cellsOf(page, "play-board");
  // The board is one Tab stop; on it the arrow keys move between squares, occupied ones
  // included, and never step the game (issue 63).
  assert.equal(await page.$$eval('#play-board .cell[tabindex="0"]', (c) => c.length), 1);
  const focusedSquare = () => page.evaluate(() => document.activeElement.dataset.square);
  assert.equal(await focusedSquare(), "4");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await focusedSquare(), "3");
  await page.keyboard.press("ArrowUp");
  assert.equal(await focusedSquare(), "0");
  await page.keyboard.press("End");
  assert.equal(await focusedSquare(), "2");
  assert.equal(await page.textContent("#replay-label"), "move 2 of 2");
  assert.equal(await page.$$eval('#play-board .cell[tabindex="0"]', (c) => c.map((x) => x.dataset.square).join()), "2");
  // The AI's reply was said to screen readers.
  assert.match(await page.textContent("#play-announce"), /^X played \d,\d\.$/);
  // Off the board ← steps back (the AI waits there).
  await page.focus("#move-list li:last-child button");
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 1 of 2");
  await page.reload();
  await page.waitForSelector("body[data-ready]");
  assert.equal(await page.textContent("#replay-label"), "move 1 of 2");
  assert.match(await status(page), /paused at move 1 of 2/);
  await page.keyboard.press("End");
  await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 2 of 2");
  assert.deepEqual(await cellsOf(page, "play-board"), cells);

  // A link to a game the server does not have: played again from its moves.
  // (A new address that differs only after `#` does not load the page again: reload it.)
  await page.goto(`${url}#view=play&game=ttt&id=gone&a=human&b=human&seed=0&moves=1,1+0,0+2,2&cursor=2`);
  await page.reload();
  await page.waitForSelector("body[data-ready]");
  assert.equal(await moveCount(page), 3);
  assert.equal(await page.textContent("#replay-label"), "move 2 of 3");
  assert.match(await page.textContent("#play-players"), /O: Human · X: Human/);

  // The Watch tab and its run.
  await page.click("#tab-watch");
  await page.fill("#watch-games", "50");
  await page.click("#watch-start");
  await page.waitForSelector('#watch-progress[data-state="done"]');
  const digest = await page.textContent("#watch-digest");
  await page.reload();
  await page.waitForSelector("body[data-ready]");
  assert.equal(await page.getAttribute("#tab-watch", "aria-selected"), "true");
  await page.waitForFunction((d) => document.querySelector("#watch-digest").textContent === d, digest);
  assert.match(await page.textContent("#watch-progress"), /^100 of 100 games/);
  await shot(page, "watch-after-reload");
  assert.deepEqual(page.errors, []);
});

// Issue 22, analysis: each legal move's value by an AI, on the board.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`analysis: each move's value on the board, for every game, by the AI asked (${name})`, async () => {
    const page = await open(viewport);
    await page.check("#analysis-on");
    // Tic-tac-toe is solved: every first move is a draw, exactly, none an estimate; the
    // bar stands in the middle.
    await page.waitForFunction(() => document.querySelectorAll("#play-board .overlay").length === 9);
    assert.equal(await page.inputValue("#analysis-ai"), "solved");
    assert.deepEqual(await page.$$eval("#play-board .overlay.exact", (o) => o.map((x) => x.textContent)), Array(9).fill("D"));
    assert.equal(await page.$$eval("#play-board .cell.pick", (c) => c.length), 1);
    assert.match(await page.textContent("#analysis-note"), /^Values by solved for the side to move, exactly, from the solved game/);
    assert.equal(await page.textContent("#eval-text"), "A draw with best play, by solved");
    assert.equal(await page.$eval("#eval-fill", (f) => parseFloat(f.style.width)), 50);
    await page.click(square("play-board", 4));
    await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2);
    await page.waitForFunction(() => document.querySelectorAll("#play-board .overlay").length === 7);
    // ai14s answered the centre; each of o's moves is a draw or a loss in so many moves.
    const labels = await page.$$eval("#play-board .overlay", (o) => o.map((x) => x.textContent));
    assert.ok(labels.every((l) => /^(D|L\d|W\d)$/.test(l)), String(labels));
    await shot(page, `${name}-ttt-solved-analysis`);
    // Othello: the engine's values in discs, on its four first moves.
    await page.selectOption("#play-game", "othello");
    await page.waitForFunction(() => document.querySelector("#analysis-ai").value === "engine:level=4"
      && document.querySelectorAll("#play-board .overlay").length === 4);
    const values = await page.$$eval("#play-board .overlay", (o) => o.map((x) => Number(x.textContent.replace("−", "-"))));
    assert.ok(values.every((v) => Number.isFinite(v) && Math.abs(v) < 64), String(values));
    assert.match(await page.textContent("#analysis-note"), /in final discs ahead, the bar full at ±64/);
    await shot(page, `${name}-othello-analysis`);
    // Another AI, and one that does not score moves: the page says so.
    await page.fill("#analysis-ai", "mcts:iterations=500");
    await page.press("#analysis-ai", "Enter");
    await page.waitForFunction(() => document.querySelector("#analysis-note").textContent.includes("mcts:iterations=500"));
    await page.fill("#analysis-ai", "random");
    await page.press("#analysis-ai", "Enter");
    await page.waitForSelector("#toast:not([hidden])");
    assert.match(await page.textContent("#toast"), /random gives no value for each move/);
    assert.equal(await page.$$eval("#play-board .overlay", (o) => o.length), 0);
    await page.uncheck("#analysis-on");
    assert.deepEqual(page.errors, []);
  });
}

// A game on a clock: the side to move's clock counts down, a flag ends the game, a
// takeback brings the clocks back, and the address keeps the clock.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`a game on a clock: the running clock counts down and a flag ends the game (${name})`, async () => {
  const page = await open(viewport);
  await page.selectOption("#play-seat-1 select.ai", "human");
  await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("X: Human"));
  // Four seconds: o's move comes well within them however loaded the machine, and x's
  // flag falls after them.
  await page.fill("#play-clock", "4");
  await page.click("#new-game");
  await page.waitForSelector("#play-clocks:not([hidden])");
  assert.equal(await page.$$eval("#play-clocks .clock", (c) => c.length), 2);
  assert.match(await page.getAttribute("#play-clocks", "title"), /Clock: 4 s a side/);
  assert.equal(await page.getAttribute("#play-clocks .clock.running", "data-side"), "o");
  await playAt(page, square("play-board", 4));
  assert.equal(await page.getAttribute("#play-clocks .clock.running", "data-side"), "x");
  // x does not move: its flag falls and the game is over on time.
  await page.waitForFunction(() => /Game over: O wins on time: X's time ran out/.test(document.querySelector("#play-status").textContent), null, { timeout: 60000 });
  assert.match(await page.textContent('#play-clocks .clock[data-side="x"]'), /0:00\.0 — out of time/);
  assert.equal(await page.$$eval("#play-board .cell.legal", (c) => c.length), 0);
  if (name === "phone") {
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "the clocks make the page wider");
  }
  await page.$eval("#play-clocks", (e) => e.scrollIntoView());
  await assertLinesApart(page);
  await shot(page, `${name}-clock-flag`);
  assert.match(page.url(), /clock=4/);
  // A takeback brings back the clocks of the position shown: o to move, in time.
  await page.click("#undo");
  await page.waitForFunction(() => document.querySelector("#play-status").textContent.includes("O to move — your move"));
  assert.equal(await page.$$eval("#play-clocks .clock.flag", (c) => c.length), 0);
  // Without a clock, none is shown.
  await page.fill("#play-clock", "");
  await page.click("#new-game");
  await page.waitForSelector("#play-clocks", { state: "hidden" });
  assert.deepEqual(page.errors, []);
});
}

// A deepening analysis: the values come level by level until every one is exact, and
// move on with the position.
test("analysis that keeps deepening: level by level to the exact values", async () => {
  const page = await open();
  // Tic-tac-toe's mcts doubles its iterations a level until its tree proves every move.
  await page.fill("#analysis-ai", "mcts:iterations=20000");
  await page.check("#analysis-deepen");
  await page.check("#analysis-on");
  await page.waitForFunction(() => /Ended: every move's value is exact\.$/.test(document.querySelector("#analysis-note").textContent));
  assert.match(await page.textContent("#analysis-note"), /^mcts:iterations=20000 deepened to level \d+, for the side to move, 9 of 9 values exact, /);
  assert.equal(await page.$$eval("#play-board .overlay", (o) => o.length), 9);
  await page.uncheck("#analysis-on");
  await othelloBetweenPeople(page, 44);
  await page.fill("#analysis-ai", "engine:threads=1");
  await page.check("#analysis-deepen");
  await page.check("#analysis-on");
  // 16 empties: the moves' 15 are within level 9's exact reach.
  await page.waitForFunction(() => /Ended: every move's value is exact\.$/.test(document.querySelector("#analysis-note").textContent));
  const note = await page.textContent("#analysis-note");
  assert.match(note, /^engine:threads=1 deepened to level 9, for the side to move, (\d+) of \1 values exact, [\d,]+ positions, [\d.]+ s\. Best [a-h][1-8] \([+−]?\d+ discs \(exact\)\), line [a-h][1-8]( [a-h][1-8]| pass)*\. Ended/);
  const legal = await page.$$eval("#play-board .cell.legal", (c) => c.length);
  const values = await page.$$eval("#play-board .overlay", (o) => o.map((x) => Number(x.textContent.replace("−", "-"))));
  assert.equal(values.length, legal);
  // Exact values are marked so on the board.
  assert.equal(await page.$$eval("#play-board .overlay.exact", (o) => o.length), legal);
  assert.ok(values.every((v) => Number.isInteger(v)), String(values));
  // Several lines: the best three, each with its exact value and the line to the end,
  // the first the outlined move.
  const lines = await page.$$eval("#analysis-lines li", (l) => l.map((x) => x.textContent));
  assert.equal(lines.length, Math.min(3, legal));
  assert.ok(lines.every((t) => /^[a-h][1-8]: [+−]?\d+ discs \(exact\) — [a-h][1-8]( [a-h][1-8]| pass)+$/.test(t)), String(lines));
  assert.equal(lines[0].slice(0, 2), await page.$eval("#play-board .cell.pick", (c) => c.getAttribute("aria-label").slice(0, 2)));
  await shot(page, "othello-deepening");
  // One move back: the position's own deepening, to its own end.
  await page.click("#undo");
  await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 43 of 44");
  await page.waitForFunction(() => /^engine:threads=1 deepened to level 10, .*Ended: every move's value is exact\.$/.test(document.querySelector("#analysis-note").textContent));
  // Unchecked, the values are those of one analysis again.
  await page.uncheck("#analysis-deepen");
  await page.waitForFunction(() => document.querySelector("#analysis-note").textContent.startsWith("Values by engine:threads=1"));
  assert.deepEqual(page.errors, []);
});

// Issue 62: multi-line analysis. The deepening asked for the best lines lists them, best
// first, each a button that plays it out; the best line is the best move of the analysis
// of every move.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`analysis of the best lines, each played out by a tap (${name})`, async () => {
    const page = await open(viewport);
    await othelloBetweenPeople(page, 44);
    await page.fill("#analysis-ai", "engine:threads=1");
    await page.check("#analysis-deepen");
    await page.check("#analysis-on");
    const exact = /Ended: every move's value is exact\.$/;
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector("#analysis-note").textContent), exact.source);
    const everyMove = await page.$$eval("#analysis-lines li", (l) => l.map((x) => x.textContent));
    await page.selectOption("#analysis-line-count", "2");
    await page.waitForFunction((re) => / 2 of 2 lines exact, /.test(document.querySelector("#analysis-note").textContent)
      && new RegExp(re).test(document.querySelector("#analysis-note").textContent), exact.source);
    const lines = await page.$$eval("#analysis-lines li", (l) => l.map((x) => x.textContent));
    assert.equal(lines.length, 2, String(lines));
    assert.ok(lines.every((t) => /^[a-h][1-8]: [+−]?\d+ discs \(exact\) — [a-h][1-8]( [a-h][1-8]| pass)+$/.test(t)), String(lines));
    // The best line is the best move's, with its value, as the analysis of every move has it.
    assert.equal(lines[0].split(" — ")[0], everyMove[0].split(" — ")[0]);
    // Only the lines' moves carry values on the board.
    assert.equal(await page.$$eval("#play-board .overlay", (o) => o.length), 2);
    const targets = await page.$$eval("#analysis-lines .play-line", (b) => b.map((x) => x.getBoundingClientRect().height));
    assert.ok(targets.every((h) => h >= 40), `line buttons ${targets} px tall`);
    await page.$eval("#analysis-lines", (e) => e.scrollIntoView());
    await shot(page, `othello-best-lines-${name}`);
    // A tap plays the line out: its moves join the game, which stops at its end.
    const line = lines[1].split(" — ")[1].split(" ");
    await page.click("#analysis-lines .play-line >> nth=1");
    const end = 44 + line.length;
    await page.waitForFunction((n) => document.querySelector("#replay-label").textContent === `move ${n} of ${n}`, end);
    const played = await page.evaluate(() => play.state.moves.slice(44).map((m) => m.text));
    assert.deepEqual(played, line);
    // The choice comes back with a reload.
    assert.match(page.url(), /[?&]lines=2(&|$)/);
    assert.deepEqual(page.errors, []);
  });
}

// A deepening that the AI's own time ends part way through a level: the moves that level
// had valued show its values, underlined, and the note says how many.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`analysis that keeps deepening: a level the time cut short (${name})`, async () => {
    const page = await open(viewport);
    await othelloBetweenPeople(page, 30);
    await page.fill("#analysis-ai", "engine:threads=1,time=1.5");
    await page.check("#analysis-deepen");
    await page.check("#analysis-on");
    await page.waitForFunction(() => /Ended: the AI's own time ran out\.$/.test(document.querySelector("#analysis-note").textContent));
    const note = await page.textContent("#analysis-note");
    const level = Number(/ deepened to level (\d+), /.exec(note)[1]);
    const deeper = await page.$$eval("#play-board .overlay.deeper", (o) => o.map((x) => x.title));
    // Whether the time fell inside a level with moves done depends on the machine; what is
    // shown must agree with itself either way.
    const said = new RegExp(`, (\\d+) valued at level ${level + 1} before the time ran out,`).exec(note);
    assert.equal(said ? Number(said[1]) : 0, deeper.length, note);
    for (const title of deeper) assert.match(title, new RegExp(`^Level ${level + 1}: valued a level deeper`));
    assert.equal(await page.$$eval("#play-board .overlay", (o) => o.length), await page.$$eval("#play-board .cell.legal", (c) => c.length));
    await page.$eval("#play-board", (e) => e.scrollIntoView());
    await shot(page, `othello-deepening-cut-short-${name}`);
    assert.deepEqual(page.errors, []);
  });
}

// Issue 22: an evaluation bar for the position shown and a graph over the game, on a
// desktop and on a phone.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`the evaluation bar and the graph over the game (${name})`, async () => {
    const page = await open(viewport);
    await page.selectOption("#play-game", "othello");
    await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
    await page.selectOption("#play-seat-1 select.ai", "human");
    await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("White: Human"));
    assert.ok(await page.isHidden("#eval"), "a bar before anything was valued");
    await page.check("#analysis-on");
    await page.waitForFunction(() => !document.querySelector("#eval").hidden);
    // The start is even for the engine, or nearly: the bar near the middle, the text says who.
    assert.match(await page.textContent("#eval-text"), /^(Even \(0\.00 discs \(estimate\)\)|(Black|White) ahead: \+[\d.]+ discs \(estimate\)), by engine:level=4$/);
    assert.ok(await page.isHidden("#eval-graph-box"), "a graph from one position");
    // Three moves by the two humans, each position valued as it comes.
    for (let ply = 1; ply <= 3; ply++) {
      await playAt(page, "#play-board .cell.legal >> nth=0");
      await page.waitForFunction((n) => document.querySelectorAll("#move-list li").length === n, ply);
      await page.waitForFunction((n) => document.querySelectorAll("#eval-graph circle").length === n, ply + 1);
    }
    assert.ok(await page.isVisible("#eval-graph-box"));
    assert.match(await page.textContent("#eval-graph-note"), /^Black's view by engine:level=4, up is better for Black: 4 of 4 positions valued/);
    assert.equal(await page.textContent("#eval-graph-end"), "Move 3");
    // The bar's fill is the first side's share; the graph's points sit inside it.
    const width = await page.$eval("#eval-fill", (f) => parseFloat(f.style.width));
    assert.ok(width >= 0 && width <= 100, String(width));
    const said = await page.textContent("#eval-text");
    assert.ok(said.startsWith("Black ahead") ? width > 50 : said.startsWith("White ahead") ? width < 50 : width === 50, `${said}: ${width}`);
    // The scale is fixed by the units, not by the largest value seen: 64 discs fill it.
    const discs = Number(/\+([\d.]+) discs/.exec(said)?.[1] ?? 0) * (said.startsWith("White") ? -1 : 1);
    assert.ok(Math.abs(width - (50 + 50 * discs / 64)) < 0.11, `${said}: ${width}`);
    assert.equal(await page.textContent("#eval-graph-top"), "Black +64 discs");
    assert.equal(await page.textContent("#eval-graph-bottom"), "White +64 discs");
    assert.match(await page.textContent("#eval-graph circle[data-ply='3'] title"), /^After move 3: (Even|Black ahead|White ahead)/);
    const ys = await page.$$eval("#eval-graph circle", (c) => c.map((x) => Number(x.getAttribute("cy"))));
    assert.ok(ys.every((y) => y >= 0 && y <= 90), String(ys));
    // Going back: the cursor line moves, the bar shows that position's value.
    await page.click("#undo");
    await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 2 of 3");
    assert.equal(await page.$eval("#eval-graph .cursor", (l) => Number(l.getAttribute("x1"))), 200);
    assert.ok(await page.isVisible("#eval"));
    // A click on the graph goes to the position under it: the start at its left end.
    const plot = await page.$eval("#eval-graph", (g) => { g.scrollIntoView(); const b = g.getBoundingClientRect(); return { x: b.left, y: b.top + b.height / 2 }; });
    await page.mouse.click(plot.x + 2, plot.y);
    await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 0 of 3");
    if (name === "phone") {
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "the graph makes the page wider");
    }
    await shot(page, `${name}-othello-evaluation`);
    assert.deepEqual(page.errors, []);
  });
}

// Issue 22: Explore works for Othello, its children valued by the engine's search, exact
// near the end; on a desktop and on a phone.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`explore Othello's tree, valued by a search (${name})`, async () => {
    const page = await open(viewport);
    await page.click("#tab-explore");
    await page.waitForSelector("#explore-children .child");
    assert.ok(await page.isHidden("#explore-valuer-row"), "tic-tac-toe is solved, not searched");
    await page.selectOption("#explore-game", "othello");
    await page.waitForFunction(() => document.querySelectorAll("#explore-children .child").length === 4);
    assert.ok(await page.isVisible("#explore-valuer-row"));
    assert.equal(await page.inputValue("#explore-valuer"), "engine:level=4");
    assert.match(await page.textContent("#explore-value"), /^by engine:level=4: (even|black \+[\d.]+|white \+[\d.]+) \(5 plies\)$/);
    // The four first moves are one move turned: one value, all best, shown on their squares.
    const values = await page.$$eval("#explore-children .child .badge", (bs) => bs.map((b) => b.textContent));
    assert.equal(new Set(values).size, 1, String(values));
    assert.equal((await page.$$("#explore-children .child.best")).length, 4);
    assert.equal((await page.$$("#explore-board .cell .overlay")).length, 4);
    assert.equal((await page.$$("#explore-children .child .mini.discs")).length, 4);
    // Down a child, to the engine's choice there, and back up.
    await page.click('#explore-children .child[data-move="f5"]');
    await page.waitForFunction(() => document.querySelector("#explore-path").textContent === "Moves: f5");
    await page.waitForSelector("#explore-ai-choice");
    await page.waitForFunction(() => document.querySelectorAll("#explore-children .child").length === 3);
    // Another valuer values anew.
    await page.fill("#explore-valuer", "engine:level=2");
    await page.press("#explore-valuer", "Tab");
    await page.waitForFunction(() => /^by engine:level=2: .*\(3 plies\)$/.test(document.querySelector("#explore-value").textContent));
    // A link to a position eight empty squares from the end, where black must pass: the
    // search reaches the end, so the values are exact.
    await page.goto(`${url}#view=explore&game=othello&moves=${OTHELLO_TO_PASS.join("%20")}`);
    await page.reload();
    await page.waitForFunction(() => /\(exact\)$/.test(document.querySelector("#explore-value").textContent));
    const children = await page.$$eval("#explore-children .child", (cs) => cs.map((c) => c.dataset.move));
    assert.deepEqual(children, ["pass"]);
    assert.match(await page.textContent("#explore-children .child .badge"), /\(exact\)$/);
    await page.click("#explore-up");
    await page.waitForFunction(() => document.querySelector("#explore-path").textContent.endsWith("h5"));
    await page.waitForFunction(() => /\(exact\)$/.test(document.querySelector("#explore-value").textContent));
    assert.equal(await page.inputValue("#explore-game"), "othello");
    if (name === "phone") {
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "Explore makes the page wider");
    }
    await shot(page, `${name}-explore-othello`);
    assert.deepEqual(page.errors, []);
  });
}

// Issue 22: WTHOR's games, found by player and year and opened in the Play view.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`a WTHOR game found by player and year opens for replay (${name})`, async () => {
    const page = await open(viewport);
    await page.click("#wthor summary");
    assert.equal(await page.getAttribute("#wthor-year", "title"), "A year from 1977 to 2021");
    await page.fill("#wthor-player", "tastet");
    await page.fill("#wthor-year", "1990");
    await page.click("#wthor-find");
    await page.waitForSelector("#wthor-list li");
    const note = await page.textContent("#wthor-note");
    const m = note.match(/^([\d,]+) of 127,475 games match; showing ([\d,]+)\.$/);
    assert.ok(m, note);
    const rows = await page.$$eval("#wthor-list li", (items) => items.map((li) => li.textContent));
    assert.ok(rows.every((r) => r.startsWith("1990 · ") && /tastet/i.test(r)), String(rows));
    // Opened: Othello between two humans, at the game's last move, the moves listed.
    const [first] = rows;
    await page.click("#wthor-list li >> nth=0 >> button");
    await page.waitForFunction(() => document.querySelectorAll("#move-list li").length >= 50);
    assert.equal(await page.inputValue("#play-game"), "othello");
    // The players' names, the tournament and the year come with it (issue 63), and go
    // into its GGF.
    const players = await page.textContent("#play-players");
    assert.match(players, /^Black: .+ · White: .+ — .+, 1990$/);
    assert.match(players, /tastet/i);
    assert.doesNotMatch(players, /Human/);
    const ggf = await page.evaluate(() => play.state.record.native);
    const [, blackName] = /^Black: (.+) · White/.exec(players);
    assert.ok(ggf.includes(`PB[${blackName}]`) && ggf.includes("DT[1990]"), ggf);
    const [black, white] = await page.$$eval("#play-score > span", (s) => s.map((x) => Number(x.textContent)));
    const recorded = Number(first.match(/ (\d+)–(\d+) /)[1]);
    // The recorded count gives the empty squares to the winner.
    assert.ok(black === recorded || (black > white && black + (64 - black - white) === recorded) || (black < white && black === recorded), `${black}–${white} against ${first}`);
    // Nothing found says so; the answer to a search asked for before, come later, is
    // not shown over it.
    const { held } = await holdOneAnswer(page, "**/api/wthor?*");
    await page.fill("#wthor-player", "tastet");
    await page.click("#wthor-find");
    const deliver = await held;
    await page.fill("#wthor-player", "no such player at all");
    await page.click("#wthor-find");
    await page.waitForFunction(() => document.querySelector("#wthor-note").textContent === "No game of the 127,475 matches.");
    await deliver();
    assert.equal(await page.textContent("#wthor-note"), "No game of the 127,475 matches.");
    assert.equal(await page.$$eval("#wthor-list li", (l) => l.length), 0);
    // A year out of range is refused on the page.
    await page.fill("#wthor-year", "1850");
    await page.click("#wthor-find");
    await page.waitForFunction(() => document.querySelector("#toast").textContent === 'The year must be from 1977 to 2021, the years of the games; "1850" is not.');
    if (name === "phone") {
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "the WTHOR list makes the page wider");
    }
    await shot(page, `${name}-wthor`);
    assert.deepEqual(page.errors, []);
  });
}

// Issue 22: a simple position editor: a game starts from a position set up square by square.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`a position set up square by square starts a game (${name})`, async () => {
    const page = await open(viewport);
    await page.selectOption("#play-game", "othello");
    await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
    await page.selectOption("#play-seat-1 select.ai", "human");
    await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("White: Human"));
    await page.click("#editor summary");
    // It starts from the board in play: the four centre discs.
    await page.waitForFunction(() => document.querySelectorAll("#editor-board.discs .disc").length === 4);
    // d3 black (one click), e6 white (two), then black to move.
    await page.click('#editor-board .cell[data-square="19"]');
    await page.click('#editor-board .cell[data-square="44"]');
    await page.click('#editor-board .cell[data-square="44"]');
    assert.equal((await page.$$("#editor-board .disc.side-0")).length, 3);
    assert.equal((await page.$$("#editor-board .disc.side-1")).length, 3);
    await page.selectOption("#editor-to-move", "black");
    await page.click("#editor-play");
    await page.waitForFunction(() => document.querySelector('#play-board .cell[data-square="44"] .disc.side-1'));
    assert.ok(await page.$('#play-board .cell[data-square="19"] .disc.side-0'));
    assert.match(await status(page), /Black to move — your move/);
    assert.equal(await moveCount(page), 0);
    assert.match(await page.evaluate(() => location.hash), /position=/);
    // Its GGF would start from the start: only the moves are offered.
    assert.ok(await page.isHidden("#record-native"));
    // A move from there, as in any game.
    await playAt(page, "#play-board .cell.legal >> nth=0");
    assert.equal(await moveCount(page), 1);
    // A position no game reaches is refused with the reason, and the game stays.
    await page.click("#editor-clear");
    await page.click("#editor-play");
    await page.waitForFunction(() => /four centre squares/.test(document.querySelector("#toast").textContent));
    assert.equal(await moveCount(page), 1);
    // Tic-tac-toe: o in the centre, x to move.
    await page.selectOption("#play-game", "ttt");
    await page.waitForSelector("#editor-board.marks");
    await page.click("#editor-clear");
    await page.click('#editor-board .cell[data-square="4"]');
    await page.selectOption("#editor-to-move", "x");
    await page.click("#editor-play");
    await page.waitForFunction(() => document.querySelector('#play-board .cell[data-square="4"] .mark-0'));
    // The game set up answers the refusal before it: its toast no longer covers the page.
    assert.ok(await page.isHidden("#toast"), "the editor's earlier error still shows over the new game");
    if (name === "phone") {
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "the editor makes the page wider");
    }
    await shot(page, `${name}-position-editor`);
    assert.deepEqual(page.errors, []);
  });
}

// Issue 22: tournaments in the browser: the crosstable and Elo with intervals fill up, with
// a chart and a CSV of the table; on a desktop and on a phone.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`a tournament's crosstable and ratings fill up, download and come back after a reload (${name})`, async () => {
    const page = await open(viewport);
    await page.click("#tab-tournament");
    await page.selectOption("#tour-game", "ttt");
    // Three AIs by default; a fourth added, then taken away again.
    await page.waitForFunction(() => document.querySelectorAll("#tour-entrants .entrant").length === 3);
    await page.click("#tour-add");
    assert.equal((await page.$$("#tour-entrants .entrant")).length, 4);
    await page.click("#tour-entrants .entrant >> nth=3 >> button.remove");
    assert.equal((await page.$$("#tour-entrants .entrant")).length, 3);
    await page.fill("#tour-games", "20");
    await page.click("#tour-start");
    await page.waitForSelector('#tour-progress[data-state="done"]');
    assert.match(await page.textContent("#tour-progress"), /^120 of 120 games/);
    const rows = await page.$$eval("#tour-standings tbody tr", (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    assert.equal(rows.length, 3);
    // Ratings centred on the field's mean, best first, 80 games each (40 against each other AI).
    const elos = rows.map((r) => Number(r[2]));
    assert.ok(Math.abs(elos.reduce((a, b) => a + b, 0)) <= 2, String(elos));
    assert.deepEqual([...elos].sort((a, b) => b - a), elos);
    assert.ok(rows.every((r) => r[4] === "80"), JSON.stringify(rows));
    // The crosstable: a row and a column per AI, the diagonal empty, each pair's scores
    // adding up to 100 %.
    const cross = await page.$$eval("#tour-cross tbody tr", (trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
    assert.equal(cross.length, 3);
    for (let i = 0; i < 3; i++) {
      assert.equal(cross[i][i], "");
      for (let j = 0; j < 3; j++) if (i !== j) assert.ok(Math.abs(parseFloat(cross[i][j]) + parseFloat(cross[j][i]) - 100) < 0.2, JSON.stringify(cross));
    }
    assert.equal((await page.$$("#tour-chart circle.rating")).length, 3);
    const href = await page.getAttribute("#tour-download", "href");
    const csv = await (await fetch(new URL(href, url))).text();
    assert.equal(csv.trim().split("\n").length, 4);
    assert.ok(csv.startsWith("rank,ai,elo,interval95,games,points,"));
    if (name === "phone") {
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "the tournament makes the page wider");
    }
    await shot(page, `${name}-tournament`);
    // A reload brings the tournament back from the address.
    await page.reload();
    await page.waitForSelector('#tour-progress[data-state="done"]');
    assert.equal((await page.$$("#tour-standings tbody tr")).length, 3);
    assert.equal((await page.$$("#tour-entrants .entrant")).length, 3);
    // A long one stops when asked.
    await page.selectOption("#tour-game", "othello");
    await page.fill("#tour-games", "100000");
    await page.click("#tour-start");
    await page.waitForFunction(() => document.querySelector("#tour-progress").dataset.state === "running");
    await page.click("#tour-stop");
    await page.waitForSelector('#tour-progress[data-state="stopped"]');
    assert.deepEqual(page.errors, []);
  });
}

// Issue 63: four AIs with long specs: every name on one line, every column on the card.
for (const [name, viewport] of [["desktop", { width: 1366, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`a crosstable of four AIs keeps its names whole and its columns in reach (${name})`, async () => {
    const ais = ["engine:level=1", "mcts:iterations=100", "minimax:depth=2", "greedy"];
    const started = await api("/api/tournaments", { game: "othello", ais, games_per_side: 1 });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    const page = await open(viewport);
    await page.goto(`${url}#view=tournament&tournament=${started.body.id}`);
    await page.reload();
    await page.waitForSelector('#tour-progress[data-state="done"]');
    await page.waitForFunction(() => document.querySelectorAll("#tour-cross tbody tr").length === 4);
    const layout = await page.evaluate(() => {
      // A text's lines: one box for each.
      const lines = (e) => {
        const range = document.createRange();
        range.selectNodeContents(e);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      };
      const wrap = document.querySelector(".cross-wrap"), table = document.querySelector("#tour-cross");
      return {
        names: [...document.querySelectorAll("#tour-cross th.ai-name, #tour-standings td.ai-name")].map((e) => ({ text: e.textContent, lines: lines(e) })),
        fits: table.getBoundingClientRect().right <= wrap.getBoundingClientRect().right + 1,
        scrolls: wrap.scrollWidth > wrap.clientWidth,
        pageWider: document.documentElement.scrollWidth > innerWidth,
      };
    });
    // A name breaks only where its spec does, after `:` or `,` (on the desktop, never).
    for (const n of layout.names) {
      const most = name === "desktop" ? 1 : 1 + (n.text.match(/[:,]/g) || []).length;
      assert.ok(n.lines <= most, `${n.text} takes ${n.lines} lines`);
    }
    assert.equal(layout.pageWider, false, "the crosstable makes the page wider");
    // On the desktop every column is on the card; on a phone the table scrolls in its box.
    if (name === "desktop") assert.ok(layout.fits, JSON.stringify(layout));
    else assert.ok(layout.fits || layout.scrolls, JSON.stringify(layout));
    await page.$eval("#tour-cross", (e) => e.scrollIntoView());
    await shot(page, `${name}-tournament-four`);
    assert.deepEqual(page.errors, []);
  });
}

// Issue 22: a hint button, and the discs a move turns over marked.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`a hint outlines the best move; the discs a move turns over are marked (${name})`, async () => {
    const page = await open(viewport);
    await page.click("#hint");
    await page.waitForFunction(() => document.querySelector("#analysis-note").textContent.startsWith("Hint: "));
    assert.equal(await page.$$eval("#play-board .cell.pick", (c) => c.length), 1);
    assert.match(await page.textContent("#analysis-note"), /is solved's best move here \(draw\)\./);
    await page.selectOption("#play-game", "othello");
    await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
    await page.selectOption("#play-seat-1 select.ai", "human");
    await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("White: Human"));
    await page.click('#play-board .cell[data-square="19"].legal'); // d3 turns d4 over
    await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 1);
    assert.deepEqual(await page.$$eval("#play-board .cell.flipped", (c) => c.map((x) => x.dataset.square)), ["27"]);
    // Redrawn with values on the same position, the flip stays marked but is not played
    // again (issue 63).
    await page.check("#analysis-on");
    await page.waitForFunction(() => document.querySelectorAll("#play-board .overlay").length > 0);
    assert.deepEqual(await page.$$eval("#play-board .cell.flipped", (c) => c.map((x) => x.dataset.square)), ["27"]);
    assert.equal(await page.$$eval("#play-board .cell.flipping", (c) => c.length), 0);
    await page.uncheck("#analysis-on");
    await page.$eval("#play-status", (e) => e.scrollIntoView());
    await shot(page, `${name}-othello-flipped`);
    // Going back shows no flips: they belong to the move just played.
    await page.click("#undo");
    await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 0 of 1");
    assert.equal(await page.$$eval("#play-board .cell.flipped", (c) => c.length), 0);
    assert.deepEqual(page.errors, []);
  });
}

// Issue 22: a review of a finished game lists each side's costliest moves.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`a finished game's review lists each side's costliest moves and shows them (${name})`, async () => {
    const page = await open(viewport);
    // o takes the first free square every move and loses to ai14s.
    for (;;) {
      await humanTurn(page);
      if ((await status(page)).startsWith("Game over")) break;
      await playAt(page, "#play-board .cell.legal >> nth=0");
    }
    const total = await moveCount(page);
    // The sides named as the result box names them (issue 63).
    assert.match(await status(page), /^Game over: X wins/);
    await page.click("#review");
    await page.waitForSelector("#review-out h3");
    const headings = await page.$$eval("#review-out h3", (h) => h.map((x) => x.textContent));
    assert.deepEqual(headings, ["O's costliest moves", "X's costliest moves"]);
    const first = await page.textContent("#review-out ul li >> nth=0");
    assert.match(first, /^\d+\. \d,\d: (loss|draw)[^;]*; \d,\d was better: (win|draw)/);
    // o's first move, a corner, draws as every first move does: the review never calls it
    // a mistake, and no move is judged by an estimate.
    const listed = await page.$$eval("#review-out ul li", (l) => l.map((x) => x.textContent));
    assert.ok(listed.every((t) => !t.startsWith("1. ") && !t.includes("estimate")), String(listed));
    assert.match(await page.textContent("#review-out"), /By solved, exactly, from the solved game/);
    await shot(page, `${name}-ttt-review`);
    // A listed move: the position before it.
    const ply = Number(first.split(".")[0]) - 1;
    await page.click("#review-out ul li >> nth=0");
    await page.waitForFunction((t) => document.querySelector("#replay-label").textContent === t, `move ${ply} of ${total}`);
    assert.deepEqual(page.errors, []);
  });
}

// Issue 22: records in and out.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`a game's moves copy out and paste back in, an Othello transcript included (${name})`, async () => {
    const page = await open(viewport);
    await page.selectOption("#play-game", "othello");
    await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
    await page.selectOption("#play-seat-1 select.ai", "human");
    await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("White: Human"));
    await page.click("#records summary");
    // Pasted as a book writes it, move numbers and all (issue 63); copied out plain.
    await page.fill("#record-text", "1. f5 d6 2. c3 d3 3. c4");
    await page.click("#record-load");
    await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 5);
    assert.equal(await page.textContent("#replay-label"), "move 5 of 5");
    await page.fill("#record-text", "");
    await page.click("#record-copy");
    assert.equal(await page.inputValue("#record-text"), "f5d6c3d3c4");
    // The game as GGF, which NBoard reads: copied, saved as a file, and pasted back.
    await page.click("#record-native");
    const ggf = await page.inputValue("#record-text");
    assert.match(ggf, /^\(;GM\[Othello\]PC\[gamelab\]PB\[human\]PW\[human\]RE\[\?\]TY\[8\]BO\[8 .*B\[F5\]W\[D6\]B\[C3\]W\[D3\]B\[C4\];\)$/);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#record-save")]);
    assert.equal(download.suggestedFilename(), "othello-game.ggf");
    await page.click("#new-game");
    await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 0);
    await page.fill("#record-text", ggf);
    await page.click("#record-load");
    await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 5);
    await shot(page, `${name}-othello-records`);
    // Tic-tac-toe's moves copy as a move list that pastes back; it has no file format.
    await page.selectOption("#play-game", "ttt");
    await page.waitForFunction(() => document.querySelectorAll("#play-board .cell").length === 9);
    assert.equal(await page.isHidden("#record-native"), true);
    await page.selectOption("#play-seat-1 select.ai", "human");
    await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("X: Human"));
    await page.fill("#record-text", "1,1 0,0 2,2");
    await page.click("#record-load");
    await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 3);
    await page.click("#record-copy");
    assert.equal(await page.inputValue("#record-text"), "1,1 0,0 2,2");
    // The moves read on the page as they copy (issue 63: the list said "(1, 1)").
    assert.deepEqual(await page.$$eval("#move-list li button", (b) => b.map((x) => x.lastChild.textContent)), ["1,1", "0,0", "2,2"]);
    // It downloads as its moves, which paste back.
    const [saved] = await Promise.all([page.waitForEvent("download"), page.click("#record-save")]);
    assert.equal(saved.suggestedFilename(), "ttt-game.txt");
    assert.equal(readFileSync(await saved.path(), "utf8"), "1,1 0,0 2,2\n");
    // A move that cannot be played: said which.
    await page.fill("#record-text", "1,1 1,1");
    await page.click("#record-load");
    await page.waitForSelector("#toast:not([hidden])");
    assert.match(await page.textContent("#toast"), /record, move 2 \(`1,1`\)/);
    assert.deepEqual(page.errors, []);
  });
}

// Issue 22: strengths by name, with the raw parameters still there for those who want them.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`a level by name picks an AI and its parameters, and says how it plays (${name})`, async () => {
    const page = await open(viewport);
    await page.selectOption("#play-game", "othello");
    await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
    await page.selectOption('#play-seat-1 select[aria-label$="level"]', "engine:level=4");
    await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("White: engine:level=4"));
    assert.match(await page.textContent("#play-seat-1 .level-note"), /^Strong: the learned evaluation four moves ahead/);
    // Each level gives its strength on one Elo scale (a random mover at 0), rising level by level.
    assert.match(await page.textContent("#play-seat-1 .level-note"), /\. Elo \d+ ± \d+, where a random mover is 0/);
    const elos = await page.$$eval('#play-seat-1 select[aria-label$="level"] option',
      (options) => options.map((o) => o.textContent.match(/\(Elo (-?\d+)\)$/)).filter(Boolean).map((m) => Number(m[1])));
    assert.equal(elos.length, 6);
    assert.deepEqual([...elos].sort((a, b) => a - b), elos);
    assert.equal(await page.inputValue('#play-seat-1 select[aria-label="White"]'), "engine");
    // The level's parameters are shown, unfolded.
    assert.equal(await page.$$eval("#play-seat-1 details[open]", (d) => d.length), 1);
    assert.equal(await page.inputValue('#play-seat-1 [data-param="level"]'), "4");
    // On a phone the seats are below the board: the shot shows the picker it checks.
    await page.locator('#play-seat-1 select[aria-label$="level"]').scrollIntoViewIfNeeded();
    await shot(page, `${name}-othello-level`);
    // A parameter changed by hand: the level is custom again.
    await page.fill('#play-seat-1 [data-param="level"]', "2");
    await page.press('#play-seat-1 [data-param="level"]', "Tab");
    await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("White: engine:level=2"));
    assert.equal(await page.inputValue('#play-seat-1 select[aria-label$="level"]'), "");
    assert.equal(await page.textContent("#play-seat-1 .level-note"), "");
    // The level's own value typed back: the picker names the level again.
    await page.fill('#play-seat-1 [data-param="level"]', "4");
    await page.press('#play-seat-1 [data-param="level"]', "Tab");
    await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("White: engine:level=4"));
    assert.equal(await page.inputValue('#play-seat-1 select[aria-label$="level"]'), "engine:level=4");
    assert.match(await page.textContent("#play-seat-1 .level-note"), /^Strong: /);
    // A person's seat has no level to pick: one there handed the seat to an AI.
    assert.equal(await page.isVisible('#play-seat-0 select[aria-label$="level"]'), false);
    await page.selectOption('#play-seat-1 select[aria-label="White"]', "human");
    await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("White: Human"));
    assert.equal(await page.isVisible('#play-seat-1 select[aria-label$="level"]'), false);
    await page.selectOption('#play-seat-1 select[aria-label="White"]', "engine");
    await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("White: engine"));
    assert.equal(await page.isVisible('#play-seat-1 select[aria-label$="level"]'), true);
    // The engine comes back with the level it was given, and the picker names that level.
    assert.match(await page.textContent("#play-players"), /White: engine:level=4$/);
    assert.equal(await page.inputValue('#play-seat-1 select[aria-label$="level"]'), "engine:level=4");
    assert.match(await page.textContent("#play-seat-1 .level-note"), /^Strong: /);
    await page.locator('#play-seat-1 select[aria-label$="level"]').scrollIntoViewIfNeeded();
    await shot(page, `${name}-othello-level-seats`);
    assert.deepEqual(page.errors, []);
  });
}

// Issue 63: accessibility as a check. axe-core (the npm package) runs on every view at
// both sizes, with the analysis on, a review listed, a run and a tournament shown; no
// violation of any rule is allowed.
const axeSource = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), "node_modules/axe-core/axe.min.js"), "utf8");
async function axeViolations(page, where) {
  await page.addScriptTag({ content: axeSource });
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ") + ": " + n.failureSummary.replace(/\s+/g, " ")).join(" | ")}`);
  });
  return found.map((v) => `${where}: ${v}`);
}
const sizesAndSchemes = [
  ["desktop", { width: 1360, height: 900 }, "light"], ["phone", { width: 390, height: 844 }, "light"],
  ["desktop", { width: 1360, height: 900 }, "dark"], ["phone", { width: 390, height: 844 }, "dark"],
];
for (const [size, viewport, colorScheme] of sizesAndSchemes) {
  const name = colorScheme === "dark" ? `${size}, dark mode` : size;
  test(`axe-core finds no accessibility violation in any view (${name})`, async () => {
    const page = await open(viewport, { colorScheme });
    if (colorScheme === "dark") {
      // The page follows the system's dark mode.
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), "rgb(17, 19, 24)");
    }
    const found = [];
    await page.check("#analysis-on");
    await page.waitForFunction(() => document.querySelectorAll("#play-board .overlay").length === 9);
    found.push(...await axeViolations(page, "play, tic-tac-toe analysed"));
    // A finished game, reviewed: its costliest moves listed as buttons.
    for (;;) {
      await humanTurn(page);
      if ((await status(page)).startsWith("Game over")) break;
      await playAt(page, "#play-board .cell.legal >> nth=0");
    }
    await page.click("#review");
    await page.waitForSelector("#review-out h3");
    found.push(...await axeViolations(page, "play, a review"));
    await page.selectOption("#play-game", "othello");
    await page.waitForFunction(() => document.querySelectorAll("#play-board .overlay").length === 4);
    await page.click("#records summary");
    found.push(...await axeViolations(page, "play, Othello analysed"));
    await shot(page, `${size}-${colorScheme}-othello-analysed`);
    await page.click("#tab-watch");
    await page.fill("#watch-games", "20");
    await page.click("#watch-start");
    await page.waitForSelector('#watch-progress[data-state="done"]', { timeout: 120000 });
    found.push(...await axeViolations(page, "watch, a run done"));
    await page.click("#tab-tournament");
    await page.click("#tour-start");
    await page.waitForFunction(() => /done/.test(document.querySelector("#tour-progress")?.textContent ?? ""), null, { timeout: 120000 });
    found.push(...await axeViolations(page, "tournament, done"));
    await page.click("#tab-explore");
    await page.waitForSelector("#explore-board .cell");
    found.push(...await axeViolations(page, "explore"));
    await shot(page, `${size}-${colorScheme}-explore`);
    assert.deepEqual(found, []);
    assert.deepEqual(page.errors, []);
  });
}

// Issue 63: a real game with analysis on a phone. The analysis (moves, review, graph)
// comes right under the board, before the New-game card; ◀ ▶ step through the game;
// squares, buttons and checkboxes are 40 px targets; a value stays inside its square.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`play and analysis on a small screen: order, step buttons, targets, labels (${name})`, async () => {
    const page = await open(viewport);
    await page.selectOption("#play-game", "othello");
    await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
    await page.selectOption("#play-seat-1 select.ai", "human");
    await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("White: Human"));
    await page.check("#analysis-on");
    for (let ply = 1; ply <= 2; ply++) {
      await playAt(page, "#play-board .cell.legal >> nth=0");
    }
    await page.waitForFunction(() => document.querySelectorAll("#play-board .overlay").length === document.querySelectorAll("#play-board .cell.legal").length);
    const layout = await page.evaluate(() => {
      const box = (e) => e.getBoundingClientRect();
      const cells = [...document.querySelectorAll("#play-board .cell")].map(box);
      const spills = [...document.querySelectorAll("#play-board .overlay")].filter((o) => {
        const [a, b] = [box(o), box(o.closest(".cell"))];
        return a.left < b.left - 0.5 || a.right > b.right + 0.5 || a.top < b.top - 0.5 || a.bottom > b.bottom + 0.5;
      }).map((o) => o.textContent);
      const targets = ["#step-back", "#step-forward", "#hint", "#undo", 'label:has(> #analysis-on)'].map((q) => [q, box(document.querySelector(q))]);
      return {
        smallestCell: Math.min(...cells.map((c) => Math.min(c.width, c.height))),
        spills,
        small: targets.filter(([, b]) => b.height < 40 || b.width < 40).map(([q, b]) => `${q} ${b.width}×${b.height}`),
        boardBottom: box(document.querySelector(".board-card")).bottom,
        movesTop: box(document.querySelector(".moves-card")).top,
        setupTop: box(document.querySelector("#view-play .setup")).top,
        wider: document.documentElement.scrollWidth > window.innerWidth,
      };
    });
    assert.deepEqual(layout.spills, [], "labels spill out of their squares");
    // The best lines under the values, at both sizes.
    const lines = await page.$$eval("#analysis-lines li", (l) => l.map((x) => x.textContent));
    const legal = await page.$$eval("#play-board .cell.legal", (c) => c.length);
    assert.equal(lines.length, Math.min(3, legal));
    assert.ok(lines.every((t) => /^[a-h][1-8]: [+−]?[\d.]+ discs \((estimate|exact)\)( — [a-h][1-8]( [a-h][1-8]| pass)+)?$/.test(t)), String(lines));
    assert.ok(layout.smallestCell >= 40, `squares of ${layout.smallestCell} px`);
    assert.equal(layout.wider, false, "the page is wider than the screen");
    if (name === "phone") {
      assert.deepEqual(layout.small, [], "targets under 40 px");
      assert.ok(layout.movesTop > layout.boardBottom && layout.movesTop < layout.setupTop, JSON.stringify(layout));
    }
    // ◀ and ▶ step through the game.
    assert.equal(await page.isDisabled("#step-forward"), true);
    await page.click("#step-back");
    await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 1 of 2");
    await page.click("#step-back");
    await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 0 of 2");
    assert.equal(await page.isDisabled("#step-back"), true);
    await page.click("#step-forward");
    await page.waitForFunction(() => document.querySelector("#replay-label").textContent === "move 1 of 2");
    await page.$eval("#play-board", (e) => e.scrollIntoView());
    await shot(page, `${name}-othello-analysis-small-screen`);
    assert.deepEqual(page.errors, []);
  });
}

// Steps asked for while the game's last request is on its way pile up: a quick double
// click on ◀ goes back two moves, not one (the page once dropped the second).
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`quick steps while a request is on its way all count (${name})`, async () => {
    const page = await open(viewport);
    await othelloBetweenPeople(page, 6);
    // Each seek waits on its way to the server until the test lets it through.
    const seeks = [];
    const held = [];
    const arrivals = [];
    await page.route("**/seek", (route) => new Promise((done) => {
      seeks.push(JSON.parse(route.request().postData()).ply);
      held.push(() => route.continue().then(done));
      arrivals.shift()?.();
    }));
    // A seek that never comes fails the test as Playwright's own waits do, after 30 s.
    const oneHeld = () => held.length ? Promise.resolve() : new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no seek reached the server after ${JSON.stringify(seeks)}`)), 30_000);
      arrivals.push(() => { clearTimeout(timer); ok(); });
    });
    const letThrough = async () => { await oneHeld(); held.shift()(); };
    const landedAt = (ply) => page.waitForSelector(`#move-list li.current[data-ply="${ply}"]`);
    await page.click("#step-back");
    await oneHeld();
    // Two more while the first is held, sent as one seek when it lands; the label says
    // the move shown until then.
    await page.click("#step-back");
    await page.click("#step-back");
    assert.equal(await page.textContent("#replay-label"), "move 6 of 6");
    await letThrough();
    await letThrough();
    await landedAt(3);
    assert.deepEqual(seeks, [5, 3]);
    // The arrow keys pile up the same way, and so do ▶ and a move in the list.
    await page.$eval("#step-forward", (b) => b.focus());
    await page.keyboard.press("ArrowRight");
    await oneHeld();
    await page.keyboard.press("ArrowRight");
    await page.click("#step-forward");
    // ▶ goes no further than the end asked for.
    assert.equal(await page.isDisabled("#step-forward"), true);
    await letThrough();
    await oneHeld();
    await page.click('#move-list li[data-ply="2"] button');
    await letThrough();
    await letThrough();
    await landedAt(2);
    assert.deepEqual(seeks, [5, 3, 4, 6, 2]);
    assert.equal(await page.textContent("#replay-label"), "move 2 of 6");
    await shot(page, `${name}-quick-steps`);
    assert.deepEqual(page.errors, []);
  });
}

// Issue 63: the browser's Back and Forward move through the app's own history (views,
// games, tree positions), and a reload keeps the analysis as it was set.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
test(`Back and Forward move through the app; a reload keeps the analysis settings (${name})`, async () => {
  const page = await open(viewport);
  // A game with a move, then a new game: Back returns to the first.
  await playAt(page, square("play-board", 4));
  await humanTurn(page);
  const first = await page.evaluate(() => play.state.id);
  await page.click("#new-game");
  await page.waitForFunction((id) => play.state.id !== id && document.querySelectorAll("#move-list li").length === 0, first);
  await page.goBack();
  await page.waitForFunction((id) => play.state?.id === id, first);
  assert.equal(await moveCount(page), 2);
  // Views: Watch, then Back to Play, Forward to Watch again.
  await page.click("#tab-watch");
  await page.goBack();
  await page.waitForFunction(() => document.querySelector("#tab-play").getAttribute("aria-selected") === "true");
  await page.goForward();
  await page.waitForFunction(() => document.querySelector("#tab-watch").getAttribute("aria-selected") === "true");
  // The tree: down one move, Back goes up again.
  await page.click("#tab-explore");
  await page.waitForSelector("#explore-children .child");
  await page.click('#explore-children .child[data-move="1,1"]');
  await page.waitForFunction(() => document.querySelectorAll("#explore-children .child").length === 8);
  // Back shows the position before the AI's values arrive; a tab picked while they are
  // held back by the server stays picked once they come.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route("**/api/explore", async (route) => {
    if (JSON.parse(route.request().postData() || "{}").ai) await held;
    await route.continue();
  });
  const followed = await page.evaluate(() => Number(document.body.dataset.historyFollowed || 0));
  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll("#explore-children .child").length === 9);
  await page.click("#tab-play");
  release();
  await page.waitForFunction((n) => Number(document.body.dataset.historyFollowed || 0) > n, followed);
  await page.unroute("**/api/explore");
  assert.equal(await page.getAttribute("#tab-play", "aria-selected"), "true");
  assert.ok(await page.isVisible("#analysis-ai"));
  // Still in the app, on its own page.
  assert.ok(page.url().startsWith(url));
  // The analysis settings survive a reload.
  await page.fill("#analysis-ai", "mcts:iterations=300");
  await page.press("#analysis-ai", "Enter");
  await page.check("#analysis-on");
  await page.check("#analysis-deepen");
  await page.waitForFunction(() => /deepen=1/.test(location.hash) && /ai=mcts/.test(location.hash));
  await page.reload();
  await page.waitForSelector("body[data-ready]");
  assert.equal(await page.isChecked("#analysis-on"), true);
  assert.equal(await page.isChecked("#analysis-deepen"), true);
  assert.equal(await page.inputValue("#analysis-ai"), "mcts:iterations=300");
  assert.deepEqual(page.errors, []);
});
}

// Issue 63: the position shown as a picture to download (SVG and PNG), and a sound on
// moves that is off until asked for and then remembered.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`the board as a picture, and sound on moves (${name})`, async () => {
    const page = await open(viewport);
    await page.selectOption("#play-game", "othello");
    await page.waitForSelector('#play-board.discs .cell[data-square="19"].legal');
    await page.selectOption("#play-seat-1 select.ai", "human");
    await page.waitForFunction(() => document.querySelector("#play-players").textContent.includes("White: Human"));
    assert.equal(await page.isChecked("#sound"), false, "sound is off by default");
    await page.check("#sound");
    await playAt(page, '#play-board .cell[data-square="19"]');
    await page.waitForFunction(() => Number(document.body.dataset.sounds || 0) >= 1);
    await page.click("#records summary");
    // The opening's name follows the position shown: d3 alone is the start of every
    // opening; d3 c5 (the Perpendicular turned) is named; pasted, the Tiger.
    assert.ok(await page.isHidden("#play-opening"));
    await page.fill("#record-text", "d3c5f6f5e6");
    await page.click("#record-load");
    await page.waitForFunction(() => document.querySelector("#play-opening").textContent === "Opening: Tiger");
    // Each step waits for the one before to land: a click while a request is on its way
    // is dropped today (the page does one thing at a time for a game).
    const stepped = (text) => page.waitForFunction((t) => document.querySelector("#replay-label").textContent === t, text);
    await page.click("#step-back");
    await stepped("move 4 of 5");
    await page.click("#step-back");
    await stepped("move 3 of 5");
    assert.equal(await page.textContent("#play-opening"), "Opening: Perpendicular");
    await page.click("#step-forward");
    await stepped("move 4 of 5");
    await page.click("#step-forward");
    await stepped("move 5 of 5");
    await playAt(page, "#play-board .cell.legal >> nth=0");
    const [svg] = await Promise.all([page.waitForEvent("download"), page.click("#board-svg")]);
    assert.equal(svg.suggestedFilename(), "othello-board.svg");
    const text = readFileSync(await svg.path(), "utf8");
    assert.ok(text.startsWith("<svg "), text.slice(0, 40));
    // After six moves, ten discs on 64 squares.
    assert.equal((text.match(/class="square"/g) || []).length, 64);
    assert.equal((text.match(/class="piece"/g) || []).length, 10);
    const [png] = await Promise.all([page.waitForEvent("download"), page.click("#board-png")]);
    assert.equal(png.suggestedFilename(), "othello-board.png");
    assert.deepEqual([...readFileSync(await png.path()).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    copyFileSync(await png.path(), join(shots, `${name}-board-download.png`));
    await shot(page, `${name}-board-picture-buttons`);
    // The choice of sound is kept by the browser.
    await page.reload();
    await page.waitForSelector("body[data-ready]");
    assert.equal(await page.isChecked("#sound"), true);
    assert.deepEqual(page.errors, []);
  });
}

// Issue 63: the keyboard and a screen reader on a desktop and a phone. The first Tab
// stop skips to the board; the board is one Tab stop, the arrow keys move between its
// squares (not through the game), Enter plays, and the AI's reply is announced.
for (const [name, viewport] of [["desktop", { width: 1360, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test(`the board by keyboard: one Tab stop, arrow keys, moves announced (${name})`, async () => {
    const page = await open(viewport);
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.id), "skip-to-board");
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.square), "0");
    assert.equal(await page.$$eval('#play-board .cell[tabindex="0"]', (c) => c.length), 1);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowDown");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.square), "4");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2);
    await humanTurn(page);
    assert.match(await page.textContent("#play-announce"), /^X played \d,\d\.$/);
    // Still on the board, on the square played; the arrows never stepped the game.
    assert.equal(await page.evaluate(() => document.activeElement.dataset.square), "4");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.square), "3");
    assert.equal(await page.textContent("#replay-label"), "move 2 of 2");
    assert.deepEqual(page.errors, []);
  });
}
