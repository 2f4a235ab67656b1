"""Router: language, grouped navigation over the pages that exist, shared sidebar. No page content here."""

from __future__ import annotations

import streamlit as st
import torch

from s2s_ui.classroom.panel import class_panel, class_sync
from s2s_ui.classroom.seat import class_seat, following, role, seat
from s2s_ui.classroom.turns import class_turn
from s2s_ui.frame import routing
from s2s_ui.i18n import init_language, lang, language_switch, t
from s2s_ui.lessons.bar import lesson_bar
from s2s_ui.navigation import grouped_pages
from s2s_ui.present import presenting
from s2s_ui.style import apply_style
from s2s_ui.training.warm import warm_up
from s2s_ui.widgets import new_run


@st.cache_resource
def _configure_torch() -> bool:
    """Once per server process: small tensors run fastest on one thread, and a demo server is shared."""
    torch.set_num_threads(1)
    return True


def main() -> None:
    """One run of the app: the shared frame, then the page."""
    _configure_torch()
    new_run()  # no message shown yet in this run: each appears once (s2s_ui/widgets.show_error)
    warm_up()  # once per server: the training pool starts, and every trainer's defaults train in the background
    init_language()
    st.set_page_config(page_title=t("ui.app_title"), page_icon="🔁", layout="wide")
    apply_style()  # the few CSS rules WCAG contrast needs on both themes (s2s_ui/style.py)
    language_switch()
    st.sidebar.caption(t("ui.sidebar_about"))

    # Presentation mode hides the sidebar: the page menu moves to the top bar instead (s2s_ui/present.py).
    navigation = st.navigation(grouped_pages(lang()), position="top" if presenting() else "sidebar", expanded=True)
    # A class link (?class=): the teacher's seat, or a student's (joined now when the link has none). In a class the
    # step's question is the class's, and a student who follows the teacher does not step on their own.
    class_seat()
    class_sync()  # the teacher's step moves the class; a following student opens the class's step (a new run)
    in_class = seat() is not None
    lesson_bar(navigation.url_path or "home", steer=not following(), own_question=not in_class)
    class_panel(navigation.url_path or "home")  # in a class: the teacher's controls or the student's follow
    with routing():  # pages check they run inside this router (s2s_ui/frame.py)
        navigation.run()


# A student's runs take turns with the rest of the class (a teacher's move wakes them all at once), so that the
# class is drawn first come, first served and other visitors are not stalled (s2s_ui/classroom/turns.py). The seat
# is the one this session held in its last run: a joining student's first run goes at once.
with class_turn(role() == "student"):
    main()
