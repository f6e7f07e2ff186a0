"""Loading the mcp SDK's client modules without the server code its packages' `__init__` pull in.

`import mcp.client.session` first runs `mcp/__init__.py` and `mcp/client/__init__.py`, which
re-export the whole SDK: the in-process `Client` (and with it the server, starlette, uvicorn,
click, cryptography), stdio servers, session groups. A client never uses them, yet they were
about a third of importing the SDK, paid by every cold command.

`load_client_modules_only` puts the two packages in `sys.modules` as they are before their
`__init__` runs (the same spec, so the same `__path__`): their submodules then load as usual,
each with exactly the imports it names. It is safe because nothing is hidden: the first time
code asks either package for a name it does not have yet (`mcp.Client`, `from mcp import
ClientSession`), a submodule of that name is imported, or else the package's real `__init__`
runs in that same module, and the package is then what a plain import would have made.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType
from typing import Any

PACKAGES = ("mcp", "mcp.client")


def load_client_modules_only() -> None:
    """Before the first import of the mcp SDK: its packages without their `__init__` (see the
    module's docstring). Does nothing once any of them was imported."""
    if any(name in sys.modules for name in PACKAGES):
        return
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return  # the SDK is not installed: its import fails later, as it would
        package = importlib.util.module_from_spec(spec)
        package.__getattr__ = _complete_on_demand(package)  # type: ignore[method-assign]
        sys.modules[name] = package
        if "." in name:
            parent, _, child = name.rpartition(".")
            setattr(sys.modules[parent], child, package)


def _complete_on_demand(package: ModuleType) -> Any:
    """The package's `__getattr__` (PEP 562): a submodule by that name, else the package's
    real `__init__`, run once, and then the name as it defines it."""

    def attribute(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        submodule = f"{package.__name__}.{name}"
        if importlib.util.find_spec(submodule) is not None:
            return importlib.import_module(submodule)
        del package.__getattr__  # the real `__init__` defines everything from here on
        package.__spec__.loader.exec_module(package)  # type: ignore[union-attr]
        return getattr(package, name)

    return attribute
