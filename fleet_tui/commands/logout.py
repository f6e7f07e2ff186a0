"""`fleet-tui logout URL...`: forget the OAuth sign-ins kept for MCP servers (their tokens and
client registrations), so the next connection signs in again; `--all` deletes every kept
sign-in file, readable or not."""

from __future__ import annotations

import argparse

from fleet_tui.commands.output import err, out
from fleet_tui.envs.errors import EnvError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("urls", nargs="*", metavar="URL", help="an MCP endpoint's URL (--mcp)")
    parser.add_argument("--all", action="store_true", help="forget every kept sign-in")


def run(args: argparse.Namespace) -> int:
    from fleet_tui.envs.oauth_store import forget, forget_all, sign_ins_dir

    if args.all == bool(args.urls):
        raise EnvError("give the URL of each server to forget, or --all")
    if args.all:
        forgotten = forget_all()
        for name in forgotten:
            out(f"signed out of {name}")
        if not forgotten:
            err(f"no sign-in kept (in {sign_ins_dir()})")
        return 0
    for url in args.urls:
        if forget(url):
            out(f"signed out of {url}")
        else:
            err(f"no sign-in kept for {url}")
    return 0
