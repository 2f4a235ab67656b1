"""The attention page's pieces: the picture (its step slider and the source picked with a click) and the folded
tabs that write every step out."""
