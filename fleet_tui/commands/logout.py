"""`fleet-tui logout URL...`: forget the OAuth sign-ins kept for MCP servers (their tokens and
client registrations), so the next connection signs in again; `--all` forgets every one."""

from __future__ import annotations

import argparse

from fleet_tui.commands.output import err, out
from fleet_tui.envs.errors import EnvError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("urls", nargs="*", metavar="URL", help="an MCP endpoint's URL (--mcp)")
    parser.add_argument("--all", action="store_true", help="forget every kept sign-in")


def run(args: argparse.Namespace) -> int:
    from fleet_tui.envs.oauth_store import forget, sign_ins_dir, signed_in_urls

    if args.all == bool(args.urls):
        raise EnvError("give the URL of each server to forget, or --all")
    urls = signed_in_urls() if args.all else args.urls
    for url in urls:
        if forget(url):
            out(f"signed out of {url}")
        else:
            err(f"no sign-in kept for {url}")
    if not urls:
        err(f"no sign-in kept (in {sign_ins_dir()})")
    return 0
