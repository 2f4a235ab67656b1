"""Transitional alias: use s2s_ui.link.linked (this module goes once every page imports s2s_ui.link)."""

from s2s_ui.link import linked

__all__ = ["linked"]
