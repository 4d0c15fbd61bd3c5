"""The command line: argument checking (:mod:`game.cli.args`) and the commands that open the
window, render figures and play demos (:mod:`game.cli.commands`)."""
