"""`boardreader serve` input errors: one line, exit 2, no server started."""

from __future__ import annotations

import pytest

from boardreader.cli import main


@pytest.mark.parametrize("port", ["0", "70000", "-5"])
def test_bad_port_is_exit_2(port, capsys):
    assert main(["serve", "--port", port]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "--port" in error
