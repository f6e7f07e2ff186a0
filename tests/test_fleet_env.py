"""FleetEnv with the real fleet-python SDK against the embedded local Fleet host."""

from __future__ import annotations

import asyncio

import pytest

from fleet_tui.envs.base import EndpointState, EnvError
from fleet_tui.envs.fleet import FleetEnv
from fleet_tui.envs.targets import FleetTarget, LocalTarget
from tests.fixtures.local_host import TEST_API_KEY


def running_ids(local_host) -> set[str]:
    return {i.instance_id for i in local_host.registry.instances.values() if i.running}


def target(local_host, **fields) -> FleetTarget:
    return FleetTarget(base_url=local_host.base_url, api_key=TEST_API_KEY, **fields)


async def test_provisions_lists_both_endpoints_and_closes(local_host):
    before = running_ids(local_host)
    env = FleetEnv(target(local_host, env_key="tracker:1.0.0", ttl_seconds=600))
    progress: list[str] = []
    try:
        await env.connect(progress.append)
        instance_id = env.info.instance_id
        alive_while_open = instance_id in running_ids(local_host)
        tools = await env.list_tools()
        endpoints = env.endpoints()
    finally:
        await env.close()

    assert alive_while_open
    assert env.info.created_here and env.info.version == "v1.0.0"
    assert local_host.registry.instances[instance_id].ttl_seconds == 600
    assert [status.url for status in endpoints] == [
        f"{local_host.base_url}/instances/{instance_id}/mcp",
        f"{local_host.base_url}/instances/{instance_id}/api/v1/mcp",
    ]
    assert all(status.state is EndpointState.UP for status in endpoints)
    assert {tool.endpoint for tool in tools} == {status.url for status in endpoints}
    assert any("running after" in line for line in progress)
    assert running_ids(local_host) == before


async def test_passes_data_key_image_type_and_env_variables(local_host):
    env = FleetEnv(
        target(
            local_host,
            env_key="tracker",
            data_key="tracker-backlog:1",
            image_type="standard",
            env_variables={"TZ": "UTC"},
        )
    )
    try:
        await env.connect()
        instance = local_host.registry.instances[env.info.instance_id]
    finally:
        await env.close()

    assert (instance.data_key, instance.data_version) == ("tracker-backlog", "v1")
    assert instance.image_type == "standard"
    assert instance.env_variables == {"TZ": "UTC"}


async def test_calls_reset_and_reads_state(local_host):
    env = FleetEnv(target(local_host, env_key="tracker"))
    try:
        await env.connect()
        count_sql = "select count(*) from issues"
        before = (await env.query("current", count_sql)).rows[0][0]
        created = await env.call_tool("create_issue", {"project": "WEB", "title": "New thing"})
        after_call = (await env.query("current", count_sql)).rows[0][0]
        reset = await env.reset(seed=5)
        after_reset = (await env.query("current", count_sql)).rows[0][0]
        names = sorted(resource.name for resource in await env.resources())
    finally:
        await env.close()

    assert not created.is_error, created.text()
    assert after_call == before + 1
    assert reset.success and reset.seed == 5
    assert after_reset == before
    assert names == ["current", "seed"]


async def test_sends_the_api_key_as_bearer_to_both_mcp_endpoints(local_host):
    env = FleetEnv(target(local_host, env_key="tracker"))
    try:
        await env.connect()
        headers = [endpoint.spec.headers for endpoint in env.union._endpoints]
    finally:
        await env.close()

    assert headers == [{"Authorization": f"Bearer {TEST_API_KEY}"}] * 2


async def test_sends_heartbeats_when_the_instance_asks(local_host):
    env = FleetEnv(target(local_host, env_key="tracker"), heartbeat_interval=1)
    try:
        await env.connect()
        instance = local_host.registry.instances[env.info.instance_id]
        await asyncio.sleep(2.6)  # past 2 intervals: the host stops an instance that misses
        beat = instance.last_heartbeat
        still_running = instance.running
    finally:
        await env.close()

    assert beat is not None
    assert still_running


