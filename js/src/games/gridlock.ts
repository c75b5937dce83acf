// Gridlock (RULES GL-1..GL-5): X and O markers; the shared view does the rest
// (forbidden cells by GL-3 come from Python in `state.forbidden`).

import { svg } from "../dom";
import { playerClass, registerGame, type GameLayer } from "./layer";

export const gridlockLayer: GameLayer = {
  title(s) {
    return `Gridlock board, ${s.rows} by ${s.cols}`;
  },


  drawPiece(g, s, i, size) {
    const owner = s.owners[i] ?? -1;
    const text = s.cells[i] ?? "";
    const stroke = Math.max(2, size * 0.1);
    const cls = `gw-mark ${playerClass(owner)}`;
    if (text === "X" || (text === "" && owner === 0)) {
      const a = size * 0.24;
      svg("path", { d: `M${-a} ${-a}L${a} ${a}M${a} ${-a}L${-a} ${a}`, class: cls, "stroke-width": stroke }, g);
    } else if (text === "O" || (text === "" && owner === 1)) {
      svg("circle", { r: size * 0.27, class: cls, "stroke-width": stroke }, g);
    } else if (text) {
      // Not Gridlock's own markers: show the text as it is.
      const t = svg("text", { class: `gw-disc-text gw-mark-text ${playerClass(owner)}`, dy: "0.35em", "font-size": Math.round(size * 0.5) }, g);
      t.textContent = text;
    }
  },

  describe(s, i) {
    return s.cells[i] ?? "";
  },

  predict(s, i) {
    const p = s.current_player;
    if (p === null || p < 0) return null;
    const cells = s.cells.slice();
    const owners = s.owners.slice();
    cells[i] = s.players[p] ?? "";
    owners[i] = p;
    return { ...s, cells, owners };
  },
};

registerGame("gridlock", gridlockLayer);
