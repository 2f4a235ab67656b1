"""The padding & masks page's UI parts: its registry (PAGE), cached results and specs, the tabs' bodies."""

from s2s_core.masks import fields
from s2s_ui.state import Page

PAGE = Page("masks", fields.FIELDS)
