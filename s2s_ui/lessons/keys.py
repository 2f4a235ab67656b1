"""Two small inline-JS pieces of the lesson bar (st.components.v2, as Play in s2s_ui/play.py):

- the keyboard: ← and → press the bar's Back and Next buttons, unless the focus is in a field (a slider, a text
  box, a table) where the arrows already mean something;
- read aloud: the browser's own speech synthesis (Web Speech API) speaks the step's narration in ko-KR or en-US;
  no audio is made on the server. Where the browser has no speech, the button says so and is disabled.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from s2s_ui.i18n import lang, t

_KEYS_JS = """
export default function (component) {
  const { data, parentElement } = component;
  parentElement.replaceChildren();
  const FIELDS = 'input, textarea, select, [contenteditable="true"], [role="slider"], [role="grid"], .vega-bindings';
  const typing = (el) => el && el.closest(FIELDS);
  const onKey = (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (typing(document.activeElement)) return;
    const which = event.key === 'ArrowLeft' ? data.back : event.key === 'ArrowRight' ? data.next : null;
    const button = which && document.querySelector(which + ' button:not([disabled])');
    if (!button) return;
    event.preventDefault();
    button.click();
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
"""

_SPEAK_CSS = """
button {
  font-family: var(--st-font, inherit); font-size: 1rem; line-height: 1.6; cursor: pointer; min-height: 2.5rem;
  padding: 0.25rem 0.75rem; border-radius: var(--st-button-radius, 0.5rem);
  border: 1px solid var(--st-border-color, rgba(49, 51, 63, 0.2));
  background: var(--st-background-color, transparent);
  color: var(--st-text-color, inherit);
}
button:hover { border-color: var(--st-primary-color, #B8588F); color: var(--st-primary-color, #B8588F); }
button[disabled] { cursor: not-allowed; opacity: 0.6; }
button:focus-visible { outline: 2px solid var(--st-primary-color, #B8588F); outline-offset: 2px; }
"""

_SPEAK_JS = """
export default function (component) {
  const { data, parentElement } = component;
  parentElement.replaceChildren();
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 's2s-speak';
  parentElement.appendChild(button);
  const synth = window.speechSynthesis;
  const show = (speaking) => {
    button.textContent = speaking ? data.stop : data.speak;
    button.setAttribute('aria-pressed', speaking ? 'true' : 'false');
  };
  if (!synth || typeof SpeechSynthesisUtterance === 'undefined') {
    button.textContent = data.unsupported;
    button.disabled = true;
    return;
  }
  button.addEventListener('click', () => {
    if (synth.speaking) { synth.cancel(); show(false); return; }
    const utterance = new SpeechSynthesisUtterance(data.text);
    utterance.lang = data.lang;
    const voice = synth.getVoices().find(v => v.lang && v.lang.toLowerCase().startsWith(data.lang.slice(0, 2)));
    if (voice) utterance.voice = voice;
    utterance.onend = () => show(false);
    utterance.onerror = () => show(false);
    show(true);
    synth.speak(utterance);
  });
  show(false);
  return () => synth.cancel();
}
"""

_keys = st.components.v2.component("s2s_lesson_keys", js=_KEYS_JS)
_speak = st.components.v2.component("s2s_speak", css=_SPEAK_CSS, js=_SPEAK_JS)
VOICE = {"ko": "ko-KR", "en": "en-US"}


def arrow_keys(back_key: str, next_key: str) -> Any:
    """← / → press the buttons drawn with Streamlit keys `back_key` and `next_key`."""
    return _keys(
        key="lesson_keys", data={"back": f".st-key-{back_key}", "next": f".st-key-{next_key}"}, width="content"
    )


def read_aloud(text: str, key: str) -> Any:
    """A button that speaks `text` (plain text, no markdown) in the learner's language."""
    data = {
        "text": text,
        "lang": VOICE[lang()],
        "speak": t("lesson.speak"),
        "stop": t("lesson.speak_stop"),
        "unsupported": t("lesson.speak_none"),
    }
    return _speak(key=key, data=data, width="content")
