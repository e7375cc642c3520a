"""Packaging rules: environment.yml mirrors pyproject.toml; the engine stays pure and light."""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import NamedTuple

import pytest
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
    "akvo_site",
    "pandas",
)


def _pyproject_requirements() -> set[str]:
    """Every requirement of the project and its extras (an extra that pulls another one,
    ``akvo[lab]``, is not a package of its own)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = set(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        requirements |= {r for r in extra if not r.startswith("akvo[")}
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


#: The three packages, each in the folder of its name: the engine, the book's kernel side
#: and its server.
PACKAGES = ("akvo", "akvo_widgets", "akvo_site")


def test_each_package_is_the_folder_of_its_name() -> None:
    for name in PACKAGES:
        module = importlib.import_module(name)
        assert Path(module.__file__ or "").parent == ROOT / name


def _tracked(prefix: str) -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", prefix], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return [name for name in listed.split("\0") if name]


# --- lean packages: the engine alone, the rest in extras --------------------------------------
#: What each extra must bring (by distribution name), and what the engine alone must not.
EXTRA_PACKAGES = {
    "lab": {"dask", "tqdm"},
    "online": {"httpx"},
    "book": {"voila", "jupyterlab", "ipywidgets", "bqplot", "anywidget", "segno"},
}
ENGINE_PACKAGES = {"numpy", "scipy", "mypy-extensions"}


def _name(requirement: str) -> str:
    """``dask[distributed]>=2024.8; extra == "lab"`` → ``dask``."""
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


class Wheel(NamedTuple):
    files: list[str]
    metadata: list[str]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Wheel:
    """The files and METADATA lines of a wheel built (pip wheel, isolated build) from the
    committed files copied to a temporary folder, so that the work tree's build/ stays
    untouched."""
    work = tmp_path_factory.mktemp("wheel")
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (work / "src" / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, work / "src" / name)
    pip = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(work / "dist")]
    subprocess.run([*pip, str(work / "src")], capture_output=True, check=True, timeout=600)
    (built,) = (work / "dist").glob("akvo-*.whl")
    with zipfile.ZipFile(built) as archive:
        names = archive.namelist()
        assert not [n for n in names if n.endswith(".so")], "the wheel is pure Python"
        metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
        return Wheel(names, archive.read(metadata).decode().splitlines())


@pytest.fixture(scope="module")
def wheel_metadata(wheel: Wheel) -> list[str]:
    return wheel.metadata


def test_the_wheel_ships_every_package_and_its_files(wheel: Wheel) -> None:
    """Every committed file of the three packages is in a wheel (subpackages are found, the
    pages' JavaScript and CSS, the templates and the tables' static files are package data);
    the tests, benchmarks and notebooks are not."""
    shipped = set(wheel.files)
    committed = [name for package in PACKAGES for name in _tracked(f"{package}/")]
    assert [name for name in committed if name not in shipped] == []
    assert any(name.startswith("akvo_site/templates/voila/") for name in shipped)
    assert not [name for name in shipped if name.startswith(("tests/", "benchmarks/", "book/"))]


def test_the_wheel_requires_the_engine_alone_and_offers_the_extras(
    wheel_metadata: list[str],
) -> None:
    requires = [
        line.split(":", 1)[1].strip()
        for line in wheel_metadata
        if line.startswith("Requires-Dist:")
    ]
    plain = {_name(r) for r in requires if "extra ==" not in r}
    assert plain == ENGINE_PACKAGES
    extras = {
        line.split(":", 1)[1].strip()
        for line in wheel_metadata
        if line.startswith("Provides-Extra:")
    }
    assert extras == {"lab", "online", "book", "test"}
    for extra, wanted in EXTRA_PACKAGES.items():
        brought = {_name(r) for r in requires if f'extra == "{extra}"' in r}
        assert wanted <= brought, (extra, wanted - brought)
    test_extra = [r for r in requires if 'extra == "test"' in r]
    assert any(r.startswith("akvo[") and all(e in r for e in EXTRA_PACKAGES) for r in test_extra)


#: Blocks every optional package, as on a machine where only ``pip install akvo`` ran.
BLOCKER = """
import importlib.abc, sys
BLOCKED = {blocked!r}
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Block())
"""
OPTIONAL = (
    "dask", "distributed", "tqdm", "httpx", "ipywidgets", "IPython", "voila", "jupyterlab",
    "bqplot", "anywidget", "segno", "traitlets", "ipykernel", "jupyter_client", "matplotlib",
)  # fmt: skip


PLAY_WITHOUT_EXTRAS = """
import importlib, json
for name in {modules!r}:
    importlib.import_module(name)
from akvo.extras import MissingExtra
from akvo.lab import simulate
from akvo.lab.run import dask_client
from akvo.online import client
teams = ("perrockiss", "fish-tank")
run = simulate(*teams, ("greedy", "random"), None, 2, 1, workers=0, progress=False)
errors = []
for attempt in (lambda: dask_client(workers=2).__enter__(), lambda: client.main(["x", "t", "k"])):
    try:
        attempt()
    except MissingExtra as error:
        errors.append(str(error))
loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
print(json.dumps({{"matches": len(run), "errors": errors, "loaded": loaded}}))
"""


def test_the_engine_imports_and_plays_without_any_extra() -> None:
    """Every akvo module imports with the extras' packages blocked; a match, the lab's
    in-process simulation and the CLI still work; Dask's first use names the extra."""
    modules = [
        m.name for m in pkgutil.walk_packages(akvo.__path__, "akvo.") if m.name != "akvo.__main__"
    ]
    code = BLOCKER.format(blocked=set(OPTIONAL)) + PLAY_WITHOUT_EXTRAS.format(modules=modules)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    found = json.loads(out.stdout.splitlines()[-1])
    assert found["matches"] == 2 and found["loaded"] == []
    assert len(found["errors"]) == 2
    assert (
        "distributed is not installed" in found["errors"][0] and "akvo[lab]" in found["errors"][0]
    )
    assert "httpx is not installed" in found["errors"][1] and "akvo[online]" in found["errors"][1]


def test_a_missing_extra_is_one_line_on_the_command_line() -> None:
    argv = ["simulate", "perrockiss", "fish-tank", "-n", "2", "--workers", "2"]
    code = BLOCKER.format(blocked=set(OPTIONAL)) + (
        f"from akvo.cli import main\nraise SystemExit(main({argv!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    (line,) = [line for line in out.stderr.splitlines() if line.startswith("akvo: error")]
    assert "distributed is not installed" in line and "pip install 'akvo[lab]'" in line
