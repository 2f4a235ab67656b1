"""The classroom core: codes and secrets, caps from the environment, transitions, roles, answers, rate limits."""

from __future__ import annotations

import base64
import math
import string
from collections import Counter
from dataclasses import replace
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from s2s_core.catalog import LANGS, load_catalog
from s2s_core.classroom import codes, limits, state
from s2s_core.classroom.answers import MAX_ANSWER_CHARS, parse_answer, tally
from s2s_core.classroom.ratelimit import JoinLimiter, RateLimiter
from s2s_core.errors import InputError

CROCKFORD = set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
TEN_MB = "A" * 10_000_000
# Invisible or direction-changing characters a paste can carry, NUL, a lone surrogate, full-width letters.
TRICKY = ["\u200b", "\u200d", "\ufeff", "\u202e", "\u200f", "\u2066", "\x00", "\ud800", "Ａ", "\u00a0", "ß", "﷽"]
HOSTILE_FIXED = [None, 0, -1, 2**80, 1.5, math.nan, b"ABCD1234", bytearray(b"x"), [], {}, object(), True, "", TEN_MB]
anything = st.one_of(
    st.none(),
    st.integers(),
    st.floats(allow_nan=True),
    st.binary(max_size=64),
    st.text(max_size=80),
    st.text(alphabet=st.sampled_from(sorted(CROCKFORD) + TRICKY + ["-", " ", "o", "i", "l"]), max_size=40),
    st.lists(st.integers(), max_size=3),
)


def _params_are_not_user_text(err: InputError) -> None:
    """No message carries the value that was typed: only numbers of the code's own making."""
    assert all(isinstance(v, int) and not isinstance(v, bool) for v in err.params.values()), err.params


def _input_error_or(fn, value):
    """fn(value), or None when it raised InputError; any other exception fails the test."""
    try:
        return fn(value)
    except InputError as err:
        assert err.key in load_catalog("en") and err.field in load_catalog("en"), (err.key, err.field)
        _params_are_not_user_text(err)
        return None


# --- codes -----------------------------------------------------------------------------------------------------


def test_ten_thousand_codes_are_crockford_8_symbols_and_distinct():
    batch = [codes.new_code() for _ in range(10_000)]
    assert all(len(c) == 8 for c in batch)
    assert set("".join(batch)) <= CROCKFORD
    assert len(set(batch)) == len(batch)
    assert codes.CODE_LEN * math.log2(len(codes.ALPHABET)) >= 40
    # Every symbol is used about equally (80 000 draws, 2 500 expected each; 8 standard deviations is ±400):
    # a skewed or constant source would fail, an honest one essentially never does.
    counts = Counter("".join(batch))
    assert set(counts) == CROCKFORD
    assert all(2100 < n < 2900 for n in counts.values()), counts


def test_codes_come_from_the_secrets_module(monkeypatch):
    monkeypatch.setattr(codes.secrets, "choice", lambda seq: seq[-1])
    assert codes.new_code() == "ZZZZZZZZ"


def test_secrets_and_tokens_carry_256_and_128_bits():
    secret, token = codes.new_secret(), codes.new_token()
    assert len(base64.urlsafe_b64decode(secret + "=" * (-len(secret) % 4))) == 32
    assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) == 16
    assert len({codes.new_secret() for _ in range(1000)}) == 1000
    assert codes.parse_secret(secret, "classroom.field.teacher_link") == secret
    assert codes.parse_secret(f"  {token}\n", "classroom.field.student_link") == token


def test_digest_is_sha256_hex_and_not_the_secret():
    secret = codes.new_secret()
    stored = codes.digest(secret)
    assert len(stored) == 64 and set(stored) <= set(string.hexdigits.lower())
    assert secret not in stored and stored != codes.digest(codes.new_secret())


@given(st.text(alphabet=sorted(CROCKFORD), min_size=8, max_size=8))
@settings(max_examples=300, deadline=None)
def test_code_normalisation_round_trips(code):
    shown = codes.show_code(code)
    assert shown == f"{code[:4]}-{code[4:]}"
    for typed in (shown, shown.lower(), code.lower(), f"  {code[:4]} {code[4:]} ", f"{code[:2]}-{code[2:]}"):
        assert codes.parse_code(typed) == code
    assert codes.parse_code(codes.show_code(shown)) == code


