// The anywidget entry point of every gridwidgets widget (docs/frontend.md).

import type { Render } from "@anywidget/types";
// the shared sheet first: each game's layer imports its own CSS after it (games/*.css)
import "./generated/palette.css";
import "./widget.css";
import "./generic";
import "./games/index";
import { renderBoards } from "./multi";
import { GridView } from "./view";
import type { WidgetTraits } from "./types";

export { registerGame, layerFor, playerClass } from "./games/layer";
export type { Board, GameLayer } from "./games/layer";
export type { Contract, GameState, Intent, Scene, Target, WidgetTraits } from "./types";

const render: Render<WidgetTraits> = ({ model, el }) => {
  // gw.side_by_side's Boards: several boards in one widget (multi.ts)
  const anyModel = model as unknown as Parameters<typeof renderBoards>[0];
  if (Array.isArray(anyModel.get("views"))) return renderBoards(anyModel, el);
  const view = new GridView(model, el);
  return () => view.destroy();
};

export default { render };
