"""Shared fixtures live in tests/fixtures/, one module per area, loaded as pytest plugins."""

pytest_plugins = [
    "tests.fixtures.local_host",
    "tests.fixtures.mcp_servers",
    "tests.fixtures.asking_server",
    "tests.fixtures.catalog_server",
    "tests.fixtures.markup_server",
    "tests.fixtures.long_names",
    "tests.fixtures.info_server",
    "tests.fixtures.oauth_server",
    "tests.fixtures.openenv_servers",
    "tests.fixtures.raw_mcp",
    "tests.fixtures.talkative",
    "tests.fixtures.everything",
    "tests.fixtures.filesystem_server",
    "tests.fixtures.pypi_servers",
]
