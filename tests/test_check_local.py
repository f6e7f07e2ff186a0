"""`fleet-tui check --local`: one embedded host, started in the process, serves every task."""

from __future__ import annotations

import os
from pathlib import Path

from fleet_tui.local import bundled_task_files
from tests.fixtures.local_host import TEST_API_KEY
from tests.test_check import GOLD, check


def test_embedded_host_shared_by_parallel_tasks():
    path = bundled_task_files()["tracker"]
    result = check(
        "--tasks",
        str(path),
        "--task",
        "tracker-assign-safari-crash",
        "--task",
        "tracker-close-footer-link",
        "--gold",
        str(GOLD),
        "--parallel",
        "2",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "2/2 tasks pass"


async def test_tasks_on_one_host_share_one_fleet_client(local_host, fleet_client):
    """Every task's env goes through the one client `shared_fleet_client` made (one HTTP
    client and TLS context for the run), and no env closes it: it still answers after."""
    from fleet_tui.envs.targets import FleetTarget
    from fleet_tui.tasks.check import check_tasks
    from fleet_tui.tasks.files import load_tasks
    from fleet_tui.tasks.provision import shared_fleet_client

    tasks = load_tasks(bundled_task_files()["tracker"])[:2]
    base = FleetTarget(env_key="tracker", base_url=local_host.base_url, api_key=TEST_API_KEY)
    requests: list[str] = []

    async def seen(request) -> None:
        requests.append(request.url.path)

    async with shared_fleet_client(base) as client:
        assert client is not None
        client.client.httpx_client.event_hooks["request"].append(seen)
        report = await check_tasks(tasks, base, parallel=2, gold_dir=GOLD, client=client)
        assert [task.status for task in report.tasks] == ["pass", "pass"]
        assert requests.count("/v1/env/instances") == 2  # each task provisioned through it
        assert await client.list_envs()


async def test_envs_on_one_client_resolve_the_runner_token_once(local_host, monkeypatch):
    """The runner token the SDK sends on instance calls is resolved once for every env of one
    client, with no CA bundle loaded for it (the SDK made a new TLS context per env)."""
    import asyncio
    import ssl

    from fleet_tui.envs.mcp_preload import shared_ssl_context
    from fleet_tui.envs.targets import FleetTarget
    from fleet_tui.tasks.provision import connected, shared_fleet_client

    base = FleetTarget(env_key="tracker", base_url=local_host.base_url, api_key=TEST_API_KEY)
    shared_ssl_context()  # made once for the MCP endpoints in any case
    bundles_loaded: list[object] = []
    load = ssl.SSLContext.load_verify_locations

    def counted(context, *args, **kwargs):
        bundles_loaded.append(args or kwargs)
        return load(context, *args, **kwargs)

    async with shared_fleet_client(base) as client:
        monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", counted)
        async with connected(base, client=client) as one, connected(base, client=client) as two:
            await asyncio.gather(one.reset(), two.reset())
            providers = {
                id(env.sdk_env.instance.client.runner_token_provider) for env in (one, two)
            }
            token = await one.sdk_env.instance.client.runner_token_provider.token_async()
    assert len(providers) == 1
    assert token == TEST_API_KEY  # the host's token, as its runner-auth route answers
    assert bundles_loaded == []


def running_module(pid: int) -> str:
    """The `-m` module a process was started with ('' if none or if it is gone)."""
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return ""
    return words[words.index(b"-m") + 1].decode() if b"-m" in words else ""


async def test_the_hosts_verifier_pool_is_forked_by_the_zygote():
    """The host a check starts has its verifier pool forked by the verifier zygote, which
    imported fleet-python already, rather than spawn a Python that imports it again."""
    from fleet_tui.envs.targets import LocalTarget
    from fleet_tui.process_tree import live_descendants
    from fleet_tui.tasks.check import check_tasks
    from fleet_tui.tasks.child_launch import ZYGOTE
    from fleet_tui.tasks.files import load_tasks
    from fleet_tui.tasks.provision import shared_fleet_client, shared_host

    def spawned_pools() -> set[int]:
        return {
            pid
            for pid in live_descendants(os.getpid())
            if running_module(pid) == "fleet_tui.local.verifier_worker"
        }

    task = load_tasks(bundled_task_files()["tracker"])[0]
    before = spawned_pools()  # other tests' hosts may have theirs
    async with shared_host(LocalTarget(env_key="tracker")) as target:
        async with shared_fleet_client(target) as client:
            report = await check_tasks([task], target, gold_dir=GOLD, client=client)
        assert report.tasks[0].status == "pass", report.tasks[0].problems
        assert spawned_pools() == before
        assert ZYGOTE.process is not None
        assert len(live_descendants(ZYGOTE.process.pid)) >= 1  # the pool, still serving
