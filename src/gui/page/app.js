// The Leiserchess page. It draws what the server says (the board, the
// legal moves, the beam, the result) and sends clicks as moves: every rule
// decision is the engine's rules code, asked over the JSON API.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefgh";
const SIDE_NAMES = { white: "Tangerine", black: "Lavender" };
const $ = (id) => document.getElementById(id);

const S = {
  game: null,      // the server's view of the game
  sel: null,       // the selected piece's square
  swap: null,      // the enemy square chosen to swap with
  flipped: false,
  search: null,    // the running search's AbortController
  analysing: false, // whether that search is an analysis
};

// ---------------------------------------------------------------------------
// The API.

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    return { ok: false, error: "the server does not answer (" + e.message + ")" };
  }
  const data = await res.json().catch(() => ({}));
  return res.ok ? { ok: true, data } : { ok: false, error: data.error || res.statusText };
}

function say(text, error) {
  const m = $("message");
  m.textContent = text;
  m.classList.toggle("error", !!error);
}

// ---------------------------------------------------------------------------
// Who plays what.

function mode() { return $("mode").value; }

function isHuman(side) {
  const m = mode();
  return m === "humans" || m === side;
}

function engineToMove() {
  const g = S.game;
  return g && !g.outcome && !isHuman(g.side);
}

function limitBody() {
  const n = Math.max(1, Math.floor(Number($("limit").value) || 1));
  return $("limit-kind").value === "depth" ? { depth: Math.min(n, 30) } : { movetime: Math.min(n, 60000) };
}

function engineName() {
  const l = limitBody();
  return "leiserchess (" + (l.depth ? "depth " + l.depth : l.movetime + " ms") + ")";
}

function players() {
  return {
    white: isHuman("white") ? "Human" : engineName(),
    black: isHuman("black") ? "Human" : engineName(),
  };
}

// ---------------------------------------------------------------------------
// Games.

function setGame(g) {
  // Lines of another position would mislead.
  if (!S.game || S.game.id !== g.id || S.game.version !== g.version) clearLines();
  S.game = g;
  S.sel = null;
  S.swap = null;
  history.replaceState(null, "", "#game=" + g.id);
  render();
}

async function newGame(fen) {
  cancelSearch();
  const body = players();
  if (fen !== undefined) body.fen = fen;
  const r = await api("POST", "/api/games", body);
  if (!r.ok) return say(r.error, true);
  clearInfo();
  setGame(r.data);
  say(fen === undefined ? "New game." : "Position loaded.");
  afterChange();
}

async function tryMove(text) {
  // The server ends any search of the position left; so does the page, so
  // that the engine may answer the move.
  cancelSearch();
  const r = await api("POST", "/api/games/" + S.game.id + "/move", { move: text });
  if (!r.ok) {
    say(r.error, true);
    S.swap = null;
    return render();
  }
  setGame(r.data);
  say("");
  afterChange();
}

async function undo() {
  const g = S.game;
  const plies = isHuman(g.side) && !isHuman(g.side === "white" ? "black" : "white") ? 2 : 1;
  if (g.history.length < plies) return say("There is no move of yours to take back.", true);
  cancelSearch();
  const r = await api("POST", "/api/games/" + g.id + "/undo", { plies });
  if (!r.ok) return say(r.error, true);
  setGame(r.data);
  say(plies === 2 ? "Took back your move and the engine's." : "Took back one move.");
  afterChange();
}

// After the game changed: the engine moves if it is its turn.
function afterChange() {
  if (engineToMove() && !S.search) think();
}

// ---------------------------------------------------------------------------
// The engine's search for a move, or its analysis of the position, read as
// server-sent events from a POST.

function think() { return runSearch("search", limitBody(), false); }

function linesCount() {
  const input = $("lines-count");
  // A number input's value is "" when it holds no number.
  const v = Math.floor(Number(input.value));
  const n = input.value === "" || !Number.isFinite(v) ? 3 : Math.min(16, Math.max(1, v));
  input.value = n;
  return n;
}

function analyse() { return runSearch("analyse", { multipv: linesCount() }, true); }

// A running analysis starts again, with the lines and the search asked now.
function restartAnalysis() {
  if (!S.analysing) return;
  cancelSearch();
  analyse();
}

