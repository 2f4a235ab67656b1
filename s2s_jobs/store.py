"""The model store: the deployment's trained models in the app's database, one per (trainer, config, code version).

Every replica of a deployment (and every restart of one server) shares them through the database the classroom
uses ($S2S_DATABASE_URL, else the SQLite file in $S2S_DATA_DIR: s2s_db/settings.py). The rows and their claims are
s2s_db/trainings.py's; this module makes what goes in them:

- the key: a digest of the trainer's name, the full config and the code version, a hash of every project source
  file the trainer's code imports (followed through the imports, so a change to the model, the loop, the tasks, the
  grammar or a config default makes every old entry a miss), with torch's version and the training thread count;
- the bytes: the trainer's packed result (a state_dict and plain numbers, s2s_jobs/trainer.py) and the progress a
  watching replica draws (losses, evaluations, the latest map), written by torch.save and read back with
  torch.load(..., weights_only=True): never code. A row that cannot be read that way (corrupt, a hostile pickle,
  another trainer's or config's model) is refused with one line in the log and trained again, and the new model
  replaces it.

The runner (s2s_jobs/runner.py) claims a key before it trains, renews the claim while it trains, and keeps the
model when it is done; another replica that asks for the same key watches that training instead of training it
again, and takes it over if its owner's lease runs out (the replica died). An unreachable database never stops a
training: the store says so once in the log and stays out of the way for DOWN_SECONDS, and the runner trains
locally as a single server would.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import hashlib
import importlib.util
import io
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Iterable
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
import torch

from s2s_core.training.loop import EvalPoint
from s2s_core.training.trace import MapPoint
from s2s_db import trainings
from s2s_db.migrate import ready
from s2s_db.trainings import DONE, FAILED, FREE, RUNNING, Training
from s2s_jobs.settings import LEASE_SECONDS  # a claim lapses this long after its owner last renewed it

DOWN_SECONDS = 10.0  # after a database error, the store stays out of the way this long before it tries again
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


def new_owner() -> str:
    """This server process's name in the rows it claims: host, pid and a random part (a restarted process with the
    same pid is another owner)."""
    return f"{socket.gethostname()[:48]}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass(frozen=True)
class Claim:
    """What store.claim() found. mine: this replica trains it. result: a finished model to use as it is.
    elsewhere: the row another replica trains now (watch it). down: no database; train locally, unclaimed."""

    mine: bool = False
    result: Any = None
    elsewhere: Training | None = None
    down: bool = False


def pack_progress(losses: Iterable[tuple], evals: Iterable[Any], checkpoint: Any) -> bytes:
    """The progress a watching replica draws, as plain data (EvalPoint / MapPoint as tuples)."""
    buffer = io.BytesIO()
    payload = {
        "losses": tuple(tuple(x) for x in losses),
        "evals": tuple(astuple(e) if dataclasses.is_dataclass(e) else e for e in evals),
        "checkpoint": astuple(checkpoint) if dataclasses.is_dataclass(checkpoint) else None,
    }
    torch.save(payload, buffer)
    return buffer.getvalue()


def unpack_progress(data: bytes | None) -> tuple[list, list, Any]:
    """pack_progress()'s bytes -> (losses, evals, checkpoint); empty for no bytes or bytes that are not progress."""
    if not data:
        return [], [], None
    try:
        payload = torch.load(io.BytesIO(data), weights_only=True)
        losses = [tuple(x) for x in payload["losses"]]
        evals = [EvalPoint(*e) for e in payload["evals"]]
        cp = payload["checkpoint"]
        checkpoint = None if cp is None else MapPoint(*cp)
    except Exception as e:  # a watcher draws less, never a traceback
        log.warning("model store: progress refused (%s: %s)", type(e).__name__, e)
        return [], [], None
    return losses, evals, checkpoint


