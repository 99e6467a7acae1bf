"""The type stubs describe the extension module as built."""

import ast
import pathlib

import carcassonne
from carcassonne import _carcassonne

STUB = pathlib.Path(carcassonne.__file__).with_name("_carcassonne.pyi")
HELPERS = {"ActionLike", "RulesLike", "Score", "PythonAgent", "AgentLike", "_SelectingAgent"}


def stubbed():
    tree = ast.parse(STUB.read_text())
    names, classes = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            classes[node.name] = {
                n.name for n in node.body if isinstance(n, ast.FunctionDef)
            }
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets)
    return names - HELPERS, classes


def test_every_public_name_and_method_has_a_stub_and_every_stub_exists():
    names, classes = stubbed()
    public = {n for n in dir(_carcassonne) if not n.startswith("_")}
    assert names == public
    for cls, methods in classes.items():
        if cls in HELPERS or cls.endswith("Error"):
            continue
        runtime = {m for m in dir(getattr(_carcassonne, cls)) if not m.startswith("_")}
        stub_public = {m for m in methods if not m.startswith("_")}
        assert stub_public == runtime, cls
