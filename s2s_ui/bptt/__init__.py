"""The backprop-through-time page's pieces: specs (the core's result and the charts, cached by value) and sections
(the tabs under the picture, each computing what it shows)."""
