// The anywidget entry point of every gridwidgets widget (docs/frontend.md).

import type { Render } from "@anywidget/types";
import { GridView } from "./grid";
import type { WidgetTraits } from "./types";
import "./games/gridlock";
import "./games/gridmaster4";
import "./games/blockfour";
import "./games/gridbloc";
import "./widget.css";

export { registerGame, layerFor, playerClass } from "./games/layer";
export type { Board, GameLayer } from "./games/layer";
export type { GameState, WidgetTraits, Intent } from "./types";

const render: Render<WidgetTraits> = ({ model, el }) => {
  const view = new GridView(model, el);
  return () => view.destroy();
};

export default { render };
