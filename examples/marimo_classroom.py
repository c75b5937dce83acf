# The classroom app in marimo: `marimo run examples/marimo_classroom.py`.
# The same games, boards, seats and explanation as `python -m gridwidgets
# classroom` (gridwidgets.classroom), with marimo's own menus: picking a game
# or a board, or New game, starts a new game; changing a seat keeps the
# position (the board is rebuilt on the same game object).
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    from gridwidgets import classroom

    menu = classroom.games_menu()
    return classroom, menu, mo


@app.cell
def _(menu, mo):
    game = mo.ui.dropdown({c.label: k for k, c in menu.items()}, value=next(iter(menu.values())).label, label="Game")
    big_screen = mo.ui.switch(label="Big screen")
    new = mo.ui.button(label="New game")
    return big_screen, game, new


@app.cell
def _(game, menu, mo):
    boards = menu[game.value].boards
    board = mo.ui.dropdown({b.label: k for k, b in boards.items()}, value=next(iter(boards.values())).label,
                           label="Board")
    return (board,)


@app.cell
def _(board, classroom, game, mo, new):
    new  # a click starts over
    played = classroom.start_game(game.value, board.value)
    kinds = {"Person": classroom.PERSON, **{a.label: k for k, a in classroom.AGENTS.items()}}
    seats = mo.ui.array([mo.ui.dropdown(kinds, value="Person", label=name) for name in played.players])
    return played, seats


@app.cell
def _(big_screen, board, classroom, game, mo, new, played, seats):
    chosen = dict(enumerate(seats.value))
    live = mo.ui.anywidget(classroom.seat_board(played, chosen, big_screen=big_screen.value))
    mo.vstack([
        mo.md("### Grid games"),
        mo.hstack([game, board, new, big_screen], justify="start"),
        mo.hstack(list(seats), justify="start"),
        mo.md(classroom.explain(game.value, board.value, played, chosen)),
        live,
    ])
    return


if __name__ == "__main__":
    app.run()
