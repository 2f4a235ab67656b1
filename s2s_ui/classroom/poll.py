"""The student's poller: a few lines of JavaScript (st.components.v2, no iframe) that ask the follow endpoint
(s2s_ui/classroom/route.py) and ask Streamlit for a full run only when the class changed.

    watch(code, version, every_s)   # in the student's box

The endpoint holds each request while the class stays at the version the page shows (a long poll) and answers
when the teacher moves; the next request begins no sooner than every_s after the last began, counted across the
poller's mounts (each run that redraws the box mounts it anew): a page that has just followed the class asks again as
soon as its last request is a second old, not a second after the redraw, so a teacher's second Next right after the
first reaches it at once (it waited up to 2 s: scripts/bench_class.py on the wire, 2026-12-07). Idle, a student's
page keeps one small request open: no script run, no redraw. A hidden tab (a phone with the screen off) asks
nothing new and asks at once when it is shown again. A refusal (the class is gone, expired, or the database is
down) asks for a full run too, which names it in the learner's language.
"""

from __future__ import annotations

import streamlit as st

from s2s_core.classroom import codes

_JS = """
export default function ({ data, setTriggerValue, parentElement }) {
  const host = parentElement;
  if (host.__s2sPoll) host.__s2sPoll();  // a new mount replaces the last one's timer
  let busy = false, stopped = false, timer = null;
  const abort = new AbortController();
  const url = `${data.url}?v=${data.version}`;  // the server holds the request while the class is at this version
  const tick = async () => {
    timer = null;
    if (busy || stopped || document.hidden) return;
    busy = true;
    const began = Date.now();
    window.__s2sPollBegan = began;  // this page's last follow request, whichever mount sent it
    try {
      const r = await fetch(url, { cache: "no-store", signal: abort.signal });
      const body = r.headers.get("content-type")?.includes("json") ? await r.json() : {};
      if (!stopped && (r.status !== 200 || body.version !== data.version)) {
        stop();
        setTriggerValue("changed", `${r.status}:${body.version ?? ""}`);
      }
    } catch (e) {
      // the network dropped (or this poller stopped): the next tick asks again
    } finally {
      busy = false;
    }
    // At most one request a second: the next one begins a second after this one began (a held one: at once).
    if (!stopped) timer = setTimeout(tick, Math.max(0, data.every_ms - (Date.now() - began)));
  };
  const onShow = () => { if (!document.hidden && timer === null) tick(); };
  document.addEventListener("visibilitychange", onShow);
  const stop = () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    abort.abort();
    document.removeEventListener("visibilitychange", onShow);
  };
  host.__s2sPoll = stop;
  // the first request of this mount: as soon as the page's last one (an earlier mount's) is every_ms old
  timer = setTimeout(tick, Math.max(0, data.every_ms - (Date.now() - (window.__s2sPollBegan ?? 0))));
  return stop;
}
"""

_poller = st.components.v2.component("s2s_class_poll", js=_JS)


def watch(code: str, version: int, every_s: float, mount: int) -> None:
    """Mount the poller for the class `code` as drawn at `version`; its trigger asks for the full run. `mount`
    counts the full runs that drew it: a new key each time, so a poller that stopped itself (a refusal it passed on
    to the full run, as when the database was out of reach) is mounted anew even when the version is the same."""
    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    url = f"{'/' + base if base else ''}/_class/{codes.parse_code(code)}"
    _poller(
        data={"url": url, "version": int(version), "every_ms": int(every_s * 1000)},
        key=f"class-poll-v{version}-m{mount}",  # no "__" in a component key (Streamlit reserves it)
        on_changed_change=lambda: None,
    )
