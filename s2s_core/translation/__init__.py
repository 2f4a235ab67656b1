"""Translation lab: a tiny Korean -> English seq2seq on the Training lab's trainer (task ko_en, the toy grammar in
s2s_core/grammar.py): its settings, the alignment score, the three-cell comparison, the recurrence proof."""
