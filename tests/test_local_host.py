"""The local host driven by the unmodified fleet-python SDK: envs, instances, manager API."""

from __future__ import annotations

import time

import fleet
import httpx
import pytest

# AsyncFleet raises the classes of fleet._async.exceptions, which are not fleet.exceptions'.
from fleet._async.exceptions import (
    FleetAPIError,
    FleetEnvironmentNotFoundError,
    FleetVersionNotFoundError,
)

from tests.fixtures.local_host import AUTH, TEST_API_KEY


async def test_list_envs_and_env_detail(fleet_client):
    envs = {env.env_key: env for env in await fleet_client.list_envs()}
    assert {"tracker", "desktop-todo"} <= set(envs)
    tracker = await fleet_client.environment("tracker")
    assert tracker.default_version == "v1.2.0"
    assert set(tracker.versions) == {"v1.0.0", "v1.2.0"}


async def test_make_with_version_data_key_image_type_and_ttl(fleet_client, local_host):
    env = await fleet_client.make(
        "tracker:1.0.0",
        data_key="tracker-backlog:1",
        image_type="standard",
        ttl_seconds=600,
        region="us-west-1",
        env_variables={"MODE": "test"},
    )
    try:
        assert env.status == "running"
        assert (env.env_key, env.version) == ("tracker", "v1.0.0")
        assert (env.data_key, env.data_version) == ("tracker-backlog", "v1")
        assert env.region == "us-west-1"
        assert env.env_variables == {"MODE": "test"}
        assert env.urls.root == f"{local_host.base_url}/instances/{env.instance_id}/"
        assert env.urls.manager.api == f"{env.urls.root}api/v1/env"
        raw = httpx.get(
            f"{local_host.base_url}/v1/env/instances/{env.instance_id}", headers=AUTH
        ).json()
        assert (raw["image_type"], raw["ttl_seconds"]) == ("standard", 600)
        await env.instance.load()
        issues = await env.db("current").query("SELECT count(*) FROM issues")
        assert issues.rows == [[20]]  # 8 seed issues + 12 from the backlog data set
        projects = await env.db().query("SELECT key FROM projects ORDER BY key")
        assert projects.rows == [["API"], ["WEB"]]  # v1.0.0 has no OPS project
    finally:
        await env.close()


async def test_instance_lookup_list_and_close(fleet_client):
    env = await fleet_client.make("desktop-todo")
    again = await fleet_client.instance(env.instance_id)
    assert (again.instance_id, again.env_key, again.status) == (
        env.instance_id,
        "desktop-todo",
        "running",
    )
    running = {item.instance_id for item in await fleet_client.instances(status="running")}
    assert env.instance_id in running
    closed = await env.close()
    assert closed.status == "stopped" and closed.terminated_at
    running = {item.instance_id for item in await fleet_client.instances(status="running")}
    assert env.instance_id not in running
    assert (await fleet_client.instance(env.instance_id)).status == "stopped"


async def test_reset_restores_the_seed_state(fleet_client):
    env = await fleet_client.make("tracker")
    try:
        await env.instance.load()
        db = env.db("current")
        await db.exec("DELETE FROM labels")
        assert (await db.query("SELECT count(*) FROM labels")).rows == [[0]]
        reset = await env.reset(seed=7)
        assert reset.success and "seed 7" in reset.message
        assert (await db.query("SELECT count(*) FROM labels")).rows == [[11]]
    finally:
        await env.close()


async def test_resources_query_describe_and_health(fleet_client):
    env = await fleet_client.make("tracker")
    try:
        resources = await env.resources()
        assert sorted((r.name, r.type.value) for r in resources) == [
            ("current", "sqlite"),
            ("seed", "sqlite"),
        ]
        db = env.db("current")
        result = await db.query("SELECT title FROM issues WHERE id = ?", [5])
        assert result.success and result.columns == ["title"]
        assert result.rows == [["Checkout page crashes on Safari"]]
        refused = await db.query("DELETE FROM issues")  # query() is read-only
        assert not refused.success and "readonly" in refused.error
        broken = await db.query("SELECT nope FROM issues")
        assert not broken.success and "no such column" in broken.error
        schema = await db.describe()
        tables = {table.name: table for table in schema.tables}
        assert {"issues", "labels", "comments", "users", "projects"} <= set(tables)
        assert {"name": "id", "primary_key": True}.items() <= tables["issues"].columns[0].items()
        seed = env.db("seed")
        assert not (await seed.exec("DELETE FROM issues")).success  # the seed is read-only
        health = await env.instance.manager_health_check()
        assert health.status == "healthy"
    finally:
        await env.close()


async def test_heartbeat_reports_the_deadline(fleet_client):
    env = await fleet_client.make("tracker", heartbeat_interval=60)
    try:
        beat = await env.heartbeat()
        assert beat.success and beat.instance_id == env.instance_id
        assert beat.interval_seconds == 60
        assert beat.deadline_timestamp > time.time() + 30
        plain = await fleet_client.make("tracker")
        beat = await plain.heartbeat()
        assert beat.success and beat.deadline_timestamp is None
        await plain.close()
    finally:
        await env.close()