async function runSearch(route, body, analysing) {
  const g = S.game;
  if (!g || g.outcome) return;
  const ctl = new AbortController();
  S.search = ctl;
  S.analysing = analysing;
  let played = false;
  $("thinking-state").textContent = analysing ? "analysing…" : "thinking…";
  $("info-note").textContent = "";
  clearLines();
  if (analysing) startLines(g);
  renderStatus();
  try {
    const res = await fetch("/api/games/" + g.id + "/" + route, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: ctl.signal,
    });
    if (!res.ok) {
      clearLines();
      const data = await res.json().catch(() => ({}));
      say(data.error || res.statusText, true);
    } else {
      await readEvents(res.body, (name, data) => { played = onEvent(name, data) || played; });
    }
  } catch (e) {
    if (e.name !== "AbortError") say("the search broke off: " + e.message, true);
  }
  if (S.search !== ctl) return;
  S.search = null;
  S.analysing = false;
  $("thinking-state").textContent = "";
  renderStatus();
  // Only after a move: a refused search must not be asked again at once.
  if (played) afterChange();
}

async function readEvents(body, handle) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length) handle(name, JSON.parse(data.join("\n")));
    }
  }
}

// Shows one event of a search; true when it was the engine's move.
function onEvent(name, data) {
  if (name === "info") {
    showInfo(data);
    if (S.analysing) showLines(data.lines);
  } else if (name === "move") {
    setGame(data.state);
    say("The engine played " + data.move + ".");
    return true;
  } else if (name === "stopped") say(data.reason);
  else if (name === "note") $("info-note").textContent = data.text;
  return false;
}

function cancelSearch() {
  if (S.search) {
    S.search.abort();
    S.search = null;
    S.analysing = false;
    $("thinking-state").textContent = "";
    renderStatus();
  }
}

function scoreText(info) {
  const side = SIDE_NAMES[S.game.side];
  if (info.score_text.startsWith("mate -")) return side + " loses its King in " + info.score_text.slice(6);
  if (info.score_text.startsWith("mate")) return side + " zaps the King in " + info.score_text.slice(5);
  const pawns = info.score / 100;
  return (pawns >= 0 ? "+" : "") + pawns.toFixed(2) + " for " + side;
}

// The search's figures; an MCTS search counts playouts, and those the
// root kept from the game's last search are shown beside them.
function showInfo(info) {
  $("info-search").textContent = info.search;
  $("info-depth").textContent = info.depth + " (sel " + info.seldepth + ")";
  $("info-score").textContent = scoreText(info);
  $("info-nodes-name").textContent = info.counted;
  $("info-nps-name").textContent = info.counted + "/s";
  const best = info.lines[0];
  const kept = best && best.visits ? best.visits.root - info.nodes : 0;
  $("info-nodes").textContent = info.nodes.toLocaleString("en") + (kept > 0 ? " (+" + kept.toLocaleString("en") + " kept)" : "");
  $("info-nps").textContent = info.nps.toLocaleString("en");
  $("info-time").textContent = info.time_ms + " ms";
  // An analysis shows its best line among the others.
  $("info-pv").textContent = S.analysing ? "" : info.pv.join(" ");
}

function clearInfo() {
  for (const id of ["info-search", "info-depth", "info-score", "info-nodes", "info-nps", "info-time"]) $(id).textContent = "–";
  $("info-pv").textContent = "";
}

