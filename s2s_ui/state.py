"""One state model per page: the page's field registry, and everything that reads it.

    PAGE = Page("rnn", FIELDS)                          # FIELDS: s2s_core/rnn/fields.py, the one declaration
    E = PAGE.input(fields.E, st.number_input, step=1)   # the linked widget of one field, registered
    PAGE.step(fields.STEP, build, n_steps, follow=...)  # the picture's step slider (s2s_ui/steps.py)
    PAGE.tabs([("ui.tab_check", show_check), ...])      # the folded details; the open tab is a field too
    PAGE.buttons(cases)                                 # Try this + Reset, over every key the page owns

Everything the learner sets (inputs, the picture's step, a picked element, the open tab) is a `Field` of the
page, lives in the session under the field's key and in the link as its raw value. Reset, Try-this, and later
lessons and the classroom, work on `Page.fields` alone: no hand-kept key lists. A session key or link
parameter the page owns is one whose name, before any "__" suffix (a table's "__base", a number's "__last"),
a field owns (`Field.owns`: its key, a family member, or an older alias).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from s2s_core.errors import InputError
from s2s_core.fields import Field, by_key
from s2s_ui import own_weights
from s2s_ui.i18n import lang, t
from s2s_ui.link import field_input, from_link, to_link
from s2s_ui.steps import StepEvent, new_view, step_view
from s2s_ui.widgets import guarded, matrix_input


@dataclass(frozen=True)
class TryCase:
    """A prepared state of a page: the link's parameters (raw values, as in a copied URL) and its note.

    note: catalog key of one line that says what to notice (never the answer to the page's question).
    label: catalog key of the button's short name.
    """

    label: str
    note: str
    params: Mapping[str, str]


def tab_id(label_key: str) -> str:
    """A tab's raw value in the link: its catalog key after "tab_" ("ui.tab_check" -> "check")."""
    return label_key.rsplit(".", 1)[-1].removeprefix("tab_")


class Page:
    """The field registry of one page (namespace `ns`) and the widgets drawn from it."""

    def __init__(self, ns: str, fields: Sequence[Field]) -> None:
        self.ns = ns
        self.fields: tuple[Field, ...] = tuple(fields)
        self._by_key = by_key(self.fields)

    @staticmethod
    def of(ns: str) -> Page:
        """The page's registry from its declaration, `s2s_core.<ns>.fields.FIELDS` (lessons, tests)."""
        return Page(ns, importlib.import_module(f"s2s_core.{ns}.fields").FIELDS)

    # --- the registry ------------------------------------------------------------------------------------

    def field(self, key: str) -> Field:
        return self._by_key[key]

    def owner(self, name: str) -> Field | None:
        """The field that owns a session key or link parameter (None: not this page's)."""
        base = name.split("__", 1)[0]
        return next((f for f in self.fields if f.owns(base)), None)

    def owns(self, name: str) -> bool:
        return self.owner(name) is not None

    def _registered(self, field: Field) -> Field:
        if self._by_key.get(field.key) is not field:
            raise KeyError(f"{field.key} is not a field of page {self.ns}: declare it in s2s_core/{self.ns}/fields.py")
        return field

    def link_state(self) -> dict[str, str]:
        """The link parameters this page owns, as raw text (what a lesson step or the classroom stores)."""
        return {k: v for k, v in st.query_params.to_dict().items() if self.owns(k)}

    # --- widgets --------------------------------------------------------------------------------------

    def input(
        self,
        field: Field,
        widget: Callable[..., Any],
        *,
        member: str | int | None = None,
        label: str | None = None,
        options: Sequence[Hashable] | None = None,
        labels: dict[Any, str] | None = None,
        lo: float | None = None,
        hi: float | None = None,
        decode: Callable[[str], Any] | None = None,
        default: Any = None,
        **kwargs: Any,
    ) -> Any:
        """The linked widget of one field (a family's member by `member`); label defaults to the field's own.

        default: this run's default when it depends on the other inputs (the masks page opens its sentence picker
        on the sentence with the most PAD); the link leaves it out like the field's own default, and the same
        link gives the same default again.
        """
        self._registered(field)
        key = field.member(member) if member is not None else field.key
        return field_input(
            field if default is None else replace(field, default=default, by_lang=()),
            widget,
            label if label is not None else t(field.label),
            lang=lang(),
            key=key,
            options=options,
            labels=labels,
            lo=lo,
            hi=hi,
            decode=decode,
            **kwargs,
        )

    def table(
        self,
        field: Field,
        default: Sequence[Sequence[float | str]],
        parse: Callable[[list[list[Any]]], Any],
        *,
        member: str | int | None = None,
        **kwargs: Any,
    ) -> Any | None:
        """An editable table field (s2s_ui/widgets.matrix_input): its rows parsed by the core, or None."""
        self._registered(field)
        key = field.member(member) if member is not None else field.key
        return matrix_input(key, default, field.label, parse=parse, **kwargs)

    def step(
        self,
        field: Field,
        build: Callable[[int], dict],
        n_steps: int,
        *,
        follow: Callable[[StepEvent], None] | None = None,
        default: int | None = None,
        **kwargs: Any,
    ) -> int:
        """The picture with its step slider inside (s2s_ui/steps.step_view); the step is this field.

        default: the first step when it depends on the inputs (as `input`'s); else the field's own."""
        self._registered(field)
        first = int(field.default or 1) if default is None else int(default)
        return step_view(field.key, build, n_steps, default=first, follow=follow, **kwargs)

    def keep_members(self, field: Field, keep: set[str]) -> None:
        """Of a family's members, only those in `keep` stay in the link (the others are not in effect now)."""
        self._registered(field)
        for name in [k for k in st.query_params if field.owns(k) and k != field.key and k not in keep]:
            to_link(name, None)

    def value(self, field: Field) -> Any:
        """A picked element's value (kind "pick"): from the session, first from the link; None when unset."""
        self._registered(field)
        if field.key not in st.session_state:
            st.session_state[field.key] = from_link(field.key, t(field.label), field.parse)
        return st.session_state[field.key]

    def current(self, field: Field) -> Any:
        """The value of an input whose widget is not drawn in this run (it sits in a closed tab), as that widget
        would hold it: the session's, else the link's (or an older alias's), else the default in the learner's
        language. Nothing is written, so the widget seeds as usual once its tab opens."""
        self._registered(field)
        default = field.default_for(lang())
        if field.key in st.session_state:
            kept = st.session_state[field.key]
            if field.by_lang and field.is_lang_default(kept) and field.key not in st.query_params:
                return default  # another language's untouched default: the widget would switch it too
            try:
                return field.check(kept)
            except InputError:
                pass  # a number typed out of range: the link holds the value in use
        name = next((n for n in (field.key, *field.aliases) if n in st.query_params), None)
        if name is None:
            return default
        value = from_link(name, t(field.label), lambda raw: field.check(field.parse(raw)))
        return default if value is None else value

    def remember(self, field: Field, value: Any) -> None:
        """Keep a picked element in the session and the link (None forgets it)."""
        self._registered(field)
        st.session_state[field.key] = value
        to_link(field.key, None if value is None else field.raw(value, lang()))

    def tabs(self, sections: Sequence[tuple[str, Callable[[], Any]]], field: Field | None = None) -> None:
        """Everything below the picture, folded into tabs: (catalog key of the tab's label, what draws it).

        Only the open tab runs (`on_change="rerun"`: switching tabs is one rerun), so an edit redraws the
        picture and one tab. The open tab is the page's `tab` field: in the link by its id ("?rnn_tabs=check"),
        kept across a language switch (the widget holds the translated label; the id says which). Each tab runs
        on its own (`guarded`) and computes what it shows itself: no tab reads what another tab drew.
        """
        field = field or next(f for f in self.fields if f.kind == "tab")
        self._registered(field)
        ids = [tab_id(label) for label, _ in sections]
        if tuple(ids) != field.options:
            raise ValueError(f"{self.ns}: tabs {ids} differ from the field's options {field.options}")
        labels = [t(label) for label, _ in sections]
        id_key = f"{field.key}__id"
        if field.key not in st.session_state and id_key not in st.session_state:
            st.session_state[id_key] = from_link(field.key, t("ui.tabs_field"), field.parse) or ids[0]
        if st.session_state.get(field.key) not in labels:  # first run, or the language changed
            wanted = st.session_state.get(id_key)
            st.session_state[field.key] = labels[ids.index(wanted)] if wanted in ids else labels[0]
        tabs = st.tabs(labels, key=field.key, on_change="rerun")
        for tab, name, (_, draw_section) in zip(tabs, ids, sections, strict=True):
            if tab.open:
                st.session_state[id_key] = name
                to_link(field.key, None if name == ids[0] else name)
                with tab:
                    guarded(draw_section)

    # --- Reset and Try this: every key the page owns -----------------------------------------------------

    def forget(self) -> None:
        """Forget every value of the page: its session keys (with their helpers) and its link parameters."""
        for name in [k for k in st.session_state if isinstance(k, str) and self.owns(k)]:
            del st.session_state[name]
        for f in self.fields:
            if f.kind == "step":
                st.session_state.pop(f"{f.key}_chart", None)  # the picture's own selection state
                new_view(f.key)  # and in the browser: the chart starts from its spec again
        for name in [k for k in st.query_params if self.owns(k)]:
            to_link(name, None)
        own_weights.forget(self.ns)  # a learner's uploaded weights (RNN, LSTM, GRU): not a field, but the page's

    def load(self, params: Mapping[str, str], pop_key: str | None = None) -> None:
        """Open a prepared state as if its link had been opened: forget everything, then write `params` (a
        button's callback: it runs before the rerun the click starts, so every field seeds from the link)."""
        self.forget()
        for name, raw in params.items():
            if self.owns(name):  # a key that means nothing here is ignored
                to_link(name, raw)
        if pop_key is not None:
            st.session_state[pop_key] = False

    def open(self, file: str, params: Mapping[str, str], keep: Mapping[str, str]) -> None:
        """Open this page (its script `file`) in a prepared state, a lesson step: everything forgotten, then the
        page starts with `params` (its own link values; a key that means nothing here is dropped) and `keep` (the
        link's language and lesson) as its link, exactly as if that link had been opened. Ends this run."""
        self.forget()
        link = {**keep, **{name: raw for name, raw in params.items() if self.owns(name)}}
        st.switch_page(file, query_params=link)

    def buttons(self, cases: Sequence[TryCase], *, where: Any = None) -> None:
        """Try this (2-4 prepared states in a popover, each with what to notice) and Reset, one under the other."""
        self.try_this(cases, where=where)
        self.reset_button(where=where)

    def try_this(self, cases: Sequence[TryCase], *, where: Any = None) -> None:
        pop_key = f"try_pop__{self.ns}"
        # on_change="rerun" makes the popover's open state a session value the click's callback can close.
        box = (where or st).popover(
            t("ui.try_this"), icon=":material/science:", width="stretch", key=pop_key, on_change="rerun"
        )
        with box:
            st.caption(t("ui.try_this_intro"))
            for n, case in enumerate(cases):
                st.button(
                    t(case.label),
                    key=f"try__{self.ns}__{n}",
                    width="stretch",
                    on_click=self.load,
                    args=(case.params, pop_key),
                )
                st.caption(t(case.note))

    def reset_button(self, *, where: Any = None) -> None:
        """Back to the defaults: every field of the page forgotten; the link keeps no parameter of the page."""
        (where or st).button(
            t("ui.reset"),
            key=f"reset__{self.ns}",
            help=t("ui.reset_help"),
            icon=":material/restart_alt:",
            width="stretch",
            on_click=self.forget,
        )