def test_code_lookalikes_full_width_and_invisible_marks():
    assert codes.parse_code("oIlO-abcd") == "0110ABCD"
    assert codes.parse_code("ＡＢＣＤ－１２３４") == "ABCD1234"  # a Korean keyboard's full-width mode
    assert codes.parse_code("AB\u200bCD\u202e-12\u00a034") == "ABCD1234"
    assert codes.parse_code("abcd\u20131234") == "ABCD1234"  # an en dash from a word processor


@pytest.mark.parametrize(
    "text",
    [
        "ABCD123",
        "ABCD12345",
        "ABCU1234",
        "ABCD!234",
        "AB\x00CD1234",
        "가나다라1234",
        "ABCD_1234",
        "ABCD.1234",
        "A" * 33,
        TEN_MB,
    ],
)
def test_bad_codes_are_refused(text):
    with pytest.raises(InputError) as err:
        codes.parse_code(text)
    assert (err.value.key, err.value.field) == ("classroom.errors.bad_code", "classroom.field.code")
    assert err.value.params == {}


@pytest.mark.parametrize("value", HOSTILE_FIXED + TRICKY + [t * 8 for t in TRICKY])
def test_hostile_fixed_values_in_every_parse_function(value):
    _check_every_parser(value)


@given(anything)
@settings(max_examples=400, deadline=None)
def test_hostile_generated_values_in_every_parse_function(value):
    _check_every_parser(value)


def _check_every_parser(value):
    code = _input_error_or(codes.parse_code, value)
    assert code is None or (len(code) == 8 and set(code) <= CROCKFORD)
    secret = _input_error_or(lambda v: codes.parse_secret(v, "classroom.field.teacher_link"), value)
    assert secret is None or (22 <= len(secret) <= 64 and secret.isascii())
    answer = _input_error_or(lambda v: parse_answer(v, ("a", "b", "c")), value)
    assert answer in (None, "a", "b", "c")
    for name in limits.ENV_VARS:
        result = _input_error_or(lambda v, n=name: limits.limits_from_env({n: v}), value)
        assert result is None or isinstance(result, limits.Limits)
    assert codes.matches(value, codes.digest(codes.new_secret())) is False
    assert codes.matches(codes.new_secret(), value) is False
    assert state.allowed(value, "move") is (value == "teacher")
    assert state.allowed("student", value) is (value in ("answer", "follow", "leave"))


def test_a_ten_megabyte_value_is_refused_before_any_work(monkeypatch):
    """The length caps come first: with the text-processing steps made to fail, huge values are still an
    InputError (or False), so nothing ever normalised, matched or hashed them."""
    stored = codes.digest(codes.new_secret())

    def must_not_run(*_args, **_kwargs):
        raise AssertionError("worked on an over-long value")

    class Refuse:
        fullmatch = staticmethod(must_not_run)

    monkeypatch.setattr(codes, "unicodedata", SimpleNamespace(normalize=must_not_run, category=must_not_run))
    monkeypatch.setattr(codes, "_SECRET", Refuse())
    monkeypatch.setattr(codes, "digest", must_not_run)
    for fn in (codes.parse_code, lambda v: codes.parse_secret(v, "classroom.field.teacher_link")):
        with pytest.raises(InputError):
            fn(TEN_MB)
    assert codes.matches(TEN_MB, stored) is False
    with pytest.raises(InputError):
        parse_answer(TEN_MB, [TEN_MB])
    for name in limits.ENV_VARS:
        with pytest.raises(InputError):
            limits.limits_from_env({name: TEN_MB})


# --- matches ---------------------------------------------------------------------------------------------------


def test_matches_only_the_exact_secret():
    secret = codes.new_secret()
    stored = codes.digest(secret)
    assert codes.matches(secret, stored) is True
    forged = [
        stored,  # the digest itself, e.g. read from a leaked backup
        stored.upper(),
        secret.upper() if secret.upper() != secret else secret.lower(),
        secret + "A",
        secret[:-1],
        secret[1:],
        f" {secret}",
        secret + "\x00",
        codes.new_secret(),
        codes.new_token(),
        "",
    ]
    forged += [secret[:n] for n in range(len(secret))]  # every prefix
    forged += [secret[:i] + ("A" if c != "A" else "B") + secret[i + 1 :] for i, c in enumerate(secret)]
    assert [f for f in forged if codes.matches(f, stored)] == []


def test_matches_refuses_a_malformed_stored_digest():
    secret = codes.new_secret()
    stored = codes.digest(secret)
    for bad in (stored[:-1], stored + "0", stored.upper(), "é" * 64, "", None, stored.encode()):
        assert codes.matches(secret, bad) is False