function tag(name, cls, parent, text) {
  const e = document.createElement(name);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// The chances of an analysis line, each a segment's class and name.
const WDL = ["win", "draw", "loss"];

// The analysis list, empty, with whose chances its rows give.
function startLines(g) {
  const side = $("lines-side");
  side.replaceChildren(SIDE_NAMES[g.side] + " to move, its chances: ");
  WDL.forEach((word, i) => {
    if (i) side.append(" · ");
    tag("span", "swatch " + word, side);
    side.append(" " + word);
  });
  $("analysis").hidden = false;
}

// A line's share of the root's playouts (MCTS): a bar and its figures.
function showVisits(v, row) {
  const box = tag("span", "visits", row);
  const pct = (v.share * 100).toFixed(1) + "%";
  const root = v.root.toLocaleString("en");
  box.title = v.edge.toLocaleString("en") + " of the root's " + root + " playouts through this line's first move";
  tag("span", "", tag("span", "share", box)).style.width = pct;
  tag("span", "share-text", box, pct + " of " + root + " playouts");
}

// One row a line, best first: rank, score, win/draw/loss bar, its share of
// the playouts if the search gives one, and the moves numbered as the
// game's are.
function showLines(lines) {
  const g = S.game;
  const ply = firstPly(g) + g.history.length;
  $("lines").replaceChildren(...lines.map((line) => {
    const row = tag("li", "line");
    row.dataset.multipv = line.multipv;
    tag("span", "rank", row, line.multipv);
    tag("span", "score", row, scoreText(line));
    const bar = tag("span", "wdl", row);
    bar.title = WDL.map((word, i) => word + " " + line.wdl[i] + " ‰").join(" · ");
    bar.setAttribute("role", "img");
    bar.setAttribute("aria-label", bar.title);
    WDL.forEach((word, i) => { tag("span", word, bar).style.width = line.wdl[i] / 10 + "%"; });
    if (line.visits) showVisits(line.visits, row);
    tag("p", "pv moves-text", row, numbered(line.pv, ply));
    return row;
  }));
}

function clearLines() {
  $("analysis").hidden = true;
  $("lines").replaceChildren();
}

// ---------------------------------------------------------------------------
// Clicks.

function pieceAt(square) {
  const i = (Number(square[1])) * 8 + FILES.indexOf(square[0]);
  return S.game.board[i];
}

function movesFrom(square) {
  return S.game.legal.filter((m) => m.from === square);
}

function select(square) {
  S.sel = square;
  S.swap = null;
  render();
  const n = movesFrom(square).length;
  say(n ? "Click a square to step to or an enemy piece to swap with, or rotate." : "This piece has no legal move.");
}

// Why no move can be made by clicking now, if so.
function notYourTurn() {
  const g = S.game;
  if (!g) return "The page is still loading.";
  if (g.outcome) return "The game is over: " + g.outcome.text + ". Undo, load a FEN or start a new game.";
  if (!isHuman(g.side)) {
    return S.search ? "The engine is thinking…" : SIDE_NAMES[g.side] + " is the engine's side: press Engine move.";
  }
  return null;
}

function onSquare(square) {
  const why = notYourTurn();
  if (why) return say(why, true);
  const g = S.game;
  const p = pieceAt(square);
  if (S.sel === null) {
    if (!p) return say(square + " is empty: select one of " + g.side_name + "'s pieces first.", true);
    if (p.color !== g.side) return say("That is " + SIDE_NAMES[p.color] + "'s piece; " + g.side_name + " is to move.", true);
    return select(square);
  }
  if (S.swap === null) {
    if (square === S.sel) {
      S.sel = null;
      render();
      return say("");
    }
    const moves = movesFrom(S.sel);
    const step = moves.find((m) => !m.swap && !m.rot && m.to === square);
    if (step) return tryMove(step.text);
    if (moves.some((m) => m.swap === square)) {
      S.swap = square;
      render();
      return say("Swapping with " + square + ": click an empty square next to it to step to, or rotate.");
    }
    if (p && p.color === g.side) return select(square);
    return tryMove(S.sel + square);
  }
  if (square === S.swap || square === S.sel) {
    S.swap = null;
    render();
    return say("Swap undone: choose again.");
  }
  const m = movesFrom(S.sel).find((m) => m.swap === S.swap && !m.rot && m.to === square);
  return tryMove(m ? m.text : S.sel + S.swap + square);
}

function onRotate(rot) {
  const why = notYourTurn();
  if (why) return say(why, true);
  if (S.sel === null) return say("Select one of " + S.game.side_name + "'s pieces first, then rotate it.", true);
  tryMove(S.sel + (S.swap || "") + rot);
}

// ---------------------------------------------------------------------------
// Drawing.

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// The centre of a square in board coordinates (100 a square, a7 top left
// unless flipped).
function centre(square) {
  let f = FILES.indexOf(square[0]);
  let r = Number(square[1]);
  if (S.flipped) {
    f = 7 - f;
    r = 7 - r;
  }
  return [f * 100 + 50, (7 - r) * 100 + 50];
}

function squareName(i) { return FILES[i % 8] + Math.floor(i / 8); }

// A piece drawn facing north (a King) or with its mirror facing north-west
// (a Pawn), turned clockwise by its orientation index.
function drawPiece(p, square, parent) {
  const [x, y] = centre(square);
  const turn = p.index * 90 + (S.flipped ? 180 : 0);
  const g = el("g", { class: "piece " + p.color, "data-square": square, "data-piece": p.kind + " " + p.color + " " + p.ori }, parent);
  const body = el("g", { transform: "translate(" + x + " " + y + ") rotate(" + turn + ")" }, g);
  if (p.kind === "king") {
    el("circle", { class: "body", r: 33 }, body);
    el("path", { class: "barrel", d: "M0 -47 L-13 -27 L13 -27 Z" }, body);
    el("path", {
      class: "crown",
      d: "M-17 9 L-19 -9 L-9 -1 L0 -13 L9 -1 L19 -9 L17 9 Z",
      transform: "rotate(" + -turn + ")",
    }, body);
  } else {
    el("path", { class: "body", d: "M-36 36 L36 -36 L36 36 Z" }, body);
    el("line", { class: "mirror-edge", x1: -33, y1: 33, x2: 33, y2: -33 }, body);
    el("line", { class: "mirror", x1: -33, y1: 33, x2: 33, y2: -33 }, body);
  }
}

// The beam runs under the pieces; the mark on the piece it zaps goes on
// top (`marks`).
function drawBeam(beam, parent, marks) {
  if (!beam) return;
  const g = el("g", { id: "beam", "data-points": beam.points.join(" "), "data-zapped": beam.zapped || "" }, parent);
  const pts = beam.points.map(centre);
  if (!beam.zapped) {
    // Out to the board's edge.
    const d = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] }[beam.heading];
    const k = S.flipped ? -50 : 50;
    const [x, y] = pts[pts.length - 1];
    pts.push([x + d[0] * k, y + d[1] * k]);
  }
  const points = pts.map((p) => p.join(",")).join(" ");
  el("polyline", { class: "glow", points }, g);
  el("polyline", { points }, g);
  if (beam.zapped) {
    const [x, y] = centre(beam.zapped);
    const z = el("g", { id: "zapped", "data-square": beam.zapped }, marks);
    el("circle", { class: "zap", cx: x, cy: y, r: 44 }, z);
    el("path", { class: "zap-x", d: "M" + (x - 14) + " " + (y - 14) + " l28 28 m0 -28 l-28 28" }, z);
  }
}

