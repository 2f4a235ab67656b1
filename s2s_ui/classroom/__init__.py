"""The classroom's UI: a teacher runs a lesson, the class follows (the rules: s2s_core/classroom; the rows: s2s_db)."""