class ModelStore:
    """The deployment's trained models (see the module's docstring). Every method is safe to call with the database
    down: it logs, and answers as if the store were empty (load, claim) or does nothing (renew, finish, give_up)."""

    def __init__(self, url: str | None = None, owner: str | None = None, lease: float = LEASE_SECONDS) -> None:
        self.url = url  # None: $S2S_DATABASE_URL or the SQLite file, read when the database is first needed
        self.owner = owner or new_owner()
        self.lease = lease
        self._down_until = 0.0  # monotonic time before which the store does not try the database again
        self._lock = threading.Lock()

    # --- keys and bytes ---------------------------------------------------------------------------------------------

    def key(self, trainer: Any, config: Any, threads: int) -> str:
        """A digest of (trainer, full config, code version): the row of one model."""
        key = repr((trainer.name, config_items(config), code_version(trainer, threads)))
        return hashlib.sha256(key.encode()).hexdigest()

    def _result(self, row: Training, trainer: Any, config: Any, threads: int) -> Any | None:
        """The model a DONE row holds, checked; None (named in the log) if it is not this trainer's, code's and
        config's, or its bytes are not a packed result."""
        try:
            if row.trainer != trainer.name or row.code != code_version(trainer, threads) or not row.result:
                raise ValueError("another trainer or code version, or no model")
            result = trainer.unpack(row.result)  # torch.load(..., weights_only=True) inside: never code
            if getattr(result, "config", config) != config:
                raise ValueError("the packed result is of another config")
        except Exception as e:  # a bad row is the store's problem, never the visitor's: train the model again
            log.warning("model store: %s refused (%s: %s); it is trained again", row.key[:12], type(e).__name__, e)
            return None
        return result

    # --- the database, with a pause after an error --------------------------------------------------------------

    def _engine(self) -> sa.Engine | None:
        if time.monotonic() < self._down_until:
            return None
        return ready(self.url)

    def _failed(self, what: str, error: Exception) -> None:
        with self._lock:
            first = time.monotonic() >= self._down_until
            self._down_until = time.monotonic() + DOWN_SECONDS
        if first:
            log.warning(
                "model store: %s failed (%s: %s); training goes on without it for %.0f s",
                what,
                type(error).__name__,
                str(error).splitlines()[0][:200],
                DOWN_SECONDS,
            )

    def _call(self, what: str, fn, *args, **kwargs):
        """fn(engine, *args, **kwargs), or None when the database is down (or fails now: then it is down)."""
        try:
            eng = self._engine()
            return None if eng is None else fn(eng, *args, **kwargs)
        except (sa.exc.SQLAlchemyError, OSError) as e:
            self._failed(what, e)
            return None

    # --- what the runner asks ---------------------------------------------------------------------------------------

    def read(self, key: str) -> Training | None:
        return self._call("a read", trainings.read, key)

    def read_many(self, keys: Iterable[str]) -> dict[str, Training]:
        return self._call("a read", trainings.read_many, list(keys)) or {}

    def load(self, trainer: Any, config: Any, threads: int) -> Any | None:
        """The stored model of config, or None (none; not finished; refused; the database down)."""
        row = self.read(self.key(trainer, config, threads))
        if row is None or row.state != DONE:
            return None
        return self._result(row, trainer, config, threads)

    def result_of(self, row: Training, trainer: Any, config: Any, threads: int) -> Any | None:
        """The model of a DONE row another replica finished (checked as load() checks it)."""
        return self._result(row, trainer, config, threads)

    def claim(self, trainer: Any, config: Any, threads: int, total: int, again: bool = False) -> Claim:
        """Claim config's training for this replica (see Claim). A stored model that is refused is claimed anew."""
        key = self.key(trainer, config, threads)
        args = {
            "trainer": trainer.name,
            "code": code_version(trainer, threads),
            "config": repr(config_items(config)),
            "owner": self.owner,
            "lease": self.lease,
            "total": total,
        }
        for _ in range(2):
            try:
                eng = self._engine()
                if eng is None:
                    return Claim(down=True)
                row = trainings.claim(eng, key, now=time.time(), again=again, **args)
            except (sa.exc.SQLAlchemyError, OSError) as e:
                self._failed("a claim", e)
                return Claim(down=True)
            if row is None:
                log.info("model store: %s claimed by %s (%s)", key[:12], self.owner, trainer.name)
                return Claim(mine=True)
            if row.state != DONE:
                return Claim(elsewhere=row)
            result = self._result(row, trainer, config, threads)
            if result is not None:
                return Claim(result=result)
            again = True  # a refused model: train it again, and the new one replaces it
        return Claim(down=True)

    def renew(self, key: str, step: int, total: int, seconds: float, progress: bytes | None) -> bool | None:
        """Renew this replica's claim with the progress so far; False: lost to another replica; None: no database."""
        return self._call(
            "a renewal", trainings.renew, key, self.owner, now=time.time(), lease=self.lease,
            step=step, total=total, seconds=seconds, progress=progress,
        )  # fmt: skip

    def finish(self, key: str, packed: bytes, step: int, total: int, seconds: float) -> None:
        if self._call(
            "keeping a model", trainings.finish, key, self.owner, now=time.time(), result=bytes(packed),
            step=step, total=total, seconds=seconds,
        ):  # fmt: skip
            log.info("model store: %s kept", key[:12])

    def give_up(self, key: str, error: str | None = None) -> None:
        self._call("a release", trainings.give_up, key, self.owner, now=time.time(), error=error)


__all__ = ["DONE", "FAILED", "FREE", "RUNNING", "Claim", "ModelStore", "Training", "code_version", "config_items"]