async def test_attach_never_closes_the_instance(local_host, fleet_client):
    sdk_env = await fleet_client.make("tracker")
    try:
        env = FleetEnv(target(local_host, instance=sdk_env.instance_id))
        await env.connect()
        result = await env.call_tool("list_users", {})
        await env.close()
        still_running = sdk_env.instance_id in running_ids(local_host)
    finally:
        await sdk_env.close()

    assert not env.info.created_here
    assert not result.is_error
    assert still_running


async def test_connecting_again_reconnects_without_a_second_instance(local_host):
    env = FleetEnv(target(local_host, env_key="tracker"))
    try:
        await env.connect()
        first = env.info.instance_id
        count = len(local_host.registry.instances)
        await env.connect()
        result = await env.call_tool("list_users", {})
    finally:
        await env.close()

    assert env.info.instance_id == first
    assert len(local_host.registry.instances) == count
    assert not result.is_error


async def test_keep_leaves_the_created_instance_running(local_host):
    env = FleetEnv(target(local_host, env_key="tracker", keep=True))
    await env.connect()
    await env.close()
    instance = local_host.registry.instances[env.info.instance_id]
    kept = instance.running
    local_host.registry.stop(instance)

    assert kept


async def test_closes_what_it_created_when_cancelled_while_provisioning(local_host):
    before = running_ids(local_host)
    env = FleetEnv(target(local_host, env_key="tracker"))
    connecting = asyncio.create_task(env.connect())
    await asyncio.sleep(0)  # the create request is on its way
    connecting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await connecting
    await env.close()

    made = [i for i in local_host.registry.instances.values() if i.run_id == env.run_id]
    assert len(made) == 1, "the create went through although connect was cancelled"
    assert not made[0].running
    assert running_ids(local_host) == before


async def test_closes_what_it_created_when_connecting_fails(local_host):
    before = running_ids(local_host)
    env = FleetEnv(target(local_host, env_key="tracker"))
    env.timeouts = env.timeouts.__class__(connect=0.0001)
    with pytest.raises(EnvError, match="could not connect to any MCP endpoint"):
        await env.connect()
    await env.close()

    assert env.info.created_here
    assert running_ids(local_host) == before


async def test_unknown_env_key_names_the_available_ones(local_host):
    env = FleetEnv(target(local_host, env_key="nope"))
    with pytest.raises(EnvError) as caught:
        await env.connect()
    await env.close()

    assert caught.value.message == (
        "cannot provision nope: Environment 'nope' not found (available: desktop-todo, tracker)"
    )
    assert caught.value.exit_code == 2


async def test_unknown_instance_is_a_clear_error(local_host):
    env = FleetEnv(target(local_host, instance="no-such-instance"), max_retries=0)
    with pytest.raises(EnvError, match=r"cannot attach to no-such-instance: .*not found"):
        await env.connect()
    await env.close()


async def test_local_starts_and_stops_the_embedded_host():
    env = FleetEnv(LocalTarget(env_key="desktop-todo"))
    try:
        await env.connect()
        host = env.local_host
        screenshot = await env.call_tool("computer", {"action": "screenshot"})
    finally:
        await env.close()

    assert screenshot.images()[0].data.startswith(b"\x89PNG")
    assert env.info.kind == "local"
    assert not host._thread.is_alive()


async def test_unreachable_host_is_named(local_host):
    dead = local_host.base_url.rsplit(":", 1)[0] + ":1"
    env = FleetEnv(
        FleetTarget(env_key="tracker", base_url=dead, api_key=TEST_API_KEY), max_retries=0
    )
    with pytest.raises(EnvError, match=f"cannot provision tracker: {dead} is unreachable"):
        await env.connect()
    await env.close()
