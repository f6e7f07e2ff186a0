"""`/v1/verifiers/*` through the SDK: verifiers run in a child process against the
instance's SQLite state and every failure comes back as a clear error, never a hang."""

from __future__ import annotations

import fleet
import httpx
import pytest

from fleet_tui.local.verifier_worker import MAX_OUTPUT
from tests.fixtures.local_host import AUTH, TEST_API_KEY, execute_body, verifier_bundle
from tests.unruly_verifiers import ESCAPING, FLOOD, flood_cut_to, process_alive, started_pids

PASSING = """
def check_issue_count(env, final_answer=None):
    count = env.db("current").query("SELECT count(*) FROM issues").rows[0][0]
    seed = env.db("seed").query("SELECT count(*) FROM issues").rows[0][0]
    print(f"issues: {count} now, {seed} in the seed")
    return TASK_SUCCESSFUL_SCORE if count == seed == 8 else TASK_FAILED_SCORE
"""

FAILING = """
def expect_urgent_done(env, final_answer=None):
    status = env.db().query("SELECT status FROM issues WHERE id = 5").rows[0][0]
    print("status of #5:", status)
    return TASK_SUCCESSFUL_SCORE if status == "done" else TASK_FAILED_SCORE
"""

RAISING = """
def broken(env, final_answer=None):
    env.db("current").query("SELECT 1")
    raise ValueError("the verifier gave up")
"""

ANSWER = """
from fleet.verifiers.verifier import verifier

@verifier(key="answer")
def check_answer(env, final_answer=None):
    return TASK_SUCCESSFUL_SCORE if final_answer == "8 issues" else TASK_FAILED_SCORE
"""


def task_with(code: str) -> fleet.Task:
    return fleet.Task(key="probe", prompt="probe", env_id="tracker", verifier_func=code)


async def execute(env, code: str, function_name: str, timeout: int = 30, **kwargs):
    data, sha = verifier_bundle(code)
    args_array = [{"env": env.instance_id}]
    return await env.execute_verifier_remote(
        bundle_data=data,
        bundle_sha=sha,
        key="probe",
        function_name=function_name,
        args=tuple(args_array),
        args_array=args_array,
        kwargs=kwargs,
        timeout=timeout,
    )


@pytest.fixture
async def tracker(fleet_client):
    env = await fleet_client.make("tracker")
    yield env
    await env.close()


async def test_verify_detailed_passing(tracker):
    response = await task_with(PASSING).verify_detailed_async(tracker)
    assert response.success and response.result == 1
    assert "issues: 8 now, 8 in the seed" in response.stdout
    assert response.execution_time_ms >= 0 and response.error is None


async def test_verify_detailed_failing_then_passing_follows_the_state(tracker):
    task = task_with(FAILING)
    response = await task.verify_detailed_async(tracker)
    assert response.success and response.result == 0
    assert "status of #5: open" in response.stdout
    await tracker.instance.load()
    await tracker.db().exec("UPDATE issues SET status = 'done' WHERE id = 5")
    response = await task.verify_detailed_async(tracker)
    assert response.result == 1 and response.bundle_cache_hit  # the bundle was already known


async def test_verify_detailed_raising_reports_type_message_and_traceback(tracker):
    response = await task_with(RAISING).verify_detailed_async(tracker)
    assert not response.success and response.result is None
    assert response.error["type"] == "ValueError"
    assert response.error["message"] == "the verifier gave up"
    assert "verifier.py" in response.error["traceback"]
    with pytest.raises(Exception, match="the verifier gave up"):
        await task_with(RAISING).verify_async(tracker)  # the SDK re-raises remote errors


async def test_final_answer_and_decorated_verifiers(tracker):
    task = task_with(ANSWER)
    assert (await task.verify_detailed_async(tracker, final_answer="8 issues")).result == 1
    assert (await task.verify_detailed_async(tracker, final_answer="7")).result == 0


