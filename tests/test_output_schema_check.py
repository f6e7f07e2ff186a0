"""A tool's output schema is checked against its metaschema once, not at every call (that
check costs milliseconds per result); what the check finds is still said at every call."""

from __future__ import annotations

from fleet_tui.forms.validation import output_problems, validator_class


def test_an_output_schema_is_checked_once_for_all_its_results(monkeypatch):
    schema = {
        "type": "object",
        "properties": {"checked_once": {"type": "integer"}},
        "required": ["checked_once"],
    }
    cls = validator_class(schema)
    checks: list[object] = []
    check_schema = cls.check_schema

    def counted(checked):
        checks.append(checked)
        check_schema(checked)

    monkeypatch.setattr(cls, "check_schema", counted)
    assert output_problems({"checked_once": 1}, schema) == []
    assert output_problems({"checked_once": "x"}, schema) == [
        "$.checked_once: 'x' is not of type 'integer'"
    ]
    assert output_problems({}, dict(schema)) == ["$: 'checked_once' is a required property"]
    assert len(checks) == 1


def test_an_invalid_output_schema_is_reported_at_every_call():
    schema = {"type": "object", "properties": {"n": {"type": "no such type"}}}
    for _ in range(2):
        [problem] = output_problems({"n": 1}, schema)
        assert problem.startswith("the tool's output schema is invalid:")
