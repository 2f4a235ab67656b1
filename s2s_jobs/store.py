"""The trained-model store: the server's default models on disk, keyed by their full config and the code version.

One file per (trainer, config, code version) under `<S2S_DATA_DIR>/models/` (s2s_jobs/settings.py). A file holds
plain data only, written by torch.save and read back with torch.load(..., weights_only=True): the trainer's packed
result (a state_dict and numbers, s2s_jobs/trainer.py), the config as (field, value) pairs, and the code version.
A file that cannot be read that way (corrupt, truncated, a hostile pickle), or whose code version, trainer or config
is not the one asked for, is refused with one line in the log and never used; the caller trains the model again,
and the new file replaces it. Writes go to a temporary file in the same folder and are renamed into place
(os.replace): a reader sees the old file or the new one, never half of one.

Only the runner writes here, and only for its default models (s2s_jobs/runner.py: Runner.default): a visitor's
own run never does. The code version is a hash of every project source file the trainer's code imports (followed
through the imports, so a change to the model, the loop, the tasks, the grammar or a config default makes every
old entry a miss), with torch's version and the training thread count.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import functools
import hashlib
import importlib.util
import io
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

import torch

FORMAT = 1  # the file layout below; a file of another format is refused
ROOT = Path(__file__).resolve().parent.parent  # the repository: only its own modules make the code version
log = logging.getLogger(__name__)


def config_items(config: Any) -> tuple[tuple[str, Any], ...]:
    """A config as plain (field, value) pairs, its type's name first: what a store key and a file's check use."""
    if dataclasses.is_dataclass(config):
        items = tuple((f.name, getattr(config, f.name)) for f in dataclasses.fields(config))
    else:
        items = (("repr", repr(config)),)
    return (("type", type(config).__qualname__), *items)


def _module_file(name: str) -> Path | None:
    """The source file of a project module (None for anything outside the repository, or not a module)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    path = Path(spec.origin).resolve()
    package_dir = ROOT / name.partition(".")[0]  # the project's own packages, never the virtualenv's
    return path if (package_dir / "__init__.py").is_file() and package_dir in [path, *path.parents] else None


def _imports(path: Path, package: str) -> set[str]:
    """Module names a source file imports (absolute; `from a import b` also names a.b, which may be a module)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolved against this module's package
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def source_files(roots: tuple[str, ...]) -> tuple[Path, ...]:
    """Every project source file the modules `roots` import, directly or not (their packages' __init__ too)."""
    seen: dict[str, Path] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = _module_file(name)
        if path is None:
            continue
        seen[name] = path
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        parents = [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)]
        todo += parents + sorted(_imports(path, package))
    return tuple(sorted(set(seen.values())))


@functools.cache
def _files_hash(roots: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    for path in source_files(roots):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def code_version(trainer: Any, threads: int) -> str:
    """The version of everything that decides what `trainer` trains: the project files its functions' modules
    import (hashed once per process: the code a server runs does not change under it), torch's version, and the
    number of torch threads the training runs on."""
    roots = tuple(sorted({fn.__module__ for fn in (trainer.train, trainer.pack, trainer.unpack)}))
    return f"{_files_hash(roots)[:24]}-torch{torch.__version__}-t{threads}"


class ModelStore:
    """Default models on disk: load(trainer, config, threads) -> result or None; save(...) writes one atomically."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    def path(self, trainer: Any, config: Any, threads: int) -> Path:
        """The file of one entry: the trainer's name and a hash of (trainer, config, code version)."""
        key = repr((trainer.name, config_items(config), code_version(trainer, threads)))
        return self.root / f"{trainer.name}-{hashlib.sha256(key.encode()).hexdigest()[:32]}.pt"

    def load(self, trainer: Any, config: Any, threads: int) -> Any | None:
        """The stored result for config, or None (no entry; or an entry refused: named in the log, not raised)."""
        try:
            path = self.path(trainer, config, threads)
        except Exception as e:  # the code version could not be computed: no entry can be trusted
            log.warning("model store: no key for %s (%s: %s); it is trained", trainer.name, type(e).__name__, e)
            return None
        if not path.is_file():
            return None
        try:
            payload = torch.load(path, map_location="cpu", weights_only=True)  # tensors and plain data, never code
            expected = {
                "format": FORMAT,
                "trainer": trainer.name,
                "code": code_version(trainer, threads),
                "config": config_items(config),
            }
            if not isinstance(payload, dict) or any(payload.get(k) != v for k, v in expected.items()):
                raise ValueError("another format, trainer, code version or config")
            result = trainer.unpack(payload["packed"])
            if getattr(result, "config", config) != config:
                raise ValueError("the packed result is of another config")
        except Exception as e:  # a bad file is the store's problem, never the visitor's: train the model again
            log.warning("model store: %s refused (%s: %s); it is trained again", path.name, type(e).__name__, e)
            return None
        log.info("model store: %s loaded (%s)", path.name, trainer.name)
        return result

    def save(self, trainer: Any, config: Any, threads: int, packed: bytes) -> Path | None:
        """Write one entry: a temporary file in the same folder, flushed, then renamed over the entry. A failure is
        logged and leaves any older file as it was (the model is still served from memory)."""
        path = self.path(trainer, config, threads)
        payload = {
            "format": FORMAT,
            "trainer": trainer.name,
            "code": code_version(trainer, threads),
            "config": config_items(config),
            "packed": bytes(packed),
        }
        buffer = io.BytesIO()
        torch.save(payload, buffer)
        tmp = None
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.root, prefix=f".{path.stem}.", suffix=".tmp")
            with os.fdopen(fd, "wb") as f:
                f.write(buffer.getvalue())
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide it from another server process of another user
            os.replace(tmp, path)
        except OSError as e:
            log.warning("model store: %s not written (%s)", path.name, e)
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            return None
        log.info("model store: %s written (%s)", path.name, trainer.name)
        return path