function renderBoard() {
  const svg = $("board");
  svg.replaceChildren();
  const g = S.game;
  svg.setAttribute("data-fen", g.fen);
  const last = g.last_move ? [g.last_move.from, g.last_move.swap, g.last_move.to] : [];
  for (let i = 0; i < 64; i++) {
    const sq = squareName(i);
    const [x, y] = centre(sq);
    const dark = (Math.floor(i / 8) + (i % 8)) % 2 === 0;
    const cls = "sq " + (dark ? "dark" : "light") + (last.includes(sq) ? " last" : "");
    el("rect", { class: cls, x: x - 50, y: y - 50, width: 100, height: 100, "data-square": sq }, svg);
    if (last.includes(sq)) el("rect", { x: x - 50, y: y - 50, width: 100, height: 100, fill: "#f5d76e", "fill-opacity": 0.35, "pointer-events": "none" }, svg);
  }
  for (let i = 0; i < 8; i++) {
    const file = S.flipped ? FILES[7 - i] : FILES[i];
    const rank = S.flipped ? i : 7 - i;
    el("text", { class: "coord", x: i * 100 + 50, y: 822 }, svg).textContent = file;
    el("text", { class: "coord", x: -20, y: i * 100 + 50 }, svg).textContent = rank;
  }
  if (S.sel) {
    const [x, y] = centre(S.sel);
    el("rect", { class: "mark selected", x: x - 46, y: y - 46, width: 92, height: 92, rx: 6 }, svg);
    const moves = movesFrom(S.sel);
    if (S.swap) {
      const [sx, sy] = centre(S.swap);
      el("rect", { class: "mark swap", x: sx - 46, y: sy - 46, width: 92, height: 92, rx: 6 }, svg);
      for (const m of moves) {
        if (m.swap === S.swap && !m.rot) {
          const [tx, ty] = centre(m.to);
          el("circle", { class: "mark target", cx: tx, cy: ty, r: 16 }, svg);
        }
      }
    } else {
      for (const m of moves) {
        if (m.rot) continue;
        if (m.swap) {
          const [tx, ty] = centre(m.swap);
          el("circle", { class: "mark capture", cx: tx, cy: ty, r: 44 }, svg);
        } else {
          const [tx, ty] = centre(m.to);
          el("circle", { class: "mark target", cx: tx, cy: ty, r: 16 }, svg);
        }
      }
    }
  }
  const under = el("g", {}, svg);
  g.board.forEach((p, i) => { if (p) drawPiece(p, squareName(i), svg); });
  drawBeam(g.beam, under, el("g", { class: "marks" }, svg));
}

function renderStatus() {
  const g = S.game;
  if (!g) return;
  let text;
  if (g.outcome) text = g.outcome.text;
  else {
    text = g.side_name + " to move";
    if (S.search) text += S.analysing ? " — the engine is analysing" : " — the engine is thinking";
    else if (isHuman(g.side) && mode() !== "humans") text += " — your move";
  }
  $("status").textContent = text;
  $("stop-analysis").classList.toggle("unavailable", !S.analysing);
}

// The ply of the game's first move: 1 when Lavender moved first (the side
// to move after an even number of plies), so that Tangerine's moves start
// the numbered moves.
function firstPly(g) {
  return (g.history.length % 2 === 0) === (g.side === "black") ? 1 : 0;
}

