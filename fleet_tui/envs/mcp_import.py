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

`defer_wire_schemas` makes the protocol's wire models (`mcp_types._v2025_11_25` and
`_v2026_07_28`, ~300 classes the SDK checks each message's shape against, one set per protocol
revision) build their pydantic validators when first used instead of when their classes are
made. A session speaks one revision and sends a handful of methods, so most were built for
nothing: about half of importing those packages. It is safe because it is pydantic's own
`defer_build` option, set on their shared base class `WireModel` before any subclass exists:
each model validates and serialises exactly as before, its schema built on first use.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

PACKAGES = ("mcp", "mcp.client")
WIRE_BASE = "mcp_types._wire_base"
"""The module of `WireModel`, the base class of every wire model of every revision."""


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


def defer_wire_schemas() -> None:
    """Before the first import of the mcp SDK: its wire models build their validators on first
    use (see the module's docstring). Does nothing once their base class was imported."""
    if WIRE_BASE in sys.modules or any(isinstance(f, _WireBaseFinder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _WireBaseFinder())


class _WireBaseFinder(importlib.abc.MetaPathFinder):
    """Finds `mcp_types._wire_base` as Python would, with a loader that sets `defer_build` on
    `WireModel` once the module has run (before the revisions' modules import it)."""

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name != WIRE_BASE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _DeferringLoader(spec.loader)
        return spec


class _DeferringLoader(importlib.abc.Loader):
    """The module's own loader; then `WireModel.model_config["defer_build"] = True`
    (`tests/test_import_paths.py` fails if the SDK's wire models no longer share it)."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        wire_model = getattr(module, "WireModel", None)
        if wire_model is not None:  # else an SDK without it: its models are built as they were
            wire_model.model_config["defer_build"] = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)  # get_source and the rest, for tracebacks
