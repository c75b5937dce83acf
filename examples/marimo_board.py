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


if __name__ == "__main__":
    app.run()
