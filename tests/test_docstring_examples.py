"""Every ```python example in a docstring of the package runs (the API
reference on the docs site shows them; docs/**/*.md and README.md are run by
pytest-markdown-docs in `make test`)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import textwrap
import warnings

import pytest

import gridwidgets

FENCE = re.compile(r"```python\n(.*?)```", flags=re.S)


def examples() -> list[tuple[str, str]]:
    found: dict[str, str] = {}
    for info in pkgutil.walk_packages(gridwidgets.__path__, "gridwidgets."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        own = [obj for _, obj in inspect.getmembers(module) if getattr(obj, "__module__", None) == info.name]
        objects = [module, *own]
        for obj in objects:
            members = [obj, *(m for _, m in inspect.getmembers(obj))] if inspect.isclass(obj) else [obj]
            for member in members:
                doc = inspect.getdoc(member) or ""
                for i, block in enumerate(FENCE.findall(doc)):
                    name = f"{info.name}.{getattr(member, '__qualname__', getattr(member, '__name__', '?'))}[{i}]"
                    found.setdefault(name, textwrap.dedent(block))
    return sorted(found.items())


with warnings.catch_warnings():  # getmembers() touches ipywidgets' deprecated class attributes
    warnings.simplefilter("ignore", DeprecationWarning)
    EXAMPLES = examples()


def test_there_are_examples_to_run():
    assert any("side_by_side" in name for name, _ in EXAMPLES)


@pytest.mark.parametrize("name, code", EXAMPLES, ids=[n for n, _ in EXAMPLES])
def test_docstring_example_runs(name, code):
    exec(compile(code, name, "exec"), {"__name__": "__docstring_example__"})


def doctest_modules() -> list[str]:
    """The package's modules whose docstrings hold ``>>>`` examples."""
    import doctest

    finder = doctest.DocTestFinder()
    names = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for info in pkgutil.walk_packages(gridwidgets.__path__, "gridwidgets."):
            if info.name.endswith("__main__"):
                continue
            module = importlib.import_module(info.name)
            if any(t.examples for t in finder.find(module)):
                names.append(info.name)
    return sorted(names)


DOCTEST_MODULES = doctest_modules()


def test_there_are_doctests():
    assert DOCTEST_MODULES, "no >>> examples found in the package"


@pytest.mark.parametrize("name", DOCTEST_MODULES)
def test_doctests_pass(name):
    """Every ``>>>`` example in the package's docstrings gives the output it shows."""
    import doctest

    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.attempted > 0 and result.failed == 0, f"{result.failed} of {result.attempted} failed in {name}"
