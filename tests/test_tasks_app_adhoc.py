"""`--verifier FILE.py` in the app: the ad-hoc verifier file is read again on every run."""

from __future__ import annotations

from fleet_tui.tasks.verify import AdHocVerifier
from fleet_tui.ui.widgets.task_features import TaskFeatures
from tests.app_driver import SIZE
from tests.test_tasks_app import make_app, started, verdict_after


async def test_adhoc_verifier_is_read_again_on_every_run(local_host, tmp_path):
    verifier = tmp_path / "check.py"
    verifier.write_text("def check(env):\n    print('first')\n    return 0.0\n")
    features = TaskFeatures(adhoc=AdHocVerifier(verifier), mode="local")
    app = make_app(local_host, features)
    async with app.run_test(size=SIZE) as pilot:
        panel = await started(pilot, features)
        panel.verify()
        verdict, _ = await verdict_after(pilot, panel, 0)
        assert verdict.stdout == "first\n" and not verdict.passed
        verifier.write_text("def check(env, final_answer=None):\n    return 1.0\n")
        panel.verify()
        verdict, _ = await verdict_after(pilot, panel, 1)
        assert verdict.passed
        verifier.write_text("def check(env):\n    return 1 / 0\n")
        panel.verify()
        verdict, _ = await verdict_after(pilot, panel, 2)
        assert verdict.error_type == "ZeroDivisionError" and "1 / 0" in verdict.traceback