// `moves` from ply `ply` on, numbered: "12. g4L b3L 13. …", or
// "12... b3L 13. …" from a Lavender move.
function numbered(moves, ply) {
  return moves.map((m, i) => {
    const p = ply + i;
    if (p % 2 === 0) return p / 2 + 1 + ". " + m;
    return i === 0 ? (p + 1) / 2 + "... " + m : m;
  }).join(" ");
}

function renderMoves() {
  const g = S.game;
  $("moves").textContent = numbered(g.history, firstPly(g)) || "none yet";
}

function renderRotate() {
  const g = S.game;
  for (const b of document.querySelectorAll("#rotate button")) {
    const rot = b.dataset.rot;
    const ok = S.sel && movesFrom(S.sel).some((m) => m.rot === rot && (m.swap || null) === S.swap);
    b.classList.toggle("unavailable", !ok || !!g.outcome);
  }
}

function render() {
  const g = S.game;
  if (!g) return;
  renderBoard();
  renderStatus();
  renderMoves();
  renderRotate();
  const result = $("result");
  result.hidden = !g.outcome;
  result.textContent = g.outcome ? g.outcome.result.replace("1/2-1/2", "½–½") + " · " + g.outcome.text : "";
  const fen = $("fen");
  if (document.activeElement !== fen) fen.value = g.fen;
  const pgn = $("pgn");
  pgn.href = "/api/games/" + g.id + "/pgn";
  pgn.setAttribute("download", "leiserchess-" + g.id + ".pgn");
}

// ---------------------------------------------------------------------------
// Controls.

async function copyFen() {
  const text = S.game.fen;
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    const fen = $("fen");
    fen.value = text;
    fen.select();
    document.execCommand("copy");
  }
  say("FEN copied: " + text);
}

async function playersChanged() {
  cancelSearch();
  if (!S.game) return;
  const r = await api("POST", "/api/games/" + S.game.id + "/players", players());
  if (r.ok) setGame(r.data);
  afterChange();
}

function start() {
  $("board").addEventListener("click", (e) => {
    const t = e.target.closest("[data-square]");
    if (t) onSquare(t.dataset.square);
  });
  for (const b of document.querySelectorAll("#rotate button")) b.addEventListener("click", () => onRotate(b.dataset.rot));
  $("new").addEventListener("click", () => newGame());
  $("undo").addEventListener("click", undo);
  $("flip").addEventListener("click", () => { S.flipped = !S.flipped; render(); });
  $("go").addEventListener("click", () => {
    if (S.search && !S.analysing) return say("The engine is already thinking.");
    if (S.game.outcome) return say("The game is over.", true);
    // A move ends the analysis.
    cancelSearch();
    think();
  });
  $("stop").addEventListener("click", async () => {
    if (!S.search) return say("The engine is not thinking.", true);
    const r = await api("POST", "/api/games/" + S.game.id + "/stop", {});
    if (!r.ok) say(r.error, true);
  });
  $("analyse").addEventListener("click", () => {
    if (S.game.outcome) return say("The game is over.", true);
    if (S.search && !S.analysing) return say("The engine is thinking on its move.", true);
    // A running analysis starts again with the lines asked now.
    cancelSearch();
    say("");
    analyse();
  });
  $("lines-count").addEventListener("change", restartAnalysis);
  $("stop-analysis").addEventListener("click", async () => {
    if (!S.analysing) return say("The engine is not analysing.", true);
    const r = await api("POST", "/api/games/" + S.game.id + "/stop", {});
    if (!r.ok) say(r.error, true);
  });
  $("load").addEventListener("click", () => newGame($("fen").value));
  $("fen").addEventListener("keydown", (e) => { if (e.key === "Enter") newGame($("fen").value); });
  $("copy").addEventListener("click", copyFen);
  $("mode").addEventListener("change", playersChanged);
  $("limit-kind").addEventListener("change", () => {
    $("limit").value = $("limit-kind").value === "depth" ? 5 : 1000;
    playersChanged();
  });
  $("limit").addEventListener("change", playersChanged);
  // A page left for another ends its search: the back/forward cache would
  // keep the page, frozen, and its search's stream open.
  window.addEventListener("pagehide", cancelSearch);
  const m = /game=(\d+)/.exec(location.hash);
  if (m) {
    api("GET", "/api/games/" + m[1]).then((r) => {
      if (r.ok) {
        setGame(r.data);
        say("Game " + r.data.id + " resumed.");
        afterChange();
      } else newGame();
    });
  } else newGame();
}

start();
