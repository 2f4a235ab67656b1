"""The app as an ASGI application: `streamlit run server.py` (make run, the tests, the benchmarks).

The same app as `streamlit run app.py`, plus two routes of its own: the classroom's follow endpoint, which a
student's page polls without a script run (s2s_ui/classroom/route.py), and /_s2s/health, healthy only when the
database and the training pool are reachable (s2s_ui/health.py). Hosts that can only run app.py still work:
students then follow by the fragment poll.
"""

import streamlit as st

from s2s_ui.classroom.route import follow_routes
from s2s_ui.health import health_routes

app = st.App("app.py", routes=[*follow_routes(), *health_routes()])
