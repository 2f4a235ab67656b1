"""Hosted-demo readiness: requirements.txt is enough, /_stcore/health answers, no file written outside a temp
folder and the app's database in its data folder (data/classroom.sqlite3, which holds the default models), and
nothing fetched from the network while a browser walks the pages (in a copy of the app): every page in
`make test-all` (--full), the first deep link and two more pages in `make test` (tests/sizes.py)."""

from __future__ import annotations

import ipaddress
import os
import shutil
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

from s2s_core.catalog import translate
from s2s_ui.registry import existing_pages
from scripts.serve import free_port, start, stop, wait_healthy
from tests.browser.harness import main_text
from tests.robustness.browsing import open_settled
from tests.robustness.hosted import (
    APP_PARTS,
    BLOCKER,
    LOCAL,
    ROOT,
    app_imports,
    dev_only_modules,
    module_owners,
    requirement_names,
    runtime_closure,
    snapshot,
    stdlib,
)
from tests.sizes import pick


def test_app_code_imports_only_runtime_packages():
    allowed = runtime_closure(requirement_names(ROOT / "requirements.txt"))
    owners = module_owners()
    wrong = {}
    for mod, files in app_imports().items():
        if mod in stdlib() or mod in LOCAL or mod == "__future__":
            continue
        provided_by = owners.get(mod, set())
        if not provided_by & allowed:
            wrong[mod] = (sorted(provided_by) or ["not installed"], sorted(files))
    assert not wrong, f"imported by the app but not provided by requirements.txt: {wrong}"


def test_dev_packages_are_recognised_as_dev_only():
    """The blocker below really hides the test tools (else the readiness test proves nothing)."""
    blocked = dev_only_modules()
    assert {"pytest", "hypothesis", "playwright", "psutil", "pyinstrument"} <= blocked
    assert not {"streamlit", "torch", "altair", "pandas", "numpy"} & blocked


def _is_local(host: str | None) -> bool:
    if not host:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


@pytest.mark.browser
@pytest.mark.timeout(1800)  # one server start plus every page: slow on a busy 2-core machine
def test_hosted_demo_session_in_a_clean_copy(browser, tmp_path):
    import psutil

    # 1) A copy of exactly what a deploy ships, a fresh HOME and TMPDIR, dev-only packages unimportable.
    app, home, tmp = tmp_path / "app", tmp_path / "home", tmp_path / "tmp"
    for d in (app, home, tmp):
        d.mkdir()
    for part in APP_PARTS:
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, app / part, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.exists():
            shutil.copy2(src, app / part)
    log = tmp_path / "blocked_imports.log"
    launcher = tmp_path / "launch.py"
    launcher.write_text(BLOCKER.format(blocked=sorted(dev_only_modules()), log=str(log)))
    before_app = snapshot(app)  # home starts empty and must stay so
    port = free_port()
    # As a deploy runs: no S2S_DATA_DIR (the test session's own store), so the store is the app's data/ folder.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "STREAMLIT_", "S2S_DATA_DIR"))}
    env.update(
        HOME=str(home),
        TMPDIR=str(tmp),
        PYTHONNOUSERSITE="1",
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_CONFIG_HOME=str(home / ".config"),
    )
    proc = start(port, launcher=[sys.executable, str(launcher)], cwd=app, env=env)
    requests: list[str] = []
    remote: set[str] = set()
    try:
        wait_healthy(proc, port, timeout=120)
        server = psutil.Process(proc.pid)
        # 2) One visitor walks the pages (languages alternating); every request the browser makes is recorded.
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
        ctx.on("request", lambda r: requests.append(r.url))
        page = ctx.new_page()
        page.set_default_timeout(90_000)
        # The first request this server ever gets is a deep link to a page (not Home), in Korean: Streamlit
        # starts in its pages/-folder mode, and the visitor must still get the routed page (s2s_ui/frame.py).
        pages = sorted(existing_pages(), key=lambda spec: spec.ns != "masks")
        walk = pick(pages[:3], pages)  # `make test`: the first deep link and two more pages; --full: every page
        for i, spec in enumerate(walk):
            lang = ("ko", "en")[i % 2]
            open_settled(page, f"http://127.0.0.1:{port}/{spec.url}?lang={lang}")
            assert main_text(page).strip(), f"{spec.ns} drew nothing"
            if i == 0:
                assert page.locator('[role="dialog"]').count() == 0, "a first deep link met a dialog"
                assert translate("ko", "masks.title") in main_text(page)
                nav = page.locator('[data-testid="stSidebarNav"]').inner_text()
                assert all(translate("ko", f"{p.ns}.title") in nav for p in pages), nav
            remote |= {
                f"{c.raddr.ip}:{c.raddr.port}"
                for c in server.net_connections(kind="inet")
                if c.raddr and not _is_local(c.raddr.ip)
            }
        ctx.close()
    finally:
        stop(proc)
    # 3) Nothing fetched from anywhere but the app itself, by the page or by the server.
    outside = sorted(
        {
            u
            for u in requests
            if urlparse(u).scheme in ("http", "https", "ws", "wss") and not _is_local(urlparse(u).hostname)
        }
    )
    assert not outside, f"the page fetched from the network: {outside[:10]}"
    assert not remote, f"the server connected out: {sorted(remote)}"
    # 4) Nothing written into the app folder or the home folder (a temp folder is allowed), but the app's database
    # in its data folder (s2s_db/settings.py: the SQLite file and its write-ahead log), where the default models are
    # kept (s2s_jobs/store.py).
    after_app, after_home = snapshot(app), snapshot(home)
    changed = {k for k in set(before_app) | set(after_app) if before_app.get(k) != after_app.get(k)}
    stored = {k for k in changed if Path(k).parent == Path("data") and Path(k).name.startswith("classroom.sqlite3")}
    assert "data/classroom.sqlite3" in stored, "the default models were kept in the app's database"
    assert not changed - stored, f"files written in the app folder: {sorted(changed - stored)}"
    assert not after_home, f"files written in HOME: {sorted(after_home)}"
    # 5) The app's own code never even tried a dev-only package (libraries probing optional extras may).
    tried = sorted(set(log.read_text().splitlines())) if log.exists() else []
    by_app = [line for line in tried if str(app) in line.split(" ", 1)[-1]]
    assert not by_app, f"the app tried to import dev-only packages: {by_app}"