def test_token_matches_too():
    token = codes.new_token()
    assert codes.matches(token, codes.digest(token))
    assert not codes.matches(token[:-1], codes.digest(token[:-1]))  # below 128 bits: never accepted


# --- roles -----------------------------------------------------------------------------------------------------

TEACHER_ONLY = ("move", "reveal", "lock", "end", "tally")


def test_role_action_matrix_exhaustively():
    expected = {("teacher", a): a != "answer" for a in state.ACTIONS} | {
        ("student", a): a in ("answer", "follow", "leave") for a in state.ACTIONS
    }
    assert {(r, a): state.allowed(r, a) for r in ("teacher", "student") for a in state.ACTIONS} == expected
    for action in TEACHER_ONLY:
        assert not state.allowed("student", action)
    for role, action in [("Teacher", "move"), ("teacher ", "move"), ("student", "MOVE"), ("admin", "end")]:
        assert not state.allowed(role, action)


@pytest.mark.parametrize("action", TEACHER_ONLY)
def test_a_student_can_never_do_a_teacher_action_in_any_state(action):
    base = state.new_state("course", 5, now=0.0, lifetime_s=100.0)
    variants = [base, state.revealed(base), state.locked(base, True), state.ended(base)]
    for s in variants:
        for now in (0.0, 99.0, 1e9):
            with pytest.raises(state.ClassError) as err:
                state.authorize("student", action, s, now)
            assert err.value.key == "classroom.errors.not_teacher"


def test_authorize_open_locked_revealed():
    s = state.new_state("course", 5, now=0.0, lifetime_s=100.0)
    for action in state.ACTIONS:
        if action != "answer":
            state.authorize("teacher", action, s, 1.0)
    for action in ("answer", "follow", "leave"):
        state.authorize("student", action, s, 1.0)
    with pytest.raises(state.ClassError, match="not_teacher"):
        state.authorize("teacher", "answer", s, 1.0)
    with pytest.raises(state.ClassError, match="locked"):
        state.authorize("student", "leave", state.locked(s, True), 1.0)
    state.authorize("student", "leave", state.locked(state.locked(s, True), False), 1.0)
    with pytest.raises(state.ClassError, match="revealed"):
        state.authorize("student", "answer", state.revealed(s), 1.0)
    state.authorize("student", "answer", state.moved(state.revealed(s), 2), 1.0)  # a new step, a new question
    for now in (100.0, 1e12, math.nan, math.inf):
        with pytest.raises(state.ClassError, match="expired"):
            state.authorize("teacher", "move", s, now)
    for role, action in [("teacher", a) for a in TEACHER_ONLY] + [("student", "follow"), ("student", "answer")]:
        with pytest.raises(state.ClassError, match="ended"):
            state.authorize(role, action, state.ended(s), 1.0)


# --- transitions -----------------------------------------------------------------------------------------------


def test_new_state_and_expiry_by_now():
    s = state.new_state("course", 4, now=1000.0, lifetime_s=60.0)
    assert (s.step, s.version, s.revealed, s.locked, s.ended, s.expires_at) == (1, 1, False, False, False, 1060.0)
    assert state.is_open(s, 1000.0) and state.is_open(s, 1059.999)
    assert not state.is_open(s, 1060.0) and not state.is_open(s, math.nan)
    assert not state.is_open(state.ended(s), 1000.0)
    with pytest.raises(ValueError):
        state.new_state("course", 0, now=0.0, lifetime_s=1.0)


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.integers(1, 6)),
        st.tuples(st.just("reveal"), st.none()),
        st.tuples(st.just("lock"), st.booleans()),
    ),
    max_size=30,
)


@given(OPS)
@settings(max_examples=200, deadline=None)
def test_every_transition_adds_one_to_the_version(ops):
    s = state.new_state("course", 6, now=0.0, lifetime_s=10.0)
    for op, arg in ops:
        before = s
        if op == "move":
            s = state.moved(s, arg)
            assert (s.step, s.revealed) == (arg, False)
        elif op == "reveal":
            s = state.revealed(s)
            assert s.revealed and s.step == before.step
        else:
            s = state.locked(s, arg)
            assert s.locked is arg and s.revealed == before.revealed
        assert s.version == before.version + 1
        assert (s.lesson, s.n_steps, s.expires_at, s.ended) == ("course", 6, 10.0, False)
    final = state.ended(s)
    assert final.ended and final.version == s.version + 1
    assert s.version == 1 + len(ops)