async def test_syntax_error_is_reported(tracker):
    response = await execute(tracker, "def verify(env:\n    return 1\n", "verify")
    assert not response.success
    assert response.error["type"] == "SyntaxError"


async def test_missing_function_is_reported(tracker):
    response = await execute(tracker, PASSING, "no_such_function")
    assert not response.success
    assert response.error["type"] == "LookupError"
    assert "no_such_function" in response.error["message"]


async def test_infinite_loop_times_out_and_the_host_keeps_serving(tracker):
    code = (
        "def spin(env, final_answer=None):\n    print('spinning')\n    while True:\n        pass\n"
    )
    response = await execute(tracker, code, "spin", timeout=1)
    assert not response.success
    assert response.error["type"] == "TimeoutError"
    assert "1 s" in response.error["message"]
    again = await task_with(PASSING).verify_detailed_async(tracker)
    assert again.result == 1


async def test_a_verifier_that_kills_its_process_is_reported(tracker):
    code = "import os\n\ndef die(env, final_answer=None):\n    os._exit(3)\n"
    response = await execute(tracker, code, "die")
    assert not response.success
    assert response.error["type"] == "RuntimeError" and "code 3" in response.error["message"]


async def test_stopped_instance_is_refused(fleet_client, local_host):
    env = await fleet_client.make("tracker")
    await env.close()
    quick = fleet.AsyncFleet(api_key=TEST_API_KEY, base_url=local_host.base_url, max_retries=0)
    env._client = quick.client
    with pytest.raises(Exception, match="stopped"):
        await task_with(PASSING).verify_detailed_async(env)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"args_array": {"env": "x"}}, "args_array must end with"),
        ({"bundle": "not base64!"}, "bundle is not base64"),
        ({"sha256": "0" * 64}, "bundle sha256 is"),
        ({"timeout": -5}, "timeout must be a positive number"),
    ],
)
def test_malformed_execute_requests_get_a_400(local_host, tracker_id, change, message):
    body = {**execute_body(PASSING, "check_issue_count", tracker_id), **change}
    response = httpx.post(f"{local_host.base_url}/v1/verifiers/execute", json=body, headers=AUTH)
    assert response.status_code == 400
    assert message in response.json()["detail"]


async def test_a_verifier_that_kills_the_pool_is_reported_and_the_pool_comes_back(tracker):
    code = (
        "import os, signal, time\n\n"
        "def kill_pool(env, final_answer=None):\n"
        "    env.db().exec('CREATE TABLE probe (pid INTEGER)')\n"
        "    env.db().exec('INSERT INTO probe VALUES (?)', [os.getpid()])\n"
        "    supervisor = open(f'/proc/{os.getppid()}/stat').read()\n"
        "    pool = int(supervisor.rsplit(')', 1)[1].split()[1])\n"
        "    os.kill(pool, signal.SIGKILL)\n"
        "    time.sleep(60)\n"
    )
    response = await execute(tracker, code, "kill_pool", timeout=20)
    assert not response.success
    assert "the verifier pool exited" in response.error["message"]
    await tracker.instance.load()
    pid = (await tracker.db().query("SELECT pid FROM probe")).rows[0][0]
    assert not process_alive(pid)  # the orphaned verifier was killed too
    assert (await task_with(PASSING).verify_detailed_async(tracker)).result == 1


async def test_a_timeout_kills_every_process_the_verifier_started(tracker, tmp_path):
    pid_file = tmp_path / "pids"
    response = await execute(tracker, ESCAPING, "escape", timeout=3, final_answer=str(pid_file))
    assert response.error["type"] == "TimeoutError"
    assert response.stdout == "started 3\n"
    pids = started_pids(pid_file)
    assert len(pids) == 3
    assert not [pid for pid in pids if process_alive(pid)]


async def test_a_flood_of_output_is_cut(tracker):
    response = await execute(tracker, FLOOD, "flood")
    assert response.success and response.result == 1.0
    assert response.stdout == flood_cut_to(MAX_OUTPUT)
