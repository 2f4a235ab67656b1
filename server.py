"""The app as an ASGI application: `streamlit run server.py` (make run, the tests, the benchmarks).

The same app as `streamlit run app.py`, plus one route of its own: the classroom's follow endpoint, which a
student's page polls without a script run (s2s_ui/classroom/route.py). Hosts that can only run app.py still work:
students then follow by the fragment poll.
"""

import streamlit as st

from s2s_ui.classroom.route import follow_routes

app = st.App("app.py", routes=follow_routes())
