# A gridwidgets board in marimo: `marimo edit examples/marimo_board.py`
# (or `marimo run` for the app view). A click on the board plays the move in
# Python, and the cell below, which reads the board, runs again.
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    import gridwidgets as gw

    return gw, mo


@app.cell
def _(gw, mo):
    game = gw.Gridlock()
    board = mo.ui.anywidget(game.widget())
    board
    return board, game


@app.cell
def _(board, game, mo):
    board.value  # this cell reads the board: it runs again after every move
    moves = " ".join(str(m) for m in game.history) or "none yet"
    mo.md(f"**{len(game.history)} moves played** ({moves}). {game.status()}")
    return


@app.cell
def _(gw, mo):
    # several live boards in one widget
    pair = mo.ui.anywidget(gw.side_by_side(gw.GridMaster4(size=10, players=2), gw.GridBloc()))
    pair
    return (pair,)


@app.cell
def _(pair):
    pair.value  # runs again after a move on either board
    [f"{g.game_type.long_name}: {len(g.history)} moves" for g in pair.widget.games]
    return


if __name__ == "__main__":
    app.run()
