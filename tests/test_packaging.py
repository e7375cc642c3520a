"""Packaging rules: environment.yml mirrors pyproject.toml; the engine stays pure and light."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

import akvo

ROOT = Path(__file__).resolve().parents[1]
FRONT_END = (
    "scipy",
    "matplotlib",
    "ipywidgets",
    "IPython",
    "voila",
    "bqplot",
    "jupyter_client",
    "ipykernel",
    "akvo_widgets",
    "pandas",
)


def _pyproject_requirements() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = set(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        requirements |= set(extra)
    return requirements


def _environment_requirements() -> set[str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_lists = [d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d]
    assert len(pip_lists) == 1, "environment.yml needs exactly one pip: section"
    return {r for r in pip_lists[0] if r != "-e ."}


def test_environment_yml_mirrors_pyproject() -> None:
    assert _environment_requirements() == _pyproject_requirements()


def test_environment_yml_python_matches_requires_python() -> None:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert f"python{requires}" in env["dependencies"]


def test_front_end_set_is_pinned_together() -> None:
    """Voilà breaks when ipywidgets and jupyterlab_widgets drift apart (STACK-NOTES)."""
    pinned = {r.split("==")[0] for r in _pyproject_requirements() if "==" in r}
    assert {"voila", "ipywidgets", "jupyterlab_widgets", "jupyterlab"} <= pinned


def test_engine_never_imports_the_front_end() -> None:
    """Import every akvo module in a clean interpreter: no scipy, Jupyter or plotting."""
    modules = [
        m.name for m in pkgutil.walk_packages(akvo.__path__, "akvo.") if m.name != "akvo.__main__"
    ]
    code = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in {FRONT_END!r} if m in sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []
    assert len(modules) >= 4


def test_plain_import_is_light() -> None:
    code = "import sys, akvo; print(sorted(m for m in ('numpy', 'scipy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_widgets_package_is_importable_as_akvo_widgets() -> None:
    import akvo_widgets

    assert Path(akvo_widgets.__file__).parent == ROOT / "widgets"


def test_every_package_folder_is_installed() -> None:
    """A non-editable install ships only the listed packages: every folder must be there."""
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = set()
    for top, name in (("akvo", "akvo"), ("widgets", "akvo_widgets")):
        for init in (ROOT / top).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / top).parts
            found.add(".".join((name, *parts)))
    assert found == listed