def test_ended_refuses_every_transition():
    s = state.ended(state.new_state("course", 3, now=0.0, lifetime_s=10.0))
    for fn in (
        lambda: state.moved(s, 2),
        lambda: state.revealed(s),
        lambda: state.locked(s, True),
        lambda: state.ended(s),
    ):
        with pytest.raises(state.ClassError) as err:
            fn()
        assert err.value.key == "classroom.errors.ended"
    with pytest.raises(state.ClassError, match="ended"):
        state.check_join(s, 1.0, 0, 200)


@pytest.mark.parametrize("step", [0, 4, -1, 2**70, 1.0, 2.5, "2", None, True, math.nan, TEN_MB])
def test_a_move_outside_the_lesson_is_an_input_error(step):
    s = state.new_state("course", 3, now=0.0, lifetime_s=10.0)
    with pytest.raises(InputError) as err:
        state.moved(s, step)
    assert (err.value.key, err.value.field, err.value.params) == (
        "classroom.errors.bad_step",
        "classroom.field.step",
        {"lo": 1, "hi": 3},
    )


def test_a_state_is_frozen():
    s = state.new_state("course", 3, now=0.0, lifetime_s=10.0)
    with pytest.raises(AttributeError):
        s.step = 2  # type: ignore[misc]
    assert state.moved(s, 2) is not s and s.step == 1


def test_caps_on_joining_and_opening():
    s = state.new_state("course", 3, now=0.0, lifetime_s=10.0)
    state.check_join(s, 1.0, 199, 200)
    with pytest.raises(state.ClassError, match="full"):
        state.check_join(s, 1.0, 200, 200)
    with pytest.raises(state.ClassError, match="expired"):
        state.check_join(s, 10.0, 0, 200)
    state.check_new_class(99, 100)
    with pytest.raises(state.ClassError, match="too_many_classes"):
        state.check_new_class(100, 100)


# --- answers and tally -----------------------------------------------------------------------------------------


def test_parse_answer():
    options = ("up", "down", "same")
    assert parse_answer("down", options) == "down"
    assert parse_answer(" same\n", options) == "same"
    for bad in ("Down", "", "up,down", "u", "x" * (MAX_ANSWER_CHARS + 1), "up\x00"):
        with pytest.raises(InputError) as err:
            parse_answer(bad, options)
        assert (err.value.key, err.value.field) == ("classroom.errors.bad_answer", "classroom.field.answer")


def test_tally_counts_in_the_options_order_with_zeros():
    result = tally(["b", "a", "b", "zz", "b", None, "c"], ["c", "b", "a", "d", "b"])  # type: ignore[list-item]
    assert result.counts == (("c", 1), ("b", 3), ("a", 1), ("d", 0))
    assert result.total == 5
    empty = tally([], ["x", "y"])
    assert (empty.counts, empty.total) == ((("x", 0), ("y", 0)), 0)
    assert tally(iter(["x"] * 1000), ["y", "x"]).counts == (("y", 0), ("x", 1000))


@given(st.lists(st.sampled_from(["a", "b", "c", "q"]), max_size=300))
@settings(max_examples=100, deadline=None)
def test_tally_total_is_the_sum_of_the_bars(answers):
    result = tally(answers, ["a", "b", "c"])
    assert result.total == sum(n for _, n in result.counts) == sum(a != "q" for a in answers)
    assert [o for o, _ in result.counts] == ["a", "b", "c"]


# --- rate limits -----------------------------------------------------------------------------------------------


def test_burst_then_refusal_then_refill():
    limiter = RateLimiter(per_minute=6, burst=3)
    assert [limiter.allow("s", 0.0) for _ in range(4)] == [True, True, True, False]
    assert not limiter.allow("s", 9.9)  # one token every 10 s
    assert limiter.allow("s", 10.0) and not limiter.allow("s", 10.0)
    assert [limiter.allow("s", 1000.0) for _ in range(4)] == [True, True, True, False]  # refill stops at burst


def test_keys_are_independent():
    limiter = RateLimiter(per_minute=1, burst=1)
    assert limiter.allow("a", 0.0) and not limiter.allow("a", 0.0)
    assert limiter.allow("b", 0.0) and not limiter.allow("b", 0.0)


def test_a_clock_stepping_back_mints_no_tokens():
    limiter = RateLimiter(per_minute=60, burst=1)
    assert limiter.allow("s", 100.0)
    assert not limiter.allow("s", 50.0)
    assert not limiter.allow("s", 100.5)  # the bucket still counts from 100.0, not from 50.0
    assert limiter.allow("s", 101.0)


