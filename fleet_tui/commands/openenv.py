"""`fleet-tui openenv serve PACKAGE [--port P] [--venv DIR] [--token T]`: run the server that
`openenv import` generated, with the openenv virtualenv's Python, on 127.0.0.1.

`openenv` needs mcp<2, so it and the env's SDK live in their own virtualenv (from `--venv`,
`$OPENENV_VENV`, or the one holding the `openenv` command on PATH). This process binds the
port, keeps the server's token where fleet-tui's clients find it (`envs/openenv_token.py`),
then becomes that server (`fleet_tui/openenv_serve.py`), which answers only requests carrying
the token and also makes a Verifiers env work there: see that file.
"""

from __future__ import annotations

import argparse
import os
import shutil
from pathlib import Path

from fleet_tui.commands.local import port_number, token_text
from fleet_tui.envs.base import EnvError
from fleet_tui.envs.openenv_token import TOKEN_ENV_VAR, keep_token
from fleet_tui.loopback_guard import HOST, loopback_socket, new_token

VENV_ENV_VAR = "OPENENV_VENV"
LAUNCHER = Path(__file__).resolve().parents[1] / "openenv_serve.py"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    serve = actions.add_parser(
        "serve", help="serve a package `openenv import` generated, on 127.0.0.1, until Ctrl+C"
    )
    serve.add_argument("package", metavar="PACKAGE", help="the folder `openenv import` made")
    serve.add_argument(
        "--port", type=port_number, default=8000, help="port (default 8000; 0 picks a free one)"
    )
    serve.add_argument(
        "--venv",
        metavar="DIR",
        default=os.environ.get(VENV_ENV_VAR) or None,
        help=f"the openenv virtualenv (default: ${VENV_ENV_VAR}, else the one of `openenv` on "
        "PATH; scripts/openenv-venv builds one)",
    )
    serve.add_argument(
        "--token",
        type=token_text,
        default=os.environ.get(TOKEN_ENV_VAR) or None,
        help=f"the token clients must send (default: ${TOKEN_ENV_VAR}, else a random one)",
    )


def run(args: argparse.Namespace) -> int:
    package = Path(args.package)
    if not (package / "server" / "app.py").is_file():
        raise EnvError(
            f"{args.package} has no server/app.py: give the folder `openenv import` made "
            "(OUTPUT_DIR/NAME)"
        )
    python = openenv_python(args.venv)
    try:
        listener = loopback_socket(args.port)
    except OSError as error:
        raise EnvError(f"cannot listen on {HOST}:{args.port}: {error.strerror}") from error
    listener.set_inheritable(True)
    token_file = keep_token(listener.getsockname()[1], args.token or new_token())
    launch = [str(LAUNCHER), str(package.resolve()), "--fd", str(listener.fileno())]
    os.execv(python, [str(python), *launch, "--token-file", str(token_file)])
    return 0  # not reached: this process became the server


def openenv_python(venv: str | None) -> Path:
    """The Python of the openenv virtualenv, or a plain-words error saying how to name one."""
    if venv is None:
        openenv = shutil.which("openenv")
        if openenv is None:
            raise EnvError(
                f"which virtualenv has openenv? Give --venv DIR or set ${VENV_ENV_VAR} "
                "(scripts/openenv-venv builds one and prints its path)"
            )
        python = Path(openenv).parent / "python"
    else:
        python = Path(venv) / "bin" / "python"
    if not os.access(python, os.X_OK):
        raise EnvError(f"no Python at {python}: is {python.parents[1]} a virtualenv?")
    return python
