"""The rooms' pages (Solara): ``/`` for a student (type the room code and a
name, then play from your own seat), ``/teacher`` for the teacher (open rooms,
watch every game, pause, next round, manage the seats, undo, replay, results,
end the class) and ``/projector``, the read-only view a teacher projects (the
students' address with a QR code, the room code in large type, who joined,
every game live, results; no control).

The teacher's pages are opened by the teacher's session cookie, which the
server gives for the teacher token (:class:`~gridwidgets.rooms.server.RoomsApp`):
no token is ever in these pages' addresses, and each teacher's action asks the
session again (:meth:`~gridwidgets.rooms.Rooms.teacher_key`).

Imported only by the server (:mod:`gridwidgets.rooms.server`), in the one
process that holds every game. A page never holds a game: it shows the
room's shared game through its own board (:func:`~gridwidgets.rooms.board.room_board`)
and redraws the rest when the room changes: a thread of the page waits on the
room's change signal (:class:`~gridwidgets.rooms.model.Changes`), which every
change notifies, so a change reaches every page at once (a push, no timer).
A teacher's button shows it was pressed at once, in the page itself (dimmed,
outlined, ``aria-busy``), until the server's answer redraws it. Every page carries a watcher
(:class:`ConnectionWatch`) that says so when the connection to the server is
lost and reloads the page once the server answers again, so a restart or a
network drop needs nobody to press reload.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from html import escape
from typing import Any
from urllib.parse import parse_qs, quote

import anywidget
import matplotlib.figure  # noqa: F401  (imported once, here, as pandas: two pages' threads drawing their first
import pandas  # noqa: F401  charts at once found matplotlib half imported; a page's thread importing pandas while
import solara  # another checks a state for a DataFrame found it half imported)
import traitlets

from ..menu import AGENTS, games_menu
from . import activities
from .board import room_board
from .model import PAIRINGS, ROUND_PAIRINGS, Changes, Room, RoomError, RoomGame, Rooms
from .names import clean_name, look_alike
from .pageutil import log_page_error as _log
from .pageutil import safe_action as _safe
from .server import current_rooms, hub_mode, page_info, root_path, students_address

#: the pairings as the teacher's menu says them
PAIRING_LABELS = {"arrival": "Pairs in arrival order", "round-robin": "Round robin (the teacher starts each round)",
                  "swiss": "Swiss: equal points meet (the teacher starts each round)",
                  "agent": "Each student against an agent"}
#: seconds a page's thread waits for a change before it looks whether the page is gone (changes are pushed:
#: this delays no update); the environment variable ``GRIDWIDGETS_PAGE_STOP_CHECK`` sets it (tests make it long)
STOP_CHECK = float(os.environ.get("GRIDWIDGETS_PAGE_STOP_CHECK") or 1.0)
#: the least seconds between two redraws of a page that shows every game (the teacher's, the projector): the
#: first change is drawn at once, a burst of moves at most this often
MIN_REDRAW = 0.1
#: the small boards of the teacher's page, drawn once per game and version
_PICTURES: OrderedDict[tuple[int, int], str] = OrderedDict()
_PICTURES_LOCK = threading.Lock()
_CSS = """
.gw-rooms { max-width: 1240px; margin: 0 auto; padding: 8px 16px; font-size: 16px; }
.gw-rooms h1 { font-size: 26px; margin: 4px 0 8px; }
.gw-room-code { font-family: "DejaVu Sans Mono", monospace; font-size: 28px; letter-spacing: 4px; font-weight: 700; }
.gw-room-games { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: 12px; }
.gw-room-games.gw-big-boards { grid-template-columns: repeat(auto-fill, minmax(min(100%, 400px), 1fr)); }
.gw-room-game { border: 1px solid #d1d5db; border-radius: 8px; padding: 6px; }
.gw-room-game svg { width: 100%; height: auto; }
.gw-room-game .gw-caption { font-size: 14px; margin: 2px 0; }
.gw-room-game.gw-to-move { border-color: #2563eb; }
.gw-room-note { font-size: 15px; }
.gw-names { overflow-wrap: anywhere; }
.gw-name { display: inline-block; max-width: 22em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
           vertical-align: bottom; line-height: 1.5; }
.gw-projector .gw-big-code { font-family: "DejaVu Sans Mono", monospace; font-size: clamp(48px, 11vw, 140px);
           font-weight: 700; letter-spacing: .12em; line-height: 1; margin: 8px 0; }
.gw-projector .gw-address { font-family: "DejaVu Sans Mono", monospace; font-size: clamp(20px, 3.2vw, 40px);
           font-weight: 700; overflow-wrap: anywhere; }
.gw-projector-head { display: flex; flex-wrap: wrap; gap: 24px; align-items: center; }
.gw-qr { background: #fff; padding: 8px; border-radius: 8px; line-height: 0; }
.gw-qr svg { width: clamp(140px, 22vw, 260px); height: auto; }
.gw-link { font-weight: 600; }
.gw-choice { margin: 4px 0; }
.gw-choice-label { font-size: 14px; font-weight: 600; margin: 0 0 2px; }
.gw-rooms .v-btn.v-btn--contained.warning { background-color: #92400e !important; color: #fff !important; }
.gw-rooms .v-btn.v-btn--contained.success { background-color: #166534 !important; color: #fff !important; }
.gw-rooms .v-btn.v-btn--contained.primary { background-color: #1565c0 !important; color: #fff !important; }
.gw-rooms .v-btn.v-btn--contained.error { background-color: #b91c1c !important; color: #fff !important; }
.gw-rooms .v-btn.error--text { color: #b91c1c !important; caret-color: #b91c1c !important; }
.theme--dark .gw-rooms .v-btn.error--text { color: #fca5a5 !important; caret-color: #fca5a5 !important; }
.gw-seats { margin: 4px 0 8px; }
/* the Join button shows where the keyboard is (WCAG 2.4.7) */
.gw-rooms .v-btn.gw-join:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.theme--dark .gw-rooms .v-btn.gw-join:focus-visible { outline-color: #93c5fd; }
.gw-choice .v-btn, .gw-seats-toggle.v-btn, .gw-open-toggle.v-btn { text-transform: none; letter-spacing: normal; }
.gw-roster-names { display: flex; flex-wrap: wrap; gap: 8px; margin: 4px 0 12px; }
.gw-rooms .v-btn.gw-roster-name, .gw-rooms .v-btn.gw-not-listed, .gw-roster .v-btn { text-transform: none;
  letter-spacing: normal; }
.gw-rooms .v-btn.gw-roster-name:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.theme--dark .gw-rooms .v-btn.gw-roster-name:focus-visible { outline-color: #93c5fd; }
.gw-seats-toggle.v-btn, .gw-open-toggle.v-btn { align-self: flex-start; }
/* a teacher's button pressed, until the server's answer redraws the page (_WATCH_ESM) */
.gw-rooms .v-btn.gw-pressed { outline: 3px solid #1d4ed8 !important; outline-offset: 2px; opacity: .6;
           cursor: progress; }
/* held down: shown by CSS alone (nothing of the page changes between a press and its release) */
.gw-rooms .v-btn:active:not(.v-btn--disabled) { outline: 3px solid #1d4ed8; outline-offset: 2px; }
/* the spinner takes no room: a pressed button keeps its size and place (a button that grew could wrap its row
   to the next line between the press and the release, and the click would be lost) */
.gw-rooms .v-btn.gw-pressed::after { content: ""; display: block; width: .9em; height: .9em; position: absolute;
           top: calc(50% - .45em); left: calc(50% - .45em); border: 2px solid currentColor;
           border-right-color: transparent; border-radius: 50%; animation: gw-spin .7s linear infinite; opacity: 1;
           background: none; box-sizing: border-box; }
@keyframes gw-spin { to { transform: rotate(360deg); } }
.gw-confirm-remove { display: inline-flex; gap: 8px; align-items: center; flex-wrap: wrap;
           border: 1px solid #b91c1c; border-radius: 6px; padding: 2px 8px; }
.gw-replay-actions { display: flex; gap: 12px; flex-wrap: wrap; margin-top: 8px; }
/* a replay opens in the games' grid, under its game's row: the whole row */
.gw-room-games > .gw-replay { grid-column: 1 / -1; }
""" + activities.CSS + """
/* -- the projector (issue 41): the whole screen and no scrolling; text of at least --gw-t, a 45th of the
   screen's height (24 px on 1920x1080): the layout follows the projector's screen, not the teacher's page -- */
.gw-rooms.gw-projector { --gw-t: min(calc(100vh / 45), calc(100vw / 60)); max-width: none; height: 100vh;
  box-sizing: border-box; margin: 0; padding: calc(var(--gw-t) * .4) calc(var(--gw-t) * .8); line-height: 1.3;
  --gw-min-label: var(--gw-t); }
.gw-projector :not(svg, svg *) { font-size: var(--gw-t) !important; }
.gw-projector .gw-proj { display: flex; flex-direction: column; gap: calc(var(--gw-t) * .4); height: 100%; }
.gw-projector .gw-proj-head { flex: 0 0 auto; flex-wrap: nowrap; gap: var(--gw-t); align-items: center; }
.gw-projector .gw-proj-compact .gw-proj-head { height: calc(var(--gw-t) * 5.6); }
.gw-projector .gw-qr { padding: calc(var(--gw-t) * .25); flex: 0 0 auto; }
.gw-projector .gw-proj-compact .gw-qr svg { width: calc(var(--gw-t) * 5); }
.gw-projector .gw-proj-roomy .gw-qr svg { width: calc(var(--gw-t) * 11); }
.gw-projector .gw-proj-where { flex: 1 1 0; min-width: 0; }
.gw-projector .gw-proj-say { margin: 0; }
.gw-projector .gw-address { font-size: calc(var(--gw-t) * 1.4) !important; }
.gw-projector .gw-big-code { font-size: calc(var(--gw-t) * 2.6) !important; margin: 0; flex: 0 0 auto; }
.gw-projector .gw-proj-roomy .gw-big-code { font-size: calc(var(--gw-t) * 5.5) !important; }
.gw-projector .gw-proj-roomy .gw-proj-head { flex-wrap: wrap; }
.gw-projector .gw-proj-info { flex: 0 1 32%; min-width: 0; display: flex; flex-direction: column;
  gap: calc(var(--gw-t) * .3); align-items: flex-start; }
.gw-projector .gw-proj-info p { margin: 0; }
.gw-projector .gw-joined { display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical;
  overflow: hidden; }
.gw-projector .gw-proj-warning { color: #92400e; font-weight: 600; }
.theme--dark .gw-projector .gw-proj-warning { color: #fcd34d; }
.gw-projector .gw-proj-info .v-btn { height: auto !important; min-height: calc(var(--gw-t) * 1.8);
  text-transform: none; letter-spacing: normal; }
.gw-projector .gw-proj-main { flex: 1 1 0; min-height: 0; display: grid; gap: calc(var(--gw-t) * .6);
  grid-template-columns: minmax(0, 1fr); grid-template-rows: minmax(0, 1fr); }
.gw-projector .gw-proj-main > * { min-width: 0; min-height: 0; }
.gw-projector .gw-proj-side { grid-template-columns: minmax(0, 1.15fr) minmax(0, 1fr); }
.gw-projector .gw-proj-side > .gw-proj-games { grid-column: 2; grid-row: 1; }
.gw-projector .gw-proj-strip { grid-template-columns: minmax(0, 1.15fr) minmax(0, 1fr);
  grid-template-rows: auto minmax(0, 1fr); grid-template-areas: "stage results" "stage games"; }
.gw-projector .gw-proj-strip > .gw-proj-stage { grid-area: stage; }
.gw-projector .gw-proj-strip > .gw-proj-results { grid-area: results; }
.gw-projector .gw-proj-strip > .gw-proj-games { grid-area: games; }
.gw-projector .gw-proj-games { display: grid; gap: calc(var(--gw-t) * .5); height: 100%;
  grid-template-columns: repeat(var(--gw-cols, 1), minmax(0, 1fr));
  grid-template-rows: repeat(var(--gw-rows, 1), minmax(0, 1fr)); }
.gw-projector .gw-proj-games .gw-room-game { display: flex; flex-direction: column; min-height: 0; min-width: 0;
  padding: calc(var(--gw-t) * .25); margin: 0; }
.gw-projector .gw-room-game .gw-caption { margin: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.gw-projector .gw-proj-board { flex: 1 1 0; min-height: 0; line-height: 0; }
.gw-projector .gw-proj-board svg { width: 100%; height: auto; max-height: 100%; }
.gw-projector .gw-proj-more { display: flex; align-items: center; justify-content: center; text-align: center; }
.gw-projector .gw-poll { height: 100%; box-sizing: border-box; margin: 0 !important; box-shadow: none !important;
  border: 1px solid #d1d5db; }
.gw-projector .gw-poll > .v-card__text { height: 100%; box-sizing: border-box; padding: calc(var(--gw-t) * .4);
  display: grid; grid-template-columns: minmax(0, 1.25fr) minmax(0, 1fr); grid-template-rows: auto minmax(0, 1fr);
  gap: calc(var(--gw-t) * .3) var(--gw-t); align-items: start; }
.gw-projector .gw-poll > .v-card__text > * { grid-column: 2; min-width: 0; min-height: 0; }
.gw-projector .gw-poll .gw-poll-head { grid-column: 1 / -1; }
.gw-projector .gw-poll .gw-poll-head h2 { margin: 0; font-weight: 700; }
.gw-projector .gw-poll .gw-poll-board-big { grid-column: 1; grid-row: 2; }
.gw-projector .gw-poll .gw-poll-board-big .gw-root,
.gw-projector .gw-proj-replay .gw-root { flex-direction: column; flex-wrap: nowrap; gap: calc(var(--gw-t) * .3); }
/* the poll's board takes the height its side (status, players) leaves */
.gw-projector .gw-poll .gw-poll-board-big { align-self: stretch; height: 100%; }
.gw-projector .gw-poll-board-big :has(.gw-root) { height: 100%; }
.gw-projector .gw-poll-board-big .gw-root { height: 100%; padding: 0; }
.gw-projector .gw-poll-board-big .gw-board { flex: 0 1 auto; min-height: 0; }
.gw-projector .gw-poll-board-big .gw-side { flex: 0 0 auto; }
.gw-projector .gw-poll .gw-root .gw-svg { width: 100%; height: auto; max-width: 100%; max-height: 100%; }
.gw-projector .gw-message.is-empty { display: none; }
.gw-projector .gw-poll .gw-controls, .gw-projector .gw-poll .gw-history, .gw-projector .gw-poll .gw-hints,
.gw-projector .gw-poll .bf-own, .gw-projector .gw-poll .gw-events, .gw-projector .gw-proj-replay .gw-controls,
.gw-projector .gw-proj-replay .bf-own, .gw-projector .gw-proj-replay .gw-events { display: none !important; }
.gw-projector .gw-poll-table table, .gw-projector .gw-proj-standings table { border-collapse: collapse; }
.gw-projector .gw-poll-table th, .gw-projector .gw-poll-table td,
.gw-projector .gw-proj-standings th, .gw-projector .gw-proj-standings td {
  padding: calc(var(--gw-t) * .12) calc(var(--gw-t) * .4); border-bottom: 1px solid #d1d5db; text-align: left; }
.gw-projector .gw-proj-standings td.gw-num { text-align: right; font-variant-numeric: tabular-nums; }
.gw-projector .gw-poll-table caption, .gw-projector .gw-proj-standings caption { text-align: left;
  caption-side: top; font-weight: 600; padding-bottom: calc(var(--gw-t) * .2); }
.gw-projector .gw-projector-results { display: flex; flex-direction: column; gap: calc(var(--gw-t) * .4); }
.gw-projector .gw-projector-results img { max-width: 100%; height: auto; align-self: flex-start; }
.gw-projector .gw-proj-replay { height: 100%; display: flex; flex-direction: column; }
.gw-projector .gw-proj-replay h2 { margin: 0 0 calc(var(--gw-t) * .3); font-weight: 700; }
.gw-projector .gw-proj-replay .gw-root { flex-direction: row; align-items: flex-start; }
.gw-projector .gw-proj-replay .gw-board { flex: 1 1 0; min-width: 0; max-width: calc(100% - var(--gw-t) * 13); }
.gw-projector .gw-proj-replay .gw-side { flex: 0 0 calc(var(--gw-t) * 12); }
.gw-projector .gw-proj-replay .gw-root .gw-svg { width: 100%; height: auto;
  max-height: calc(100vh - var(--gw-t) * 10); }
.gw-projector .gw-proj-replay .gw-moves { max-height: calc(var(--gw-t) * 4); overflow: auto; }
/* a field's name in its corner would cover a cell at 24 px: the projector's boards show the fields' frames only */
.gw-projector .gw-svg .gw-region-label { display: none; }
/* -- a room's pages on a touch screen or a narrow window (a phone): controls of 44x44 CSS px at least,
   text of 14 px at least (issue 41); the notebook's widget keeps its look (these rules are the rooms' only) -- */
@media (pointer: coarse), (max-width: 600px) {
  .gw-rooms:not(.gw-projector) { --gw-min-label: 14px; }
  .gw-rooms:not(.gw-projector) .gw-root :not(svg, svg *) { font-size: 14px; }
  .gw-rooms:not(.gw-projector) .gw-root .gw-status { font-size: 17px; }
  .gw-rooms:not(.gw-projector) .gw-root .gw-status * { font-size: inherit; }
  .gw-rooms:not(.gw-projector) .gw-svg .gw-region-label { font-size: calc(14px / var(--gw-board-scale, 1)); }
  .gw-rooms:not(.gw-projector) .gw-root button, .gw-rooms:not(.gw-projector) .gw-root select,
  .gw-rooms:not(.gw-projector) .v-btn:not(.v-btn--icon) { min-height: 44px !important; min-width: 44px !important; }
  .gw-rooms:not(.gw-projector) .v-btn:not(.v-btn--icon) { height: auto !important; }
  .gw-rooms:not(.gw-projector) a { display: inline-flex; align-items: center; min-height: 44px; }
  .gw-rooms:not(.gw-projector) .gw-root .bf-card { min-width: 48px; padding-left: 4px; padding-right: 4px; }
  .gw-rooms:not(.gw-projector) .gw-root .bf-bar-row { flex-wrap: wrap; }
}
"""
#: the watcher's script (:class:`ConnectionWatch`): says the connection is lost, reloads once the server answers
_WATCH_ESM = r"""
function render({ el }) {
  // Solara's page forbids zooming (user-scalable=no): a phone must be able to pinch-zoom (WCAG 1.4.4)
  const meta = document.querySelector('meta[name="viewport"]');
  if (meta) meta.setAttribute("content", "width=device-width, initial-scale=1");
  // the page's language, for screen readers' voices (WCAG 3.1.1)
  if (!document.documentElement.lang) document.documentElement.lang = "en";
  // Enter in the join form joins, as in any form (the Join button, when it may)
  const onKey = (ev) => {
    if (ev.key !== "Enter" || ev.isComposing) return;
    const field = ev.target && ev.target.closest &&
      ev.target.closest(".gw-join-name, .gw-join-code, .gw-join-id, .gw-reclaim-code");
    const join = field && document.querySelector(".gw-join, .gw-reclaim");
    if (join && !join.disabled) { ev.preventDefault(); join.click(); }
  };
  document.addEventListener("keydown", onKey);
  // Solara's router resolves an address starting with / against the site's root, not against the pages' root
  // path (a hub service's prefix): "/?room=X" would leave the service (a reload, or the check after a restart,
  // would then ask the hub for /?room=X). The prefix is put back as the address changes
  const keepRoot = () => {
    const root = window.solara && window.solara.rootPath;
    const path = location.pathname;
    if (root && path !== root && !path.startsWith(root + "/"))
      history.replaceState(history.state, "", root + path + location.search + location.hash);
  };
  window.addEventListener("solara.router", keepRoot);
  // a button pressed shows it at once (before the server answers): dimmed, outlined, a spinner, aria-busy;
  // cleared when the server's answer changes the page (or after 5 s without one). While it is pressed, a
  // second click on it (a double click) is not sent: the server hears one action
  let pressed = null, pressedAt = 0, pressedText = "", settle = null;
  const unpress = () => {
    if (!pressed) return;
    seen.disconnect();
    pressed.classList.remove("gw-pressed"); pressed.removeAttribute("aria-busy"); pressed = null;
  };
  // marked at the click (after the release), never at the press: nothing of ours changes the page between
  // the press and the release, which would make the browser drop the click
  const onClick = (ev) => {
    const btn = ev.target && ev.target.closest && ev.target.closest(".gw-rooms .v-btn");
    if (!btn || btn.disabled || btn.classList.contains("v-btn--disabled")) return;
    // a double click (the same button, saying the same, within a second) is sent once; a button the page
    // redrew in place as another (Rename becoming Save) is a new button
    if (btn === pressed && btn.textContent === pressedText && performance.now() - pressedAt < 1000) {
      ev.stopImmediatePropagation(); ev.preventDefault(); return;
    }
    unpress();
    pressed = btn; pressedAt = performance.now(); pressedText = btn.textContent;
    btn.classList.add("gw-pressed"); btn.setAttribute("aria-busy", "true");
    // the page is watched only while a button is pressed (a phone's board animates unwatched)
    seen.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  };
  document.addEventListener("click", onClick, true);
  // not the server's answer: our own marks, the button's ripple, the other games' cards (moved on by the students)
  const noise = (r) => {
    const t = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    if (!t) return true;
    if (t === pressed && r.type === "attributes" && (r.attributeName === "class" || r.attributeName === "aria-busy"))
      return true;
    if (t.closest(".v-ripple__container, .gw-reconnect")) return true;
    const card = t.closest(".gw-room-game");
    if (card && !card.contains(pressed)) return true;
    const nodes = [...r.addedNodes, ...r.removedNodes];
    return nodes.length > 0 && nodes.every((n) => n.nodeType === 1 && n.classList.contains("v-ripple__container"));
  };
  const seen = new MutationObserver((records) => {
    if (!pressed || !records.some((r) => !noise(r))) return;
    clearTimeout(settle);
    settle = setTimeout(unpress, 80);  // the answer's redraw done
  });
  const giveUp = setInterval(() => { if (pressed && performance.now() - pressedAt > 5000) unpress(); }, 1000);
  const bar = document.createElement("div");
  bar.className = "gw-reconnect";
  bar.setAttribute("role", "status");
  bar.setAttribute("aria-live", "assertive");
  bar.hidden = true;
  bar.style.cssText = "position:fixed;top:0;left:0;right:0;z-index:100010;padding:14px 18px;font:600 18px/1.4 " +
    "system-ui,sans-serif;background:#fde68a;color:#111827;border-bottom:3px solid #b45309;text-align:center;";
  document.body.appendChild(bar);
  el.dataset.gwWatch = "on";
  // the watcher takes no room on the page (the projector's page is exactly the screen's height): its box
  // in the page's column is not displayed (the banner is the body's)
  const hide = () => {  // (once the page has put the watcher in its place)
    let box = el;
    const column = (e) => !e || e === document.body || e.classList.contains("v-sheet");
    while (!column(box.parentElement)) box = box.parentElement;
    if (!box.parentElement || box.parentElement === document.body) return false;
    if (box.style.display !== "none") box.style.display = "none";
    return true;
  };
  const place = () => { if (!hide()) requestAnimationFrame(place); };
  place();
  let lostAt = null, asking = false;
  const state = () => {
    const s = window.solara && window.solara.debug && window.solara.debug.connectionStatus;
    return typeof s === "string" ? s : "connected";
  };
  const tick = async () => {
    hide();
    if (state() === "connected") { lostAt = null; bar.hidden = true; return; }
    if (lostAt === null) lostAt = Date.now();
    const secs = Math.round((Date.now() - lostAt) / 1000);
    bar.hidden = false;
    bar.textContent = "The connection to the class was lost: trying again (" + secs + " s). " +
      "Your seat and your game are kept on the server; this page comes back by itself.";
    if (Date.now() - lostAt < 3000 || asking) return;
    asking = true;
    try {
      const r = await fetch(location.pathname + "?alive=" + Date.now(),
        { cache: "no-store", credentials: "same-origin" });
      if (r.ok) { bar.textContent = "The class is back: reloading this page..."; location.reload(); }
    } catch (e) { /* the server is not back yet */ } finally { asking = false; }
  };
  const timer = setInterval(tick, 1000);
  return () => {
    clearInterval(timer); clearInterval(giveUp); seen.disconnect(); bar.remove();
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("solara.router", keepRoot);
    document.removeEventListener("click", onClick, true);
  };
}
export default { render };
"""


class ConnectionWatch(anywidget.AnyWidget):
    """Every page's watcher of its connection to the server: while it is lost,
    a banner says so (and that the seat and game are kept); once the server
    answers again and the connection has not come back by itself, the page
    reloads and draws everything as it stands. It also lets a phone zoom the
    page (Solara's template forbids it), and keeps the address under the
    pages' root path (a hub service's prefix) when the page's router changes
    it (Solara's resolves ``/?room=X`` against the site's root)."""

    _esm = _WATCH_ESM
    kind = traitlets.Unicode("watch").tag(sync=True)

    def set_state(self, sync_data: Any) -> None:
        """A page sets nothing here."""


#: the seat keeper's script (:class:`SeatKeeper`): posts the page's seat to ``/seat`` for the device's cookie
_SEAT_ESM = r"""
function render({ model, el }) {
  const keep = async () => {
    const body = new URLSearchParams({ room: model.get("room"), seat: model.get("seat") });
    try {
      const r = await fetch(model.get("url"), { method: "POST", body, credentials: "same-origin", cache: "no-store" });
      el.dataset.gwSeatKept = r.ok ? "yes" : "no";
    } catch (e) { el.dataset.gwSeatKept = "no"; }
  };
  keep();
}
export default { render };
"""


class SeatKeeper(anywidget.AnyWidget):
    """On a seated student's page: posts the seat to the server's ``/seat``,
    which answers with the device's HTTP-only seat cookie for this room
    (:data:`~gridwidgets.rooms.server.SEAT_COOKIE`), so that opening the
    room's address again on this device lands in this seat. Shows nothing."""

    _esm = _SEAT_ESM
    url = traitlets.Unicode("/seat").tag(sync=True)
    room = traitlets.Unicode("").tag(sync=True)
    seat = traitlets.Unicode("").tag(sync=True)

    def set_state(self, sync_data: Any) -> None:
        """A page sets nothing here."""


def _p(inner_html: str, cls: str = "") -> None:
    """A paragraph of our own HTML (names in it escaped by the caller): no
    Markdown, whose renderer would fetch KaTeX from a CDN."""
    solara.HTML(tag="p", unsafe_innerHTML=inner_html, classes=[cls] if cls else [])


def _query(router: Any) -> dict[str, str]:
    raw = router.search or ""
    if not isinstance(raw, str) or len(raw) > 400:
        return {}
    try:
        return {k: v[0][:64] for k, v in parse_qs(raw, max_num_fields=8).items() if v}
    except ValueError:
        return {}


def use_changes(changes: Changes, get: Callable[[], Any], min_redraw: float = 0.0) -> Any:
    """Re-render when ``get()`` changes (compared with ``!=``), as soon as the
    room pushes a change: a thread of the page waits on ``changes`` (a room's
    :attr:`~gridwidgets.rooms.Room.changes`, or every room's
    :attr:`~gridwidgets.rooms.Rooms.changes`), reads ``get()`` once woken,
    and stops when the page goes (it looks every :data:`STOP_CHECK` seconds).
    ``min_redraw``: the least seconds between two redraws (a burst of changes
    is drawn at once, then at most that often). Nothing here holds a lock of
    the room: waiting holds up no change."""
    version, set_version = solara.use_state(get())

    def follow(cancel: threading.Event) -> None:
        seen, last, drawn = changes.count, version, 0.0
        while not cancel.is_set():
            try:
                now = get()
            except Exception:
                _log("a page's look at its room failed")
                now = last
            if now != last:
                last = now
                set_version(now)
                drawn = time.monotonic()
            count = changes.wait(seen, STOP_CHECK)
            if count == seen:
                continue
            seen = count
            gap = min_redraw - (time.monotonic() - drawn)
            if gap > 0 and cancel.wait(gap):
                return
            seen = changes.count  # the changes of the gap are in the look that follows

    solara.use_thread(follow, dependencies=[changes], intrusive_cancel=False)
    return version


def _rooms_version(rooms: Rooms) -> tuple[Any, ...]:
    return (rooms.ended, *(r.version for r in rooms.rooms()))


def _this_page() -> Any:
    """What the server saw of this page's connection (its address, its teacher session)."""
    try:
        return page_info(solara.get_kernel_id())
    except Exception:
        return None


def _hub_user() -> Any:
    """The hub user of this page (:class:`~gridwidgets.rooms.hub.HubUser`), under a hub; else None."""
    info = _this_page()
    return info.hub_user if info is not None else None


def _teacher_session() -> str | None:
    info = _this_page()
    return info.teacher_session if info is not None else None


def _names(names: list[str]) -> str:
    """Display names, escaped, each in a span that cannot spill over the page."""
    return ", ".join(f"<span class='gw-name'>{escape(n)}</span>" for n in names)


def _qr_svg(url: str) -> str:
    import segno

    return str(segno.make(url, error="m").svg_inline(scale=6, dark="#111827", light="#ffffff",
                                                      title="QR code of the students' address"))


def _join_url(room: Room) -> str:
    base = students_address() or "/"
    return f"{base}?room={quote(room.code)}"


# -- the student's page ----------------------------------------------------------------------
@solara.component
def StudentPage() -> None:
    router = solara.use_router()
    query = _query(router)
    rooms = current_rooms()
    code, token = query.get("room", ""), query.get("seat", "")
    if hub_mode():  # the seat is the hub user's: no name to type, no seat in the address
        solara.Style(_CSS)
        with solara.Column(classes=["gw-rooms"]):
            HubStudent(code)
        return
    try:
        room = rooms.room(code) if code else None
    except RoomError:
        room = None
    asked = bool(token)  # a seat in the address (else: the seat this device keeps in that room, if any)
    if room is not None and not token:
        info = _this_page()
        token = info.seats.get(room.code, "") if info is not None and info.seats else ""
    solara.Style(_CSS)
    with solara.Column(classes=["gw-rooms"]):
        if room is not None and token in room.seats:
            SeatView(room, token)
        elif room is not None and token in room.former:
            JoinForm(code, note="The teacher took this seat out of the room. Join again if the teacher asks you to.")
        else:
            JoinForm(code, note="This page's seat is not known in that room: join again with your name."
                     if asked else "")


def _reload_hub_roster(rooms: Rooms) -> str:
    """The class list read again from the hub (:func:`~gridwidgets.rooms.hub.load_hub_roster`);
    returns what was loaded, or why not (the list unchanged)."""
    from .hub import load_hub_roster
    from .server import hub_settings

    settings = hub_settings()
    if settings is None:
        return "This server does not run under a hub."
    try:
        return "Loaded: " + load_hub_roster(rooms, settings) + "."
    except (PermissionError, LookupError, OSError, ValueError) as exc:
        return f"The hub's users could not be read: {str(exc)[:160]}"


@solara.component
def HubStudent(code: str) -> None:
    """A student's page under a hub: the room (the one in the address, the
    one the user has a seat in, the only open one, or the one picked by its
    code or from the list), and in it the hub user's seat,
    found (:meth:`Room.seat_of_student`) or made (:meth:`Room.join`, with the
    hub user name as display name and student id) as the page opens: the
    same user on any device lands in the same seat."""
    router = solara.use_router()
    rooms = current_rooms()
    user = _hub_user()
    use_changes(rooms.changes, lambda: tuple(r.code for r in rooms.rooms() if not r.closed))
    typed, set_typed = solara.use_state(code)
    error, set_error = solara.use_state("")
    open_rooms = [r for r in rooms.rooms() if not r.closed]
    seated = [r for r in open_rooms if user is not None and r.seat_of_student(user.name) is not None]
    try:  # no code: the room the user has a seat in, or the only open room; else the user picks
        room = (rooms.room(code) if code else seated[0] if len(seated) == 1
                else open_rooms[0] if len(open_rooms) == 1 and not seated else None)
    except RoomError:
        room = None

    def seat_me() -> tuple[str, str]:
        if room is None or user is None:
            return "", ""
        with room.lock:  # one seat, even when two devices of the user open at once
            seat = room.seat_of_student(user.name)
            if seat is not None:
                return seat.token, ""
            if any(s.student_id == user.name for s in room.former.values()):
                return "", "The teacher took your seat out of this room. Ask the teacher if you should be in it."
            if room.closed:
                return "", "This room is closed: the class has ended."
            listed = rooms.class_list
            if listed.source == "hub" and listed.by_id(user.name) is None:
                _reload_hub_roster(rooms)  # a user the hub has had since the list was read
            try:
                return room.join(user.name, student_id=user.name).token, ""
            except (RoomError, ValueError) as exc:
                return "", str(exc)

    tried, set_tried = solara.use_state(0)
    token, problem = solara.use_memo(seat_me, [room.code if room is not None else "", user, tried])

    def keep_the_room_in_the_address() -> None:
        # a page opened at the bare address names its room once seated: a reload, or the page coming back
        # after a restart of the service, opens this room even once the user has seats in several
        if not code and room is not None and token and token in room.seats:
            router.push(f"/?room={quote(room.code)}")

    solara.use_effect(keep_the_room_in_the_address, [code, room.code if room is not None else "", token])
    if user is None:
        solara.Error("This page has no hub login: reload it.", classes=["gw-join-error"])
        return
    if room is not None and token in room.seats:
        SeatView(room, token)
        return
    solara.Title("Join a room")
    solara.HTML(tag="h1", unsafe_innerHTML="Join your class's room")
    _p(f"Logged in to the hub as <b class='gw-hub-user gw-names'>{escape(user.name)}</b>.", "gw-room-note")
    if room is not None:
        solara.Error(problem or "You could not be seated in this room.", classes=["gw-join-error"])
        solara.Button("Try again", on_click=lambda: set_tried(tried + 1), outlined=True, classes=["gw-try-again"])
        return
    if code:
        solara.Warning(f"There is no open room {code!r}: check the code your teacher shows.", classes=["gw-stale"])
    if not open_rooms:
        solara.Info("No room is open yet: this page shows it as soon as the teacher opens one.",
                    classes=["gw-waiting"])
        return
    _p("Pick your class's room (your teacher shows its code):")
    with solara.Row(style={"gap": "12px", "flex-wrap": "wrap"}):
        for r in open_rooms:
            mine = r.seat_of_student(user.name) is not None
            solara.Button(f"Room {r.code}" + (" (your seat)" if mine else ""), color="primary", outlined=not mine,
                          classes=["gw-pick-room"], on_click=lambda r=r: router.push(f"/?room={quote(r.code)}"))

    def go() -> None:
        try:
            picked = rooms.room(typed)
        except RoomError as exc:
            set_error(str(exc))
            return
        router.push(f"/?room={quote(picked.code)}")

    solara.InputText("Room code", value=typed, on_value=set_typed, continuous_update=True, classes=["gw-join-code"])
    solara.Button("Join", on_click=_safe(go, set_error), color="primary", classes=["gw-join"],
                  disabled=not typed.strip())
    if error:
        solara.Error(error, classes=["gw-join-error"])


def _kept_seats(rooms: Rooms) -> list[tuple[Room, str]]:
    """The seats this device keeps (its seat cookies) in open rooms: ``(room, token)``, newest room first."""
    info = _this_page()
    kept = []
    for code, token in (info.seats.items() if info is not None and info.seats else ()):
        try:
            room = rooms.room(code)
        except RoomError:
            continue
        if token in room.seats and not room.closed:
            kept.append((room, token))
    order = {r.code: k for k, r in enumerate(rooms.rooms())}
    return sorted(kept, key=lambda rt: -order.get(rt[0].code, 0))


@solara.component
def JoinForm(code: str, note: str = "") -> None:
    router = solara.use_router()
    rooms = current_rooms()
    room_code, set_room_code = solara.use_state(code)
    name, set_name = solara.use_state("")
    student_id, set_student_id = solara.use_state("")
    error, set_error = solara.use_state("")
    reclaiming, set_reclaiming = solara.use_state(False)
    picked, set_picked = solara.use_state("")  # the name picked from the class list
    typing, set_typing = solara.use_state(False)  # "my name is not on the list" (when the teacher allows it)
    kept = solara.use_memo(lambda: _kept_seats(rooms), [])

    if reclaiming:
        ReclaimForm(room_code, set_room_code, lambda: set_reclaiming(False))
        return

    listed = rooms.roster  # a class list: the student picks their name, no id is typed
    try:
        shown_room = rooms.room(room_code) if listed and room_code.strip() else None
    except RoomError:
        shown_room = None
    left = shown_room.roster_seated()[1] if shown_room is not None else list(listed)
    by_list = bool(listed) and not typing
    chosen = picked if by_list else name

    def join() -> None:
        info = _this_page()
        address = info.address if info is not None else None
        try:
            room = rooms.room(room_code)
            mine = [t for r, t in kept if r is room and t in r.seats
                    and look_alike(clean_name(chosen), [r.seats[t].name]) is not None]
            token = mine[0] if mine else room.join(chosen, address=address, limiter=rooms.join_allowed,
                                                   student_id="" if listed else student_id).token
        except (RoomError, ValueError) as exc:
            set_error(str(exc))
            return
        router.push(f"/?room={quote(room.code)}&seat={quote(token)}")

    solara.Title("Join a room")
    solara.HTML(tag="h1", unsafe_innerHTML="Join your class's room")
    if note:
        solara.Warning(note, classes=["gw-stale"])
    for room, token in kept[:3]:  # this device has a seat: back to it in one tap
        solara.Button(f"Back to your seat: {room.seats[token].name} in room {room.code}", color="primary",
                      outlined=True, classes=["gw-back-to-seat"],
                      on_click=lambda room=room, token=token: router.push(
                          f"/?room={quote(room.code)}&seat={quote(token)}"))
    if by_list:
        _p("Type the <b>room code</b> your teacher shows, then pick <b>your name</b> from the class list.")
    else:
        _p("Type the <b>room code</b> your teacher shows, and the name the class will see.")
    solara.InputText("Room code", value=room_code, on_value=set_room_code, continuous_update=True,
                     classes=["gw-join-code"])
    if by_list:
        RosterPick(left, picked, set_picked)
    else:
        solara.InputText("Your name", value=name, on_value=set_name, continuous_update=True,
                         classes=["gw-join-name"])
        if not listed:
            solara.InputText("Student id (optional: only your teacher sees it, for grades)", value=student_id,
                             on_value=set_student_id, continuous_update=True, classes=["gw-join-id"])
    with solara.Row(style={"gap": "12px", "flex-wrap": "wrap", "align-items": "center"}):
        solara.Button("Join", on_click=_safe(join, set_error), color="primary", classes=["gw-join"],
                      disabled=not (room_code.strip() and chosen.strip()))
        solara.Button("I have a seat code", on_click=lambda: set_reclaiming(True), outlined=True,
                      classes=["gw-have-code"])
        if listed and rooms.class_list.typed_joins:
            solara.Button("Pick my name from the list" if typing else "My name is not on the list", text=True,
                          on_click=lambda: set_typing(not typing), classes=["gw-not-listed"])
    if error:
        solara.Error(error, classes=["gw-join-error"])


@solara.component
def RosterPick(names: list[Any], picked: str, on_pick: Callable[[str], None]) -> None:
    """The class list's names not seated yet in the room, one button each (the
    one picked pressed); a filter above a long list. No id is on the page."""
    typed, set_typed = solara.use_state("")
    shown = [e.name for e in names]
    if len(shown) > 12:
        solara.InputText("Find your name", value=typed, on_value=set_typed, continuous_update=True,
                         classes=["gw-roster-find"])
        key = typed.strip().casefold()
        shown = [n for n in shown if key in n.casefold()] if key else shown
    _p("Your name (a name already seated is not listed: if you joined before, use your seat code):",
       "gw-roster-label")
    if not shown:
        _p("No name to pick here: ask your teacher.", "gw-roster-none")
    with solara.Div(classes=["gw-roster-names", "gw-names"], attributes={"role": "group",
                                                                          "aria-label": "your name"}):
        for n in shown:
            solara.Button(n, on_click=lambda n=n: on_pick(n), color="primary" if n == picked else None,
                          outlined=n != picked, classes=["gw-roster-name"],
                          attributes={"aria-pressed": "true" if n == picked else "false"})


@solara.component
def ReclaimForm(room_code: str, set_room_code: Any, on_back: Any) -> None:
    """Another device: the room code and the seat code the student was given at
    joining (or the teacher reads out) bring back the same seat (:meth:`Room.reclaim`)."""
    router = solara.use_router()
    rooms = current_rooms()
    seat_code, set_seat_code = solara.use_state("")
    error, set_error = solara.use_state("")

    def reclaim() -> None:
        info = _this_page()
        address = info.address if info is not None else None
        try:
            room = rooms.room(room_code)
            seat = room.reclaim(seat_code, address=address, limiter=rooms.join_allowed)
        except (RoomError, ValueError) as exc:
            set_error(str(exc))
            return
        router.push(f"/?room={quote(room.code)}&seat={quote(seat.token)}")

    solara.Title("Get your seat back")
    solara.HTML(tag="h1", unsafe_innerHTML="Get your seat back")
    _p("Type the <b>room code</b> and your <b>seat code</b> (you were shown it when you joined; your teacher can "
       "read it to you): you get the same seat, your game and your results.")
    solara.InputText("Room code", value=room_code, on_value=set_room_code, continuous_update=True,
                     classes=["gw-join-code"])
    solara.InputText("Seat code (like K7Q-4M)", value=seat_code, on_value=set_seat_code, continuous_update=True,
                     classes=["gw-reclaim-code"])
    with solara.Row(style={"gap": "12px", "flex-wrap": "wrap", "align-items": "center"}):
        solara.Button("Get my seat back", on_click=_safe(reclaim, set_error), color="primary",
                      classes=["gw-reclaim"], disabled=not (room_code.strip() and seat_code.strip()))
        solara.Button("Join with a name instead", on_click=on_back, text=True, classes=["gw-join-instead"])
    if error:
        solara.Error(error, classes=["gw-join-error"])


def _seat_key(room: Room, token: str) -> tuple[Any, ...]:
    """What a student's page shows besides its board (which follows its game by
    itself): a page redraws only when this changes, never for a move elsewhere
    in the room (a redraw would cost a half-picked choice)."""
    seat = room.seats.get(token)
    poll, assignment = room.poll, room.assignment
    base = (room.paused, room.closed, room.round, seat.name if seat else None,
            (poll.id, poll.state) if poll is not None else None, assignment.id if assignment is not None else None)
    try:
        rg, p = room.game_of(token)
    except RoomError:
        return (*base, None)
    return (*base, rg.id, p in rg.handed, rg.game.is_over, bool(rg.game.steps), tuple(room.undo_asked(rg.id)),
            tuple(room.name_of(t) for t in rg.players))


@solara.component
def SeatView(room: Room, token: str) -> None:
    key = use_changes(room.changes, lambda: _seat_key(room, token))
    # the device keeps this seat (its cookie): the room's address brings it back here
    hub = hub_mode()  # under a hub the seat is the hub user's (any device): no cookie, no seat code
    keeper = solara.use_memo(lambda: None if hub else SeatKeeper(url=root_path() + "/seat", room=room.code,
                                                                    seat=token), [room.code, token])
    solara.use_effect(lambda: keeper.close if keeper is not None else None, [keeper])
    seat = room.seats.get(token)
    if seat is None:  # removed while the page was open
        _p("The teacher took this seat out of the room.", "gw-removed")
        return
    try:
        rg, player = room.game_of(token)
    except RoomError:
        rg, player = None, -1
    if keeper is not None:
        solara.display(keeper)
    solara.Title(f"{seat.name}, room {room.code}")
    with solara.Row(style={"align-items": "baseline", "gap": "16px", "flex-wrap": "wrap"}):
        solara.HTML(tag="h1", unsafe_innerHTML=f"Room <span class='gw-room-code'>{room.code}</span>")
        number = room.seat_number(token)
        solara.Text(seat.name + (f" · seat {number}" if number is not None else "")
                    + (f" · round {room.round}" if room.round >= 1 else ""), classes=["gw-seat-name", "gw-names"])
    if hub:
        _p(f"Logged in to the hub as <b class='gw-hub-user'>{escape(seat.student_id)}</b>: this seat and its game "
           "are yours on any device where you log in.", "gw-room-note gw-names")
    elif seat.reclaim:
        _p(f"Your seat code: <b class='gw-seat-code'>{seat.reclaim_text}</b> · keep it to come back from another "
           f"device. <a href='{root_path()}/seat/forget?room={quote(room.code)}' class='gw-forget-seat'>Not "
           f"{escape(seat.name)}? Join as someone else</a>", "gw-room-note gw-names")
    poll, assignment = room.poll, room.assignment
    if poll is not None and not room.closed:
        activities.PollSeat(room, poll, token, poll.state)
        return
    if assignment is not None and not room.closed:
        activities.ExerciseSeat(room, assignment, token)
        return
    if room.closed:
        solara.Success("The class has ended: thank you for playing! Your games are kept for your teacher.",
                       classes=["gw-closed"])
    elif room.paused:
        solara.Warning("The teacher has paused the room: moves are refused until the teacher resumes it.",
                       classes=["gw-paused"])
    if rg is None:
        if not room.closed:
            waiting = ("Waiting for the teacher to start the round." if room.pairing in ROUND_PAIRINGS
                       else "Waiting for an opponent to join…")
            solara.Info(waiting, classes=["gw-waiting"])
        return
    if player in rg.handed:
        solara.Info("The agent plays your seat now (the teacher's choice); the game goes on.", classes=["gw-handed"])
    opponents = [room.player_name(rg, p) for p in range(len(rg.players)) if p != player]
    _p(f"You play <b>{escape(rg.game.player_label(player))}</b> against {_names(opponents)}.", "gw-you-play")
    # keyed: a banner shown or hidden above it (paused, handed) does not make the board anew
    SeatBoard(room, rg, player, player in rg.handed).key(f"board-{rg.id}")
    UndoRow(room, rg, token, key).key(f"undo-{rg.id}")


@solara.component
def SeatBoard(room: Room, rg: RoomGame, player: int, handed: bool) -> None:
    board = solara.use_memo(lambda: room_board(room, rg, player, fit="screen"), [rg.id, player, handed])

    def close() -> Any:
        return board.close

    solara.use_effect(close, [board])
    solara.display(board)


@solara.component
def UndoRow(room: Room, rg: RoomGame, token: str, key: Any) -> None:
    """Ask to undo; ``key`` (what the page shows, :func:`_seat_key`) redraws it
    (a component redraws only when its arguments change)."""
    message, set_message = solara.use_state("")
    asked = room.undo_asked(rg.id)

    def ask() -> None:
        done = room.ask_undo(token)
        set_message("Undone." if done else "Asked: the move is taken back once your opponent asks too.")

    others = [room.name_of(t) for t in asked if t != token]
    p = rg.player_of(token)
    with solara.Row(style={"align-items": "center", "gap": "12px"}):
        solara.Button("Ask to undo", on_click=_safe(ask, set_message), outlined=True, classes=["gw-ask-undo"],
                      disabled=rg.game.is_over or len(rg.game.steps) == 0 or room.closed or p in rg.handed)
        if others:
            solara.Text(f"{', '.join(others)} asks to undo the last move.", classes=["gw-undo-asked", "gw-names"])
        elif message:
            solara.Text(message, classes=["gw-undo-message"])
        elif len(rg.students()) > 1:
            solara.Text("Undo needs both players (or the teacher).", classes=["gw-room-note"])


# -- the teacher's page ------------------------------------------------------------------------
@solara.component
def TeacherPage() -> None:
    router = solara.use_router()
    query = _query(router)
    rooms = current_rooms()
    session = _teacher_session()
    ended_here, set_ended_here = solara.use_state(list[Room]())
    solara.Style(_CSS)
    with solara.Column(classes=["gw-rooms"]):
        solara.Title("Teacher: rooms")
        if ended_here:
            ClassEnded(ended_here)
            return
        try:
            rooms.teacher_key(session)
        except RoomError:
            NotTeacher(rooms, refused="refused" in query)
            return
        TeacherView(rooms, session or "", set_ended_here)


@solara.component
def NotTeacher(rooms: Rooms, refused: bool) -> None:
    if rooms.ended is None and hub_mode():
        text = ("This page is the teacher's: log in to the hub as a teacher (a member of the teachers' hub group, "
                "or a hub admin).")
    elif rooms.ended is not None:
        text = ("The class has ended: its rooms are closed. Its games and results stay in the server's database "
                "file; for a new lesson, start the server with another --db.")
    elif refused:
        text = ("That teacher address is not valid (any more): open the address the server printed when it "
                "started; a server started with --new-teacher-token prints a new one.")
    else:
        text = "This page is the teacher's: open the teacher's address the server printed, in this browser."
    solara.HTML(tag="h1", unsafe_innerHTML="The teacher's page")
    solara.Error(text, classes=["gw-not-teacher"])


@solara.component
def TeacherView(rooms: Rooms, session: str, on_end: Any) -> None:
    version = use_changes(rooms.changes, lambda: _rooms_version(rooms), MIN_REDRAW)
    all_rooms = rooms.rooms()
    selected, set_selected = solara.use_state(all_rooms[-1].code if all_rooms else "")
    confirm_end, set_confirm_end = solara.use_state(False)
    error, set_error = solara.use_state("")

    def key() -> str:
        return rooms.teacher_key(session)

    def end_class() -> None:
        ended = rooms.rooms()
        rooms.end_class(key())
        on_end(ended)

    solara.HTML(tag="h1", unsafe_innerHTML="The class's rooms")
    address = students_address()
    with solara.Row(style={"align-items": "center", "gap": "16px", "flex-wrap": "wrap"}):
        _p(f"Students open <b class='gw-address-inline'>{escape(address)}</b>", "gw-students-address")
        solara.HTML(tag="a", unsafe_innerHTML="Open the projector view (no controls)",
                    attributes={"href": root_path() + "/projector", "target": "_blank", "rel": "noopener"},
                    classes=["gw-link", "gw-projector-link"])
        if not confirm_end:
            solara.Button("End class", on_click=lambda: set_confirm_end(True), color="error", outlined=True,
                          classes=["gw-end-class"])
    if confirm_end:
        with solara.Card("End the class?", classes=["gw-confirm-end"]):
            _p("Every room closes: students can no longer join or move, and this teacher address stops working. "
               "The games and results stay in the database file, and you can download them next.")
            with solara.Row(style={"gap": "12px"}):
                solara.Button("End the class now", on_click=_safe(end_class, set_error), color="error",
                              classes=["gw-end-class-confirm"])
                solara.Button("Keep the class going", on_click=lambda: set_confirm_end(False), outlined=True)
    if error:
        solara.Error(error)
    if all_rooms:
        codes = [r.code for r in all_rooms]
        if len(codes) > 1:
            solara.ToggleButtonsSingle(value=selected if selected in codes else codes[-1], values=codes,
                                       on_value=set_selected, classes=["gw-room-tabs"])
        room = rooms.room(selected if selected in codes else codes[-1])
        RoomPanel(room, key, rooms, version)
    else:
        room = None
        solara.Info("No room yet: open one below.")
    ClassListPanel(rooms, room, key, version)
    OpenRoom(rooms, key, set_selected, start_open=not all_rooms)


@solara.component
def ClassListPanel(rooms: Rooms, room: Room | None, key: Callable[[], str], version: Any) -> None:
    """The class list (:attr:`Rooms.roster`): who of it is seated in ``room``
    and who is not, by name (no id is on any page); load one (a CSV file pasted
    or dropped: :meth:`Rooms.import_roster`, its errors shown here), remove it,
    and allow or not the names that are not on it."""
    shown, set_shown = solara.use_state(False)
    text, set_text = solara.use_state("")
    pasted = solara.use_ref("")  # the text as last typed: a click that follows the typing at once loads it all
    said, set_said = solara.use_state("")
    error, set_error = solara.use_state("")
    listed = rooms.roster

    def paste(value: str) -> None:
        pasted.current = value
        set_text(value)

    def load(csv_text: str) -> None:
        key()
        read = rooms.import_roster(csv_text)
        set_error("")
        paste("")
        set_said(f"Loaded: {read.summary()}.")

    def remove() -> None:
        key()
        rooms.set_roster(())
        set_said("The class list is removed: students type their names again.")

    def typed(on: bool) -> None:
        _safe(lambda: (key(), rooms.set_typed_joins(bool(on))), set_error)()

    with solara.Card(classes=["gw-roster"]):
        with solara.Row(style={"align-items": "center", "gap": "12px", "flex-wrap": "wrap"}):
            if listed:
                seated, waiting = room.roster_seated() if room is not None else ([], list(listed))
                where = f" in room {room.code}" if room is not None else ""
                from_ = "the hub's users" if rooms.roster_source == "hub" else "a file"
                solara.HTML(tag="span", unsafe_innerHTML=f"<b>Class list</b> ({from_}): {len(listed)} students · "
                            f"{len(seated)} seated{where} · {len(waiting)} not yet", classes=["gw-roster-count"])
            else:
                solara.HTML(tag="span", unsafe_innerHTML="<b>No class list</b>: students type their names.",
                            classes=["gw-roster-count"])
            solara.Button("Hide the class list" if shown else ("Class list…" if listed else "Load a class list…"),
                          text=True, on_click=lambda: set_shown(not shown), classes=["gw-roster-toggle"],
                          attributes={"aria-expanded": "true" if shown else "false"})
        if said:
            solara.HTML(tag="p", unsafe_innerHTML=escape(said), classes=["gw-roster-said"],
                        attributes={"role": "status"})
        if not shown:
            return
        if listed:
            seated, waiting = room.roster_seated() if room is not None else ([], list(listed))
            _p("<b>Seated:</b> " + (_names([e.name for e in seated]) or "nobody yet"),
               "gw-roster-seated gw-names")
            _p("<b>Not seated yet:</b> " + (_names([e.name for e in waiting]) or "nobody"),
               "gw-roster-waiting gw-names")
            allowed = rooms.class_list.typed_joins
            solara.Switch(label="Students not on the list may type their name: "
                          + ("on (their seat has no id)" if allowed else "off"), value=allowed, on_value=typed,
                          classes=["gw-roster-typed"])
        _p("A CSV file: Moodle's user or participants export, Canvas's gradebook export, or two columns, "
           "name and id (docs: Class list). Loading one replaces the list.")
        with solara.Div(classes=["gw-roster-file"]):
            solara.InputTextArea("Paste the class list (CSV)", value=text, on_value=paste,
                                 continuous_update=True, rows=3)
        with solara.Row(style={"gap": "12px", "flex-wrap": "wrap", "align-items": "center"}):
            if hub_mode():
                solara.Button("Read the hub's users again", outlined=True, classes=["gw-roster-hub"],
                              on_click=_safe(lambda: (key(), set_said(_reload_hub_roster(rooms))), set_error))
            solara.Button("Load this class list", on_click=_safe(lambda: load(pasted.current), set_error),
                          outlined=True,
                          disabled=not text.strip(), classes=["gw-roster-load"])
            if listed:
                solara.Button("Remove the class list", on_click=_safe(remove, set_error), text=True,
                              classes=["gw-roster-remove"])
        solara.FileDrop("…or drop the CSV file here",
                        on_file=lambda f: _safe(lambda: load(activities.read_dropped(f)), set_error)())
        if error:
            solara.Error(error, classes=["gw-roster-error"])


@solara.component
def OpenRoom(rooms: Rooms, key: Callable[[], str], on_open: Any, start_open: bool = False) -> None:
    """Another room (another game, board or pairing): behind a button, the room
    the server opened being the one a lesson mostly needs."""
    shown, set_shown = solara.use_state(start_open)
    menu = games_menu()
    game, set_game = solara.use_state(next(iter(menu)))
    boards = list(menu[game].boards)
    board, set_board = solara.use_state(boards[0])
    pairing, set_pairing = solara.use_state(PAIRINGS[0])
    agent, set_agent = solara.use_state(next(iter(AGENTS)))
    error, set_error = solara.use_state("")

    def pick_game(value: str) -> None:
        set_game(value)
        set_board(next(iter(menu[value].boards)))

    def open_room() -> None:
        room = rooms.create(game, board if board in menu[game].boards else None, pairing=pairing, agent=agent,
                            teacher_token=key())
        set_error("")
        set_shown(False)
        on_open(room.code)

    if not shown:
        solara.Button("Open another room", on_click=lambda: set_shown(True), outlined=True,
                      classes=["gw-open-toggle"], attributes={"aria-expanded": "false"})
        return
    with solara.Card("Open a room", classes=["gw-open-room"]):
        Choice("Game", game, {k: c.label for k, c in menu.items()}, pick_game, "gw-pick-game")
        Choice("Board", board if board in boards else boards[0], {k: menu[game].boards[k].label for k in boards},
               set_board, "gw-pick-board")
        Choice("Pairing", pairing, PAIRING_LABELS, set_pairing, "gw-pick-pairing")
        Choice("Agent (the odd one out, or every seat)", agent, {k: a.label for k, a in AGENTS.items()}, set_agent,
               "gw-pick-agent")
        with solara.Row(style={"gap": "12px"}):
            solara.Button("Open room", on_click=_safe(open_room, set_error), color="primary", classes=["gw-open"])
            solara.Button("Cancel", on_click=lambda: set_shown(False), text=True)
        if error:
            solara.Error(error)


@solara.component
def Choice(label: str, value: str, options: dict[str, str], on_value: Any, cls: str) -> None:
    """One choice of a few, as a row of buttons (one pressed) under its label:
    readable on a projector, one click, and plain buttons for a screen reader."""
    labels = list(options.values())
    keys = list(options)

    def pick(shown: str) -> None:
        on_value(keys[labels.index(shown)])

    with solara.Div(classes=["gw-choice", cls]):
        solara.HTML(tag="p", unsafe_innerHTML=escape(label), classes=["gw-choice-label"])
        solara.ToggleButtonsSingle(value=options.get(value, labels[0]), values=labels, on_value=pick,
                                   mandatory=True, dense=True)


#: boards with at least this many rows or columns get bigger cards (readable on a projector)
BIG_BOARD = 8


def _games_classes(room: Room) -> list[str]:
    """The classes of a room's games grid: bigger cards for a big board (9x9, 20x20)."""
    g = room.games[0].game if room.games else None
    return ["gw-room-games"] + (["gw-big-boards"] if g is not None and max(g.rows, g.cols) >= BIG_BOARD else [])


def _keep_picture(key: tuple[int, int], svg: str) -> str:
    """Keep ``svg`` in the pages' picture cache under ``key`` (the newest 400); return it."""
    with _PICTURES_LOCK:
        _PICTURES[key] = svg
        _PICTURES.move_to_end(key)
        while len(_PICTURES) > 400:
            _PICTURES.popitem(last=False)
    return svg


def _picture(rg: RoomGame) -> str:
    g = rg.game
    with g.lock:
        key = (rg.id, g.version)
        with _PICTURES_LOCK:
            svg = _PICTURES.get(key)
        if svg is None:
            svg = g.to_svg(size=240, panel="below")
    return _keep_picture(key, svg)


@solara.component
def RoomPanel(room: Room, key: Callable[[], str], rooms: Rooms, version: Any) -> None:
    """One room on the teacher's page; ``version`` (the rooms' versions) makes
    it redraw when anything in them changed."""
    replay, set_replay = solara.use_state(0)
    show_results, set_show_results = solara.use_state(False)
    asking, set_asking = solara.use_state(False)
    show_exercises, set_show_exercises = solara.use_state(False)
    error, set_error = solara.use_state("")
    menu = games_menu()
    games = [rg for rg in room.games if rg.round == room.round]
    with solara.Card(classes=["gw-room-panel"]):
        with solara.Row(style={"align-items": "center", "gap": "16px", "flex-wrap": "wrap"}):
            solara.HTML(tag="span", unsafe_innerHTML=room.code, classes=["gw-room-code"])
            over, total = room.round_progress()
            solara.Text(f"{menu[room.game_name].label}, {room.board} · {PAIRING_LABELS[room.pairing]} · "
                        + (f"round {room.round}" if room.round >= 1 else "no round started yet")
                        + (f" · {over} of {total} games over" if total else ""),
                        classes=["gw-round-progress"])
        if hub_mode():  # the hub logs them in; a code is only asked when several rooms are open
            several = sum(not r.closed for r in rooms.rooms()) > 1
            _p(f"Students open <b>{escape(students_address())}</b> and log in to the hub"
               + (f"; with several rooms open they pick <b>{room.code}</b>." if several else "."))
        else:
            _p(f"Students open <b>{escape(students_address())}</b> and type <b>{room.code}</b> (or scan the "
               "projector view's QR code).")
        with solara.Row(style={"gap": "12px", "flex-wrap": "wrap"}):
            # two states, two buttons (each sets its state: a second click changes nothing), and the one
            # that does nothing now disabled
            solara.Button("Pause", on_click=_safe(lambda: room.set_paused(key(), True), set_error),
                          color="warning", classes=["gw-pause"], disabled=room.paused or room.closed)
            solara.Button("Resume", on_click=_safe(lambda: room.set_paused(key(), False), set_error),
                          color="success", classes=["gw-resume"], disabled=not room.paused or room.closed)
            shown_round = room.round  # a second click on the round the page showed starts nothing more

            def next_round() -> None:
                if room.round == shown_round:
                    room.next_round(key())

            solara.Button("Next round", on_click=_safe(next_round, set_error),
                          classes=["gw-next-round"], disabled=not room.seats)
            solara.Button("Start the waiting with agents", on_click=_safe(lambda: room.fill_with_agents(key()),
                                                                          set_error),
                          classes=["gw-fill"], disabled=not room.waiting())
            solara.Button("Hide results" if show_results else "Results", on_click=lambda: set_show_results(
                not show_results), outlined=True, classes=["gw-show-results"])
            solara.Button("Ask the class…", on_click=lambda: set_asking(not asking), outlined=True,
                          classes=["gw-ask-class"], disabled=room.closed)
            solara.Button("Hide exercises" if show_exercises else "Exercises…", outlined=True,
                          on_click=lambda: set_show_exercises(not show_exercises), classes=["gw-show-exercises"])
        # each part that comes and goes has a key: a part shown or hidden (Pause's banner, a poll) moves
        # no other part, whose widgets would otherwise be made anew (the main cost of a teacher's click
        # with 30 games: some 300 widgets made for one banner). The cards keep their places (no key of
        # their own): a new round's cards take the widgets of the last round's, updated, not made anew
        # (a card holds no state)
        if error:
            solara.Error(error, classes=["gw-teacher-error"]).key("error")
        ProjectorNames(room, key, room.projector_names).key("projector-names")
        if asking:
            activities.AskClass(room, key, lambda: set_asking(False)).key("ask")
        if room.poll is not None:
            activities.PollPanel(room, room.poll, key, (version, room.poll.version)).key("poll")
        if show_exercises or room.assignment is not None:
            activities.ExercisePanel(room, key, version).key("exercises")
        if room.paused:
            solara.Warning("Paused: the students' moves are refused until you resume.",
                           classes=["gw-paused"]).key("paused")
        Seats(room, key, version).key("seats")
        with solara.Div(classes=_games_classes(room)).key("games"):
            for rg in games:
                GameCard(room, rg, key, set_replay, (rg.game.version, tuple(sorted(rg.handed))))
                if replay == rg.id:  # where the teacher is looking: right under the game's row
                    Replay(room, replay, set_replay, key, room.projected_replay == replay).key("replay")
        if replay and all(rg.id != replay for rg in games):
            Replay(room, replay, set_replay, key, room.projected_replay == replay).key("replay")
        if show_results:
            Results(room, rooms, version).key("results")


@solara.component
def ProjectorNames(room: Room, key: Callable[[], str], names: str) -> None:
    """The teacher's switch of who the projector names: off (the default),
    ``Seat 3``; on, the students' names (:meth:`Room.set_projector_names`)."""
    error, set_error = solara.use_state("")

    def turn(on: bool) -> None:
        _safe(lambda: room.set_projector_names(key(), "name" if on else "seat"), set_error)()

    with solara.Row(style={"align-items": "center", "gap": "12px", "flex-wrap": "wrap"},
                    classes=["gw-projector-names"]):
        solara.Switch(label="Names on the projector: " + ("on" if names == "name" else "off (Seat 1, Seat 2, …)"),
                      value=names == "name", on_value=turn)
        if error:
            solara.Text(error, style={"color": "#b91c1c"})


@solara.component
def Seats(room: Room, key: Callable[[], str], version: Any) -> None:
    """The room's students: rename or remove each (after a confirmation; the
    agent takes over a removed student's game), and undo the last removal."""
    names = [s.name for s in room.seats.values()]
    waiting = [s.name for s in room.waiting()]
    solara.HTML(tag="p", unsafe_innerHTML=f"{len(names)} student{'s' if len(names) != 1 else ''}"
                + (f" · waiting: {_names(waiting)}" if waiting else ""), classes=["gw-seated"])
    open_, set_open = solara.use_state(False)
    removed, set_removed = solara.use_state(("", ""))  # the last seat removed here: (token, name)
    undo_error, set_undo_error = solara.use_state("")

    def undo() -> None:
        room.restore_seat(key(), removed[0])
        set_removed(("", ""))
        set_undo_error("")

    if removed[0] and removed[0] in room.former:
        with solara.Row(style={"align-items": "center", "gap": "12px", "flex-wrap": "wrap"},
                        classes=["gw-removed-undo"]):
            solara.HTML(tag="span", unsafe_innerHTML=f"{_names([removed[1]])} removed (the agent plays their game).",
                        attributes={"role": "status"})
            solara.Button("Undo", on_click=_safe(undo, set_undo_error), small=True, outlined=True,
                          classes=["gw-undo-remove"])
            solara.Button("Dismiss", on_click=lambda: set_removed(("", "")), small=True, text=True)
        if undo_error:
            solara.Error(undo_error)
    if not room.seats:
        return
    solara.Button(("Hide the students" if open_ else "Students: rename or remove"), text=True,
                  on_click=lambda: set_open(not open_), classes=["gw-seats-toggle"],
                  attributes={"aria-expanded": "true" if open_ else "false"})
    if open_:
        with solara.Div(classes=["gw-seats"]):
            for seat in list(room.seats.values()):
                SeatRow(room, seat.token, seat.name, key, set_removed).key(seat.token)


@solara.component
def SeatRow(room: Room, token: str, name: str, key: Callable[[], str],
            on_removed: Callable[[tuple[str, str]], None]) -> None:
    editing, set_editing = solara.use_state(False)
    confirming, set_confirming = solara.use_state(False)
    new_name, set_new_name = solara.use_state(name)
    error, set_error = solara.use_state("")

    def rename() -> None:
        room.rename_seat(key(), token, new_name)
        set_error("")
        set_editing(False)

    def remove() -> None:
        room.remove_seat(key(), token)
        set_confirming(False)
        on_removed((token, name))

    with solara.Row(style={"align-items": "center", "gap": "8px", "flex-wrap": "wrap"}, classes=["gw-seat-row"]):
        if editing:
            solara.InputText("New name", value=new_name, on_value=set_new_name, continuous_update=True)
            solara.Button("Save", on_click=_safe(rename, set_error), small=True, color="primary")
            solara.Button("Cancel", on_click=lambda: set_editing(False), small=True, text=True)
        else:
            solara.HTML(tag="span", unsafe_innerHTML=_names([name]), classes=["gw-seat-label"])
            solara.Button("Rename", on_click=lambda: (set_new_name(name), set_editing(True)), small=True, text=True,
                          classes=["gw-rename"])
            if confirming:
                with solara.Div(classes=["gw-confirm-remove"], attributes={"role": "group"}):
                    solara.HTML(tag="span", unsafe_innerHTML=f"Remove {_names([name])}? Their game goes to the agent.")
                    solara.Button("Remove", on_click=_safe(remove, set_error), small=True, color="error",
                                  classes=["gw-remove-confirm"])
                    solara.Button("Cancel", on_click=lambda: set_confirming(False), small=True, text=True,
                                  classes=["gw-remove-cancel"])
            else:
                solara.Button("Remove", on_click=lambda: set_confirming(True), small=True, text=True,
                              classes=["gw-remove"])
            SeatCode(room, token)
        if error:
            solara.Text(error, style={"color": "#b91c1c"})


@solara.component
def SeatCode(room: Room, token: str) -> None:
    """The seat's code, for the teacher to read out to a student on another
    device: hidden until asked for (the teacher's page may be on the projector)."""
    shown, set_shown = solara.use_state(False)
    seat = room.seats.get(token)
    if seat is None or not seat.reclaim:
        return
    with solara.Row(style={"align-items": "center", "gap": "8px"}):
        solara.Button("Hide the seat code" if shown else "Seat code", on_click=lambda: set_shown(not shown),
                      small=True, text=True, classes=["gw-show-seat-code"])
        if shown:
            solara.HTML(tag="span", unsafe_innerHTML=f"seat code <b>{seat.reclaim_text}</b>",
                        classes=["gw-seat-code"])


@solara.component
def GameCard(room: Room, rg: RoomGame, key: Callable[[], str], on_replay: Any, version: Any) -> None:
    g = rg.game
    with g.lock:
        over, to_move, status, shown = g.is_over, g.players_to_move, g.status(), g.version
    # the projector (no key) names the players as the teacher chose (Room.projector_names: "Seat 3" by default)
    who = room.player_name if key is not None else room.public_player_name
    names = " vs ".join(escape(who(rg, p)) for p in range(len(rg.players)))
    mover = (" · to move: " + ", ".join(escape(who(rg, p)) for p in to_move)) if to_move else ""
    classes = ["gw-room-game"] + ([] if over else ["gw-to-move"])
    # each action acts on the game as the page showed it (``shown``, its version): a second click does nothing more

    def undo() -> None:
        if g.version == shown:
            room.teacher_undo(key(), rg.id)

    def hand(p: int) -> None:
        if p not in rg.handed:
            room.hand_to_agent(key(), rg.id, p)

    def give_back(p: int) -> None:
        if p in rg.handed:
            room.give_back(key(), rg.id, p)

    with solara.Div(classes=classes, attributes={"data-game-id": str(rg.id)}):
        solara.HTML(tag="p", unsafe_innerHTML=names + mover, classes=["gw-caption", "gw-names"])
        solara.HTML(tag="div", unsafe_innerHTML=_picture(rg))
        solara.Text(status, classes=["gw-caption"])
        if key is None:  # the projector: no controls
            return
        with solara.Row(style={"gap": "8px", "flex-wrap": "wrap"}):
            solara.Button("Replay", on_click=lambda: on_replay(rg.id), small=True, text=True)
            solara.Button("Undo", on_click=_safe(undo), small=True, text=True,
                          disabled=not g.steps or room.closed)
            if not over:
                for p, token in enumerate(rg.players):
                    if token == "agent" or (token not in room.seats and p not in rg.handed):
                        continue
                    who = room.name_of(token)
                    if p in rg.handed:
                        solara.Button(f"{who} plays again", small=True, text=True, classes=["gw-give-back"],
                                      on_click=_safe(lambda p=p: give_back(p)),
                                      disabled=token not in room.seats)
                    else:
                        solara.Button(f"Agent plays {who}", small=True, text=True, classes=["gw-hand-to-agent"],
                                      on_click=_safe(lambda p=p: hand(p)))


@solara.component
def Replay(room: Room, game_id: int, on_close: Any, key: Callable[[], str] | None = None,
           projected: bool = False) -> None:
    """A game's replay on the teacher's page, opened in the games' grid right
    under the game's card (the whole row: where the teacher is looking), with
    a button that puts it on the projector (:meth:`Room.project_replay`) or
    takes it off."""
    rg = room.game(game_id)
    error, set_error = solara.use_state("")

    def make() -> Any:
        with rg.game.lock:
            copy = rg.game.copy()
        return copy.widget(hidden_controls=["new", "toggle-edit", "export", "hints"])

    board = solara.use_memo(make, [game_id])
    solara.use_effect(lambda: board.close, [board])
    with solara.Card(f"Replay: {activities.game_label(room, rg)} (a copy: the slider scrubs the moves; the game "
                     "itself is untouched)", classes=["gw-replay"]):
        solara.display(board)
        with solara.Div(classes=["gw-replay-actions"]):
            solara.Button("Close replay", on_click=lambda: on_close(0), outlined=True, classes=["gw-close-replay"])
            if key is not None:
                solara.Button("Take it off the projector" if projected else "Show on projector",
                              on_click=_safe(lambda: room.project_replay(key(), 0 if projected else game_id),
                                             set_error),
                              color="primary", outlined=projected, classes=["gw-project-replay"],
                              attributes={"aria-pressed": "true" if projected else "false"})
        if error:
            solara.Error(error)


@solara.component
def Results(room: Room, rooms: Rooms, version: Any) -> None:
    from . import results

    same = [r for r in rooms.rooms() if r.game_name == room.game_name]
    scope, set_scope = solara.use_state("room")
    chosen = [room] if scope == "room" else same
    key = _finished_key(chosen)

    def figures() -> list[Any]:
        figs = [results.win_rates_figure(chosen), results.scores_figure(chosen), results.choices_figure(chosen)]
        return [f for f in figs if f is not None]

    made = solara.use_thread(figures, dependencies=[key, scope])
    with solara.Card("Results", classes=["gw-results"]):
        solara.ToggleButtonsSingle(value=scope, values=["room", "every room of this game"], on_value=set_scope)
        Standings(room)
        Charts(made)
        _p("<b>Every game</b>")
        solara.DataFrame(_from_one(results.results_table(chosen)), items_per_page=20)
        Downloads(chosen, f"results-{room.code}", everyone=rooms.rooms())


def _finished_key(chosen: list[Room]) -> tuple[Any, ...]:
    """What the charts are drawn from: each room's finished games (and its
    seat names). A move in a game still going on leaves it unchanged, so the
    charts are made again only when a game ends, not at every change of the
    room (a page redraws at every change, pushed). Read without the games'
    locks (one attribute each; a game ending meanwhile is seen at the next change)."""
    return tuple((r.code, r.projector_names, tuple(rg.id for rg in list(r.games) if rg.game.is_over)) for r in chosen)


@solara.component
def Standings(room: Room) -> None:
    """The room's standings (after any round, once there are several) and, for
    a game of two, its cross table."""
    from . import results

    rounds = sorted({rg.round for rg in room.games})
    after, set_after = solara.use_state("now")
    with solara.Row(style={"align-items": "baseline", "gap": "12px"}):
        _p("<b>Standings</b>")
        if len(rounds) > 1:
            solara.Select("after", values=["now", *(f"round {r}" for r in rounds)], value=after,
                          on_value=set_after, classes=["gw-standings-after"], style={"max-width": "12em"})
    through = None if after == "now" else int(after.split()[1])
    solara.DataFrame(results.standings(room, through).set_index("rank"), items_per_page=40)  # "#": the rank
    cross = results.crosstable(room, through)
    if cross is not None and len(rounds) > 1:
        _p("<b>Cross table</b> (the row's results against the column, oldest first: 1 a win, \u00bd a draw)")
        solara.DataFrame(_from_one(cross.reset_index()), items_per_page=40)


def _from_one(table: Any) -> Any:
    """``table`` with its rows numbered from 1, as people count (the page's ``#`` column)."""
    table.index = range(1, len(table) + 1)
    return table


@solara.component
def Charts(made: Any) -> None:
    """The results' charts, made on a thread: a progress line while they are
    made (solving openings' equilibria), a line saying why there are none."""
    from . import results

    if made.state == solara.ResultState.FINISHED and not made.value:
        _p(f"The charts appear once {results.MIN_GAMES} games are finished.", "gw-charts-none")
    elif made.state == solara.ResultState.FINISHED:
        for fig in made.value:
            solara.FigureMatplotlib(fig, format="svg")
    elif made.state == solara.ResultState.ERROR:
        _p(f"The charts could not be made: {escape(str(made.error)[:80])}", "gw-charts-none")
    else:
        solara.ProgressLinear(True)
        _p("Making the charts (the openings' equilibria are solved once, then kept)...", "gw-charts-busy")


@solara.component
def Downloads(chosen: list[Room], stem: str, everyone: list[Room] | None = None) -> None:
    """The teacher's files of the rooms ``chosen``, and the class's gradebook
    over ``everyone`` (every room of the class; default ``chosen``): one row
    per student, in the shape chosen beside it (:mod:`gridwidgets.rooms.gradebook`)."""
    from . import exports, gradebook, results

    shape, set_shape = solara.use_state("plain")
    class_rooms = chosen if everyone is None else everyone
    with solara.Row(style={"gap": "12px", "flex-wrap": "wrap"}):
        if len(chosen) == 1:
            solara.FileDownload(lambda: exports.standings_csv(chosen[0]), filename=f"{stem}-standings.csv",
                                label="Download the standings (CSV)", mime_type="text/csv")
        solara.FileDownload(lambda: exports.results_csv(chosen), filename=f"{stem}.csv",
                            label="Download the results (CSV)", mime_type="text/csv")
        solara.FileDownload(lambda: results.saves_zip(chosen), filename=f"{stem.replace('results', 'games')}.zip",
                            label="Download every game (save files, zip)", mime_type="application/zip")
        if any(r.polls for r in chosen):
            solara.FileDownload(lambda: exports.polls_csv(chosen), filename=f"{stem.replace('results', 'polls')}.csv",
                                label="Download every poll answer (CSV)", mime_type="text/csv")
        if any(r.assignments for r in chosen):
            solara.FileDownload(lambda: exports.exercise_csv(chosen),
                                filename=f"{stem.replace('results', 'exercises')}.csv",
                                label="Download every exercise answer (CSV)", mime_type="text/csv")
    with solara.Row(style={"gap": "12px", "flex-wrap": "wrap", "align-items": "baseline"}, classes=["gw-gradebook"]):
        solara.FileDownload(lambda: gradebook.gradebook_csv(gradebook.class_gradebook(class_rooms), shape),
                            filename=f"gradebook-{shape}.csv", mime_type="text/csv",
                            label="Download the gradebook, one row per student (CSV)")
        solara.Select("shape", values=list(gradebook.SHAPES), value=shape, on_value=set_shape,
                      style={"max-width": "9em"})


@solara.component
def ClassEnded(ended: list[Room]) -> None:
    """The teacher's page once the class ended here: the downloads of every room (its last chance in this page)."""
    solara.HTML(tag="h1", unsafe_innerHTML="The class has ended")
    solara.Success("Every room is closed and this teacher address no longer works. Download the results now; "
                   "they also stay in the server's database file.", classes=["gw-class-ended"])
    Downloads(ended, "results-class")


# -- the projector's page ------------------------------------------------------------------------
@solara.component
def ProjectorPage() -> None:
    rooms = current_rooms()
    session = _teacher_session()
    solara.Style(_CSS)
    with solara.Column(classes=["gw-rooms", "gw-projector"]):
        solara.Title("Projector: the class")
        try:
            rooms.teacher_key(session)
        except RoomError:
            NotTeacher(rooms, refused=False)
            return
        ProjectorView(rooms)


#: the most games the projector shows at once, by what else it shows (the rest: "+N more"); its games grid
#: as (columns, rows) for so many games, the boards sized to the screen's height
PROJECTED_GAMES = {"full": 12, "side": 6, "strip": 4}
#: the standings' rows the projector shows, by what else it shows (the rest: "and N more")
PROJECTED_STANDINGS = {"side": 12, "stack": 8}
#: the standings' columns the projector shows (the rest are the teacher's, in the CSV)
PROJECTED_COLUMNS = ("rank", "name", "played", "won", "drawn", "lost", "points")


def projector_grid(n: int, mode: str) -> tuple[int, int]:
    """The projector's games grid for ``n`` games shown (at most
    :data:`PROJECTED_GAMES` ``[mode]``): ``(columns, rows)``. ``mode``:
    ``"full"`` (the games alone), ``"side"`` (beside a poll, a replay or
    the results), ``"strip"`` (one row, under the results beside a poll)."""
    n = max(1, min(n, PROJECTED_GAMES[mode]))
    if mode == "strip":
        return n, 1
    if mode == "side":
        return (1, n) if n <= 2 else (2, (n + 1) // 2)
    if n <= 4:
        return n, 1
    return (3, 2) if n <= 6 else (4, 2) if n <= 8 else (4, 3)


@solara.component
def ProjectorView(rooms: Rooms) -> None:
    """The projector's page: the whole screen, no scrolling (issue 41). A head
    (the QR code, the students' address, the room code, who joined; large
    while nothing else is shown) above a grid whose parts are the class
    poll, the replay the teacher sent, the games (boards sized to the
    screen's height, at most :data:`PROJECTED_GAMES`) and the results; text
    of at least 24 px on a 1920x1080 screen (``--gw-t``, a 45th of the
    screen's height: the layout follows the projector's screen, not the
    teacher's page)."""
    version = use_changes(rooms.changes, lambda: _rooms_version(rooms), MIN_REDRAW)
    all_rooms = [r for r in rooms.rooms() if not r.closed]
    selected, set_selected = solara.use_state(all_rooms[-1].code if all_rooms else "")
    show_results, set_show_results = solara.use_state(False)
    if not all_rooms:
        solara.Info("No room is open.")
        return
    codes = [r.code for r in all_rooms]
    room = rooms.room(selected if selected in codes else codes[-1])
    join = _join_url(room)
    games = [g for g in room.games if g.round == room.round]
    replay = room.projected_replay if any(g.id == room.projected_replay for g in room.games) else 0
    stage = "replay" if replay else "poll" if room.poll is not None else ""
    mode = ("strip" if stage and show_results else "side" if stage or show_results else "full")
    compact = mode != "full" or len(games) > 4
    with solara.Div(classes=["gw-proj", "gw-proj-compact" if compact else "gw-proj-roomy"]):
        with solara.Div(classes=["gw-projector-head", "gw-proj-head"]).key("head"):
            solara.HTML(tag="div", unsafe_innerHTML=_qr_svg(join), classes=["gw-qr"])
            with solara.Div(classes=["gw-proj-where"]):
                _p("Open this address on your phone or laptop (or scan the code), then type the room code:",
                   "gw-proj-say")
                solara.HTML(tag="div", unsafe_innerHTML=escape(students_address()), classes=["gw-address"])
            solara.HTML(tag="div", unsafe_innerHTML=room.code, classes=["gw-big-code"],
                        attributes={"aria-label": "room code " + " ".join(room.code)})
            with solara.Div(classes=["gw-proj-info"]):
                if len(codes) > 1:
                    solara.ToggleButtonsSingle(value=room.code, values=codes, on_value=set_selected,
                                               classes=["gw-room-tabs"])
                names = [s.name for s in room.seats.values()]
                if room.projector_names == "seat":  # alphabetical: the list does not give away who is "Seat 3"
                    names = sorted(names, key=str.casefold)
                solara.HTML(tag="p", unsafe_innerHTML=f"<b>{len(names)} joined:</b> {_names(names) or 'nobody yet'}",
                            classes=["gw-joined", "gw-names"])
                if not hub_mode() and ("127.0.0.1" in students_address() or "localhost" in students_address()):
                    _p("This server answers this computer only: start it with --lan for the class's devices.",
                       "gw-proj-warning")
                if room.paused:
                    _p("The room is paused.", "gw-proj-warning gw-proj-paused gw-paused")
                solara.Button("Hide results" if show_results else "Show results", on_click=lambda: set_show_results(
                    not show_results), outlined=True, classes=["gw-show-results"])
        with solara.Div(classes=["gw-proj-main", f"gw-proj-{mode}", f"gw-proj-stage-{stage or 'none'}"]):
            if stage == "replay":
                with solara.Div(classes=["gw-proj-stage"]):
                    ProjectedReplay(room, replay)
            elif stage == "poll":
                with solara.Div(classes=["gw-proj-stage"]):
                    activities.PollPanel(room, room.poll, None, (version, room.poll.version))
            if show_results:
                with solara.Div(classes=["gw-proj-results"]):
                    ProjectorResults(room, version, charts=not stage,
                                     rows=PROJECTED_STANDINGS["stack" if stage else "side"])
            ProjectedGames(room, games, mode, (room.projector_names, *((g.id, g.game.version, tuple(sorted(g.handed)))
                                                                  for g in games)))


@solara.component
def ProjectedGames(room: Room, games: list[RoomGame], mode: str, version: Any) -> None:
    """The projector's games: a grid that fits its part of the screen (the
    boards drawn by their height), at most :data:`PROJECTED_GAMES` ``[mode]``,
    the rest said as "+N more"; ``version`` (the games' versions) redraws it."""
    cap = PROJECTED_GAMES[mode]
    shown = games if len(games) <= cap else games[: cap - 1]
    cols, rows = projector_grid(len(shown) + (len(games) > cap), mode)
    with solara.Div(classes=["gw-room-games", "gw-proj-games"], style=f"--gw-cols: {cols}; --gw-rows: {rows}"):
        if not games:
            _p("No game yet: the games appear here as the students join.", "gw-proj-none")
        for rg in shown:
            ProjectedGame(room, rg, (rg.game.version, tuple(sorted(rg.handed)), room.projector_names))
        if len(games) > cap:
            more = len(games) - len(shown)
            _p(f"+{more} more game{'s' if more != 1 else ''} (on the teacher's page)", "gw-room-game gw-proj-more")


@solara.component
def ProjectedGame(room: Room, rg: RoomGame, version: Any) -> None:
    """A game on the projector: who plays, whose move or the result (large
    text), and its board alone (no small print: the board's text would be
    unreadable from the back of the room); the players named as the teacher
    chose (:attr:`~gridwidgets.rooms.Room.projector_names`: ``Seat 3`` by default)."""
    g = rg.game
    with g.lock:
        over, to_move, winners, at_once = g.is_over, g.players_to_move, g.winners, g.is_simultaneous_node()
    names = " vs ".join(escape(room.public_player_name(rg, p)) for p in range(len(rg.players)))
    if over:
        said = ("draw" if len(winners) != 1 else f"{room.public_player_name(rg, winners[0])} wins") + " · over"
    elif len(to_move) > 1 or at_once:
        said = "choosing at the same time"
    else:
        said = "to move: " + ", ".join(room.public_player_name(rg, p) for p in to_move)
    classes = ["gw-room-game"] + ([] if over else ["gw-to-move"])
    with solara.Div(classes=classes, attributes={"data-game-id": str(rg.id)}):
        solara.HTML(tag="p", unsafe_innerHTML=names, classes=["gw-caption", "gw-names"])
        solara.HTML(tag="p", unsafe_innerHTML=escape(said), classes=["gw-caption", "gw-proj-status"])
        solara.HTML(tag="div", unsafe_innerHTML=_board_picture(rg), classes=["gw-proj-board"])


def _board_picture(rg: RoomGame) -> str:
    """The board of ``rg`` alone, as a static SVG (no status, panel, legend nor
    coordinates: the projector says them in large text, or not at all)."""
    from dataclasses import replace

    from ..core.draw import render_svg

    g = rg.game
    with g.lock:
        key = (-rg.id, g.version)
        with _PICTURES_LOCK:
            svg = _PICTURES.get(key)
        if svg is None:
            scene = g.scene()
    if svg is None:
        svg = render_svg(replace(scene, status="", notes=(), panel=None, legend=()), size=240, labels=False)
    return _keep_picture(key, svg)


@solara.component
def ProjectedReplay(room: Room, game_id: int) -> None:
    """The replay the teacher sent to the projector (:meth:`Room.project_replay`): a
    copy of the game, scrubbed with its slider (the game itself untouched)."""
    rg = room.game(game_id)

    def make() -> Any:
        with rg.game.lock:
            copy = rg.game.copy()
        return copy.widget(hidden_controls=["new", "toggle-edit", "export", "hints", "undo", "redo",
                                            "toggle-forbidden", "toggle-legal"], fit="big")

    board = solara.use_memo(make, [game_id])
    solara.use_effect(lambda: board.close, [board])
    with solara.Div(classes=["gw-proj-replay"]):
        solara.HTML(tag="h2", unsafe_innerHTML="Replay: " + " vs ".join(
            escape(room.public_player_name(rg, p)) for p in range(len(rg.players))) + f", round {rg.round}")
        solara.display(board)


@solara.component
def ProjectorResults(room: Room, version: Any, charts: bool = True, rows: int = 12) -> None:
    """The results on the projector: the standings (the first ``rows``, the
    columns of :data:`PROJECTED_COLUMNS`) in large type and, with ``charts``,
    one chart drawn with text of at least 18 pt (24 px at its size)."""
    from . import results

    def chart() -> list[Any]:
        fig = results.choices_figure([room]) or results.win_rates_figure([room])
        return [] if fig is None else [_big_text(fig)]

    made = solara.use_thread(chart if charts else list, dependencies=[_finished_key([room]), charts])
    # no student id (standings leave it out), and names only if the teacher chose them (Room.projector_names)
    table = results.standings(room, public=True)
    cols = [c for c in PROJECTED_COLUMNS if c in table.columns]
    body = "".join("<tr>" + "".join(f"<td class='{'gw-names' if c == 'name' else 'gw-num'}'>{escape(str(v))}</td>"
                                    for c, v in zip(cols, row, strict=True)) + "</tr>"
                   for row in table[cols].head(rows).itertuples(index=False))
    more = len(table) - rows
    if more > 0:
        body += f"<tr><td colspan='{len(cols)}'>and {more} more</td></tr>"
    with solara.Div(classes=["gw-projector-results"]):
        solara.HTML(tag="div", unsafe_innerHTML="<table><caption>Standings</caption><thead><tr>"
                    + "".join(f"<th scope='col'>{escape(c)}</th>" for c in cols) + f"</tr></thead><tbody>{body}"
                    "</tbody></table>", classes=["gw-proj-standings"])
        if charts:
            Charts(made)


def _big_text(fig: Any) -> Any:
    """``fig`` with every text at least 18 pt, 8 inches wide: 24 px or more where it is shown at its size."""
    from matplotlib.text import Text

    w, h = fig.get_size_inches()
    fig.set_size_inches(8.0, max(3.6, min(4.6, 8.0 * h / w * 1.25)))
    for text in fig.findobj(Text):
        text.set_fontsize(max(18.0, float(text.get_fontsize())))
    for text in [*fig.texts, *(ax.title for ax in fig.axes)]:  # a long title in lines, within the figure
        text.set_wrap(True)
    return fig


# -- every page -----------------------------------------------------------------------------------
@solara.component
def Layout(children: list[Any] | None = None) -> None:
    """The pages alone: no app bar, no links between them (a student's page
    does not point to the teacher's); the connection's watcher; an error of a
    page shown in general words (its traceback goes to the server's terminal)."""
    exc, clear = solara.use_exception()
    watch = solara.use_memo(ConnectionWatch, [])
    solara.display(watch)
    if exc is not None:
        print("rooms page: " + "".join(traceback.format_exception(exc)), file=sys.stderr, flush=True)
        with solara.Column(classes=["gw-rooms"]):
            solara.Error("Something went wrong on this page. Reload it: your seat and the class are safe on the "
                         "server.", classes=["gw-page-error"])
            solara.Button("Try again", on_click=clear, outlined=True)
        return
    solara.Column(children=children or [], style={"padding": "0"})


routes = [
    solara.Route(path="/", component=StudentPage, label="Join", layout=Layout),
    solara.Route(path="teacher", component=TeacherPage, label="Teacher"),
    solara.Route(path="projector", component=ProjectorPage, label="Projector"),
]
