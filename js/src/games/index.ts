// The front-end layers of the package's games, one module each; every other
// game is drawn by the generic layer (../generic.ts).
import "./gridlock";
import "./gridmaster4";
import "./blockfour";
import "./gridbloc";
