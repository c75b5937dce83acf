// The front-end layers of the package's games, one module each, for what a
// game does in the page beyond its picture (the generic layer, ../generic.ts,
// draws every game's scene): Block Four's secret bid and placement preview,
// GridBloc's board editor and keyboard walls.
import "./blockfour";
import "./gridbloc";
