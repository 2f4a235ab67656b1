"""s2s_ui: the small set of Streamlit pieces every page shares (language, inputs, checks, code, URL state)."""