async def test_unknown_env_key_raises_not_found(fleet_client):
    with pytest.raises(FleetEnvironmentNotFoundError) as raised:
        await fleet_client.make("no-such-env")
    assert raised.value.env_key == "no-such-env"


async def test_unknown_version_raises_version_not_found(fleet_client):
    with pytest.raises(FleetVersionNotFoundError) as raised:
        await fleet_client.make("tracker:9.9.9")
    assert raised.value.version == "v9.9.9"


async def test_unknown_instance_is_a_404(local_host):
    client = fleet.AsyncFleet(api_key=TEST_API_KEY, base_url=local_host.base_url, max_retries=0)
    with pytest.raises(FleetAPIError) as raised:
        await client.instance("does-not-exist")
    assert raised.value.status_code == 404
    assert "does-not-exist" in str(raised.value)


async def test_ttl_expiry_stops_the_instance_and_frees_its_state(fleet_client, local_host):
    env = await fleet_client.make("tracker", ttl_seconds=1)
    state_dir = local_host.registry.instances[env.instance_id].state.directory
    deadline = time.monotonic() + 15
    while (await fleet_client.instance(env.instance_id)).status == "running":
        assert time.monotonic() < deadline, "the instance outlived its TTL"
        await _sleep(0.2)
    assert not state_dir.exists()
    raw = httpx.get(
        f"{local_host.base_url}/v1/env/instances/{env.instance_id}", headers=AUTH
    ).json()
    assert raw["stop_reason"] == "ttl expired"
    mcp = httpx.post(f"{env.urls.root}mcp", json={}, headers=AUTH)
    assert mcp.status_code == 404


async def _sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


async def test_structured_diff_names_the_changed_rows(fleet_client):
    env = await fleet_client.make("tracker")
    try:
        await env.instance.load()
        db = env.db("current")
        await db.exec("UPDATE issues SET status = 'closed' WHERE id = 7")
        await db.exec("INSERT INTO labels VALUES (8, 'triaged')")
        response = await env.instance.client.request("POST", "/diff/structured", json={})
        diff = response.json()["diff"]
        assert diff["issues"]["modified_rows"][0]["changes"]["status"] == {
            "before": "open",
            "after": "closed",
        }
        added = diff["labels"]["added_rows"][0]["data"]
        assert {"issue_id": 8, "label": "triaged"}.items() <= added.items()
        ignored = await env.instance.client.request(
            "POST", "/diff/structured", json={"ignore_config": {"tables": ["labels"]}}
        )
        assert "labels" not in ignored.json()["diff"]
    finally:
        await env.close()


async def test_missed_heartbeats_stop_the_instance(fleet_client):
    kept = await fleet_client.make("tracker", heartbeat_interval=1)
    dropped = await fleet_client.make("tracker", heartbeat_interval=1)
    deadline = time.monotonic() + 15
    while (await fleet_client.instance(dropped.instance_id)).status == "running":
        assert time.monotonic() < deadline, "an instance without heartbeats kept running"
        await kept.heartbeat()
        await _sleep(0.2)
    assert (await fleet_client.instance(kept.instance_id)).status == "running"
    await kept.close()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "env_key is required"),
        ({"env_key": 42}, "env_key must be a string"),
        ({"env_key": "tracker", "ttl_seconds": -1}, "ttl_seconds must be a positive integer"),
        ({"env_key": "tracker", "data_key": "nope"}, "Data key 'nope' does not exist"),
        ({"env_key": "tracker", "env_variables": [1]}, "env_variables must be an object"),
    ],
)
def test_bad_create_requests_get_a_400_with_a_reason(local_host, body, message):
    response = httpx.post(f"{local_host.base_url}/v1/env/instances", json=body, headers=AUTH)
    assert response.status_code == 400
    assert message in response.json()["detail"]


def test_unknown_routes_answer_json(local_host):
    response = httpx.get(f"{local_host.base_url}/v1/nothing-here", headers=AUTH)
    assert response.status_code == 404 and response.json() == {"detail": "Not Found"}


async def test_instance_root_lists_its_endpoints(fleet_client):
    env = await fleet_client.make("desktop-todo")
    try:
        index = httpx.get(env.urls.root, headers=AUTH).json()
        assert index["mcp"] == [f"{env.urls.root}mcp", f"{env.urls.root}api/v1/mcp"]
        assert index["manager"] == env.urls.manager.api
    finally:
        await env.close()


def test_the_sync_sdk_works_too(local_host):
    from fleet_tui.local import bundled_task_files

    client = fleet.Fleet(api_key=TEST_API_KEY, base_url=local_host.base_url)
    env = client.make("tracker")
    try:
        env.instance.load()
        assert env.db().query("SELECT count(*) FROM users").rows == [[4]]
        tasks = {
            task.key: task
            for task in client.load_tasks_from_file(str(bundled_task_files()["tracker"]))
        }
        response = tasks["tracker-close-footer-link"].verify_detailed(env)
        assert response.success and response.result == 0
        assert "status=open" in response.stdout
    finally:
        env.close()
    assert client.instance(env.instance_id).status == "stopped"