def test_memory_is_bounded_with_a_hundred_thousand_keys():
    limiter = RateLimiter(per_minute=6, burst=1, max_keys=1000)
    assert limiter.allow("old", 0.0) and not limiter.allow("old", 0.0)
    assert limiter.allow("kept", 0.0) and not limiter.allow("kept", 0.0)
    for i in range(100_000):
        assert limiter.allow(f"flood{i}", 1.0)
        if i % 500 == 0:
            assert not limiter.allow("kept", 1.0)  # used recently, so never the oldest
        assert len(limiter) <= 1000
    assert len(limiter) == 1000
    assert limiter.allow("old", 1.0)  # forgotten: the oldest went first


def test_rate_limiter_refuses_nonsense_settings():
    for args in ((0, 1), (1, 0), (1, 1, 0)):
        with pytest.raises(ValueError):
            RateLimiter(*args)


def test_join_limiter_per_session_and_per_server():
    gate = JoinLimiter(replace(limits.Limits(), session_joins_per_min=2, server_joins_per_min=5))
    gate.check("s1", 0.0)
    gate.check("s1", 0.0)
    with pytest.raises(state.ClassError, match="too_many_joins"):
        gate.check("s1", 0.0)
    for session in ("s2", "s3", "s4"):
        gate.check(session, 0.0)
    with pytest.raises(state.ClassError, match="too_many_joins"):
        gate.check("s5", 0.0)  # the server's 5 are spent, though s5 has its own 2
    gate.check("s5", 12.0)  # the server refills one every 12 s
    # A flood from fresh sessions cannot get past the server's bucket.
    admitted = 0
    for i in range(10_000):
        try:
            gate.check(f"fresh{i}", 72.0)  # a full minute after s5: the bucket is full again
            admitted += 1
        except state.ClassError:
            pass
    assert admitted == 5


def test_default_join_rates_admit_a_class_of_thirty_at_once():
    gate = JoinLimiter(limits.Limits())
    for i in range(30):
        gate.check(f"student{i}", 0.0)


# --- limits from the environment -------------------------------------------------------------------------------


def test_limits_defaults_and_good_values():
    assert limits.limits_from_env({}) == limits.Limits()
    assert limits.limits_from_env({"S2S_CLASS_HOURS": "", "S2S_CLASS_MAX_STUDENTS": "  "}) == limits.Limits()
    got = limits.limits_from_env(
        {"S2S_CLASS_HOURS": " 2 ", "S2S_CLASS_MAX_STUDENTS": "40", "S2S_MAX_OPEN_CLASSES": "1000", "OTHER": "x"}
    )
    assert (got.lifetime_s, got.max_students, got.max_open_classes) == (7200, 40, 1000)
    assert limits.Limits().lifetime_s == 6 * 3600 and limits.Limits().max_students == 200


@pytest.mark.parametrize("name", list(limits.ENV_VARS))
@pytest.mark.parametrize(
    "raw", ["0", "-1", "1001", "100000", "1.5", "1e3", "1_0", "٣", "x", "2h", "0x10", "\x00", TEN_MB]
)
def test_limits_bad_values_name_the_variable(name, raw):
    with pytest.raises(InputError) as err:
        limits.limits_from_env({name: raw})
    field = limits.ENV_VARS[name][1]
    assert (err.value.key, err.value.field) == ("classroom.errors.bad_setting", field)
    assert name in load_catalog("en")[field] and name in load_catalog("ko")[field]
    _params_are_not_user_text(err.value)


def test_class_hours_is_capped():
    assert limits.limits_from_env({"S2S_CLASS_HOURS": "72"}).lifetime_s == 72 * 3600
    with pytest.raises(InputError):
        limits.limits_from_env({"S2S_CLASS_HOURS": "73"})


# --- messages --------------------------------------------------------------------------------------------------


def test_every_classroom_message_exists_in_both_languages():
    keys = set(state.ERROR_KEYS) | {f for _, f, *_ in limits.ENV_VARS.values()}
    keys |= {"classroom.errors.bad_code", "classroom.errors.bad_secret", "classroom.errors.bad_answer"}
    keys |= {"classroom.errors.bad_step", "classroom.field.code", "classroom.field.answer", "classroom.field.step"}
    for lang in LANGS:
        catalog = load_catalog(lang)
        assert sorted(k for k in keys if k not in catalog) == [], lang
