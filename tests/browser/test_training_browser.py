"""Training lab in real Chromium: the untrained map first, train a few steps, see the progress bar and the trained
map appear, edit the source and read the redrawn output; a second session replays the recorded run; a bad source
gets a message; screenshots of the trained page."""

from __future__ import annotations

from pathlib import Path

import pytest

from s2s_core.catalog import translate
from tests.browser.harness import (
    DESKTOP,
    PHONE,
    charts_drawn,
    full_height,
    main_text,
    open_tab,
    settle,
    wait_for_text,
    wait_idle,
)
from tests.sizes import full

pytestmark = pytest.mark.browser
OUT = Path(__file__).resolve().parent.parent.parent / "screenshots"
# Small but not trivial: enough steps that the progress bar is on screen for a moment.
SMALL = "training_steps=80&training_hidden=16&training_embed=16&training_batch=32&training_max_len=6"
TRAINED = {"en": "On the held-out sources, which is higher", "ko": "평가용 입력에서 어느 쪽 토큰 정답률이"}  # the quiz


def _open(page, base_url: str, lang: str, extra: str) -> None:
    """Like conftest.open_page, with room for a busy machine, and closing Streamlit's "Page not found" box
    that a fresh server may show for a first deep link."""
    page.goto(f"{base_url}/training?lang={lang}&{extra}")
    settle(page, timeout=180_000)  # the first draw, and the rerun it may ask for
    close = page.locator('[role="dialog"] button[aria-label="Close"]')
    if close.count():
        close.first.click()
        wait_idle(page, timeout=180_000)


def _train(page, label: str, done_text: str) -> None:
    """Press the train button, see the live progress bar, then wait for the finished page (done_text).

    Training runs beside the page: a fragment polls the job, so the script is idle between polls while the
    model still trains. Waiting for idle alone is not enough; the text that only a trained model shows is."""
    # A short run can draw and finish its progress bar between two polls: an observer set up before the
    # click records that the bar was on screen at some moment.
    page.evaluate("""() => {
        window.__sawProgress = false;
        const seen = () => { if (document.querySelector('[data-testid="stProgress"]')) window.__sawProgress = true; };
        new MutationObserver(seen).observe(document.body, {childList: true, subtree: true});
    }""")
    page.get_by_role("button", name=label).click()
    page.wait_for_function("() => window.__sawProgress === true", timeout=120_000)
    wait_for_text(page, done_text, timeout=180_000)
    wait_idle(page, timeout=180_000)


def test_train_see_progress_and_map_then_edit_the_source(app_server, new_page):
    page = new_page()
    _open(page, app_server, "en", f"{SMALL}&training_seed=9001")
    assert "No model has been trained" in main_text(page)
    assert "Untrained: attention spread evenly" in _titles(page)  # the picture training will change
    untrained = _map_weights(page)
    assert len(untrained) >= 8 and max(untrained) < 0.5  # near-uniform over the eight digits
    _train(page, "Train", TRAINED["en"])
    assert "Trained: where each step looks" in _titles(page)
    assert "Sequences, free-running" not in main_text(page)  # the accuracies are the quiz's answer
    page.get_by_role("button", name="Show me the answer").click()
    wait_for_text(page, "Sequences, free-running")  # now the metrics (first tab, open)
    # loss, accuracy, map (+ what-if map): the charts arrive with the rerun that wrote the text, maybe just after it
    page.wait_for_function("() => document.querySelectorAll('[data-testid=\"stVegaLiteChart\"]').length >= 3")
    # Edit the source above the map: the output and the right answer beside it are redrawn for the new digits.
    box = page.get_by_role("textbox", name="Source digits")
    box.fill("4321")
    box.press("Enter")
    wait_for_text(page, "Right answer: 1234", timeout=120_000)
    wait_idle(page)
    page.wait_for_function("() => location.search.includes('training_source=4321')")  # shareable link


def test_the_map_keeps_its_axis_order_after_two_edits(app_server, new_page):
    """Vega orders a chart's categories itself, and when Streamlit swaps the map's data in place the labels the old
    data had come first (columns s2, s3, s4, s1; rows t3, t1, t2): the map's axes carry an explicit order. Edit the
    source twice (the second edit shares three column labels with the first) and read the drawn labels."""
    page = new_page()
    _open(page, app_server, "en", f"{SMALL}&training_seed=9001")  # the first test's model (trained here if alone)
    if page.get_by_role("button", name="Train", exact=True).count():
        _train(page, "Train", TRAINED["en"])
    box = page.get_by_role("textbox", name="Source digits")
    for digits in ("4321", "9321"):
        box.fill(digits)
        box.press("Enter")
        wait_for_text(page, f"Right answer: {digits[::-1]}", timeout=120_000)
        wait_idle(page)
    columns, rows = _map_axes(page, "Trained: where each step looks")
    assert columns == [f"s{s}" for s in range(1, 5)], columns  # source positions left to right
    assert rows == [f"t{t}" for t in range(1, len(rows) + 1)] and len(rows) >= 2, rows  # output steps top to bottom


def _map_axes(page, title: str) -> tuple[list[str], list[str]]:
    """The drawn order of the map's column labels (left to right: "s1", …) and row labels (top to bottom: "t1", …),
    read from the SVG of the visible chart titled `title`: each label's position on screen, not the data's order."""
    charts_drawn(page)
    find = """t => [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg')].find(svg =>
        [...svg.querySelectorAll('.role-title text')].some(e => e.checkVisibility() && e.textContent === t))"""
    page.wait_for_function(f"t => !!({find})(t)", arg=title)
    labels = page.evaluate(
        f"""t => {{
            const svg = ({find})(t);
            return [...svg.querySelectorAll('.role-axis-label text')].map(e => {{
                const box = e.getBoundingClientRect();
                return {{text: e.textContent, x: box.left + box.width / 2, y: box.top + box.height / 2}};
            }});
        }}""",
        title,
    )
    # A column label is drawn on two lines ("s1" over the digit): its text starts with s; a row label with t.
    columns = sorted((lab for lab in labels if lab["text"].startswith("s")), key=lambda lab: lab["x"])
    rows = sorted((lab for lab in labels if lab["text"].startswith("t")), key=lambda lab: lab["y"])
    return [lab["text"][:2] for lab in columns], [lab["text"].split(" ")[0] for lab in rows]


def _titles(page) -> list[str]:
    """The drawn titles of the visible charts (each SVG's title text)."""
    charts_drawn(page)
    return page.locator('[data-testid="stVegaLiteChart"] svg .role-title text').evaluate_all(
        "els => els.filter(e => e.checkVisibility()).map(e => e.textContent)"
    )


def _map_weights(page) -> list[float]:
    """The weights of the first visible map's cells, read from their accessible labels ('…; weight: 0.1092')."""
    labels = page.locator('[data-testid="stVegaLiteChart"] svg [role="graphics-symbol"]').evaluate_all(
        "els => els.filter(e => e.checkVisibility()).map(e => e.getAttribute('aria-label') || '')"
    )
    return [float(x.rsplit("weight: ", 1)[1]) for x in labels if "weight: " in x]


def test_a_second_session_watches_the_recorded_run(app_server, new_page):
    """Training is deterministic: a visitor who comes after the run replays its trace (progress, the loss so far,
    the map at its checkpoints) at its real pace, and no new job trains."""
    # 2000 steps, not SMALL's 80: the replay runs at the recorded pace. An 80-step run (under a second) was seen to
    # replay between two of the page's once-a-second polls on a loaded machine, leaving no frame to read; a 400-step
    # run left frames whose checkpoint map was replaced before Vega had drawn it (a clean-clone .ci/run saw the
    # progress bar but no map). With a checkpoint every 200 steps each map title stands for several polls here.
    settings = f"{SMALL.replace('training_steps=80', 'training_steps=2000')}&training_seed=9004"
    page = new_page()
    _open(page, app_server, "en", settings)
    _train(page, "Train", TRAINED["en"])
    page.context.close()

    later = new_page()
    _open(later, app_server, "en", settings)
    assert later.get_by_role("button", name="Train", exact=True).count() == 0  # nothing left to train
    later.evaluate(r"""() => {
        window.__replay = {steps: new Set(), maps: new Set(), titles: new Set()};
        const seen = () => {
            const bar = document.querySelector('[data-testid="stProgress"]');
            const m = bar && bar.innerText.match(/Step (\d+) of 2000/);
            if (m) window.__replay.steps.add(+m[1]);
            for (const title of document.querySelectorAll('[data-testid="stVegaLiteChart"] svg .role-title text')) {
                window.__replay.titles.add(title.textContent);
                // the checkpoint at step 0 has its own title ("Step 0 of 2000: before training")
                const t = title.textContent.match(/After step (\d+)|^Step (0) of 2000: before training/);
                if (t) window.__replay.maps.add(+(t[1] || t[2]));
            }
        };
        new MutationObserver(seen).observe(document.body, {childList: true, subtree: true, characterData: true});
    }""")
    later.get_by_role("button", name="Watch it train").click()
    wait_for_text(later, "Replaying the recorded run", timeout=60_000)
    # The replay ends by itself (its recorded seconds) and gives the trained picture back.
    wait_for_text(later, TRAINED["en"], timeout=180_000)
    later.wait_for_function("() => !document.querySelector('[data-testid=\"stProgress\"]')", timeout=180_000)
    wait_idle(later)
    steps = later.evaluate("() => [...window.__replay.steps]")
    maps = later.evaluate("() => [...window.__replay.maps]")
    # The replay drew its progress bar (frames at increasing times are tested in tests/core/test_training.py; under
    # load a once-a-second poll was seen to catch only one frame of a short run here, so one is what is asserted).
    assert steps and max(steps) <= 2000, steps
    # Checkpoint maps: step 0 and every 2000 // 10 steps. The replay's first frame carries step 0's map, so this
    # holds at any pace: CI's .ci/run (the whole test 27 s there, 93 s here: a much faster run and replay) saw
    # progress frames but no "After step" title, when only those were counted.
    titles = later.evaluate("() => [...window.__replay.titles]")  # what was drawn, should this fail again
    assert maps and all(m % 200 == 0 for m in maps), (maps, sorted(steps), titles)
    # The trained map replaces the replay's last frame in the same chart element: Vega redraws it after the rerun.
    # Its title is "Trained: where each step looks", or, when the run's time limit cut it (a loaded CI machine did),
    # "Trained 1469 of 2000 steps (time limit): where each step looks", on two lines (chartkit.title_lines): one
    # line was cut by Vega to "... where each step …" at the map's width, which three clean-clone .ci/run runs read
    # as "no trained title drawn". The lines are tspans of one text element, so spaces are not compared.
    trained = r"^Trained(\d+of2000steps\(timelimit\))?:whereeachsteplooks$"
    later.wait_for_function(
        r"""re => [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg .role-title text')]
                  .some(e => e.checkVisibility() && new RegExp(re).test(e.textContent.replace(/\s+/g, '')))""",
        arg=trained,
        timeout=180_000,  # as long as the other waits: a clean-clone .ci/run on a loaded machine took over 60 s
    )
    assert not [title for title in _titles(later) if "…" in title], _titles(later)  # no title cut short


def test_bad_source_from_a_link_is_named_in_korean(app_server, new_page):
    page = new_page(locale="ko-KR")
    _open(page, app_server, "ko", f"{SMALL}&training_seed=9002&training_source=12a3")
    _train(page, "학습 시작", TRAINED["ko"])
    open_tab(page, "어텐션 분포 그림")
    assert "그림 맨 위의 입력 칸을 고치면" in main_text(page)  # the map tab says why it has no steps
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="모델은 숫자 0–9만 압니다")
    assert alert.count() == 1
    assert "a" in alert.first.inner_text() and "입력" in alert.first.inner_text()
    open_tab(page, "병목")
    assert "병목을 직접 재 보기" in main_text(page)  # the rest of the page still works


def test_the_page_stays_live_while_the_job_trains_and_stop_ends_it(app_server, new_page):
    """Training runs beside the page: between polls the script is idle, the progress text moves on by itself
    (a fragment on a timer), and Stop ends the run and brings back the Train button."""
    page = new_page()
    _open(page, app_server, "en", "training_steps=3000&training_max_seconds=60&training_hidden=16&training_seed=9003")
    page.evaluate("""() => {
        window.__steps = [];
        const seen = () => {
            const bar = document.querySelector('[data-testid="stProgress"]');
            const app = document.querySelector('[data-testid="stApp"]');
            const idle = app.getAttribute('data-test-script-state') === 'notRunning';
            const m = bar && bar.innerText.match(/Step (\\d+) of 3000/);
            if (m && idle && !window.__steps.includes(+m[1])) window.__steps.push(+m[1]);
        };
        const watch = {childList: true, subtree: true, attributes: true, characterData: true};
        new MutationObserver(seen).observe(document.body, watch);
    }""")
    page.get_by_role("button", name="Train", exact=True).click()
    # Two different step counts seen while no script was running: the page polls, it does not block.
    page.wait_for_function("() => window.__steps.filter(s => s > 0).length >= 2", timeout=120_000)
    page.get_by_role("button", name="Stop training").click()
    wait_for_text(page, "Training was stopped after", timeout=60_000)
    wait_idle(page)
    assert page.get_by_role("button", name="Train", exact=True).count() == 1
    assert page.locator('[data-testid="stProgress"]').count() == 0


def test_while_it_trains_the_map_follows_its_checkpoints(app_server, new_page):
    """Issue 25: while a run trains, the picture is its latest checkpoint's map, titled with that step, not the
    untrained map, and beside it the loss curve grows. An observer reads the drawn SVG at every change while the
    progress bar is on screen (a fast machine may finish the run between two looks), then the run is stopped."""
    page = new_page()
    _open(page, app_server, "en", "training_steps=1000&training_max_seconds=60&training_hidden=16&training_seed=9005")
    page.evaluate(r"""() => {
        window.__live = [];
        const seen = () => {
            const bar = document.querySelector('[data-testid="stProgress"]');
            if (!bar || !/Step \d+ of 1000/.test(bar.innerText)) return;
            // Not the elements of the run being replaced (Streamlit keeps them, marked stale, until the rerun
            // that replaces them has drawn): the untrained map below gives way to the checkpoint's in one rerun.
            const svgs = [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg')]
                .filter(s => !s.closest('[data-stale="true"]'));
            const titled = t => svgs.find(s => [...s.querySelectorAll('.role-title text')]
                .some(e => e.checkVisibility() && e.textContent.match(t)));
            const map = titled(/^After step (\d+) of 1000$/);
            const loss = titled(/^Training loss so far$/);
            const line = loss && loss.querySelector('.mark-line path');
            window.__live.push({
                step: map ? +map.querySelector('.role-title text').textContent.match(/(\d+) of/)[1] : null,
                cells: map ? [...map.querySelectorAll('[role="graphics-symbol"]')]
                    .map(e => e.getAttribute('aria-label') || '').filter(x => x.includes('weight: ')).length : 0,
                untrained: svgs.some(s => /Untrained|before training/.test(s.textContent)),
                points: line ? (line.getAttribute('d').match(/[ML]/g) || []).length : 0,
            });
        };
        new MutationObserver(seen).observe(document.body, {childList: true, subtree: true, characterData: true});
    }""")
    page.get_by_role("button", name="Train", exact=True).click()
    # A checkpoint after some training (one every 100 steps), drawn while the bar still shows the run.
    page.wait_for_function("() => window.__live.some(x => x.step > 0 && x.cells >= 8)", timeout=240_000)
    live = page.evaluate("() => window.__live")
    maps = [x for x in live if x["step"]]
    assert maps and all(x["step"] % 100 == 0 and not x["untrained"] for x in maps), maps
    # The curve beside the map grows while the run goes on (the page polls the job once a second).
    page.wait_for_function(
        "() => { const p = window.__live.filter(x => x.step > 0).map(x => x.points); return Math.max(...p) > p[0]; }",
        timeout=120_000,
    )
    stop = page.get_by_role("button", name="Stop training")
    if stop.count():  # a fast machine may have finished the thousand steps meanwhile
        stop.click()
    wait_idle(page)


def _points_of(page, title: str) -> list[dict]:
    """The point marks of the visible chart titled `title`: each one's accessible label and drawn y (screen px)."""
    return page.evaluate(
        """t => {
            const svg = [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg')].find(s =>
                [...s.querySelectorAll('.role-title text')].some(e => e.checkVisibility() && e.textContent === t));
            return [...svg.querySelectorAll('.mark-symbol [role="graphics-symbol"]')].map(e => {
                const r = e.getBoundingClientRect();
                return {label: e.getAttribute('aria-label') || '', y: r.top + r.height / 2};
            });
        }""",
        title,
    )


def test_the_names_tasks_lines_stay_apart_where_they_meet(app_server, new_page):
    """Screenshot review: the names task's survival lines lay on one another at 100 % (and at 0 %). Each line is
    drawn a few pixels off its value, so points of the same length and rate are drawn at different heights."""
    page = new_page()
    settings = "training_task=names&training_steps=40&training_hidden=16&training_embed=16&training_batch=32"
    _open(page, app_server, "en", f"{settings}&training_seed=9006")
    _train(page, "Train", TRAINED["en"])
    open_tab(page, "Bottleneck")
    _train(page, "Train the comparison model (without attention)", "Names and numbers through the bottleneck")
    title = "How often the name and the number survive"
    page.wait_for_function(
        """t => [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg .role-title text')]
            .some(e => e.checkVisibility() && e.textContent === t)""",
        arg=title,
    )
    points = _points_of(page, title)
    assert len(points) >= 8, points  # two models x two items x the lengths
    same: dict[tuple[str, str], list[float]] = {}
    for point in points:  # "…; source length (tokens): 5; came through intact: 100%; …"
        parts = dict(part.split(": ", 1) for part in point["label"].split("; ") if ": " in part)
        length = next(v for k, v in parts.items() if k.startswith("source length"))
        rate = next(v for k, v in parts.items() if "%" in v)
        same.setdefault((length, rate), []).append(round(point["y"], 1))
    met = {key: ys for key, ys in same.items() if len(ys) > 1}
    assert met, same  # some lines meet (a 0 % or 100 % that two of them share)
    assert all(len(set(ys)) == len(ys) for ys in met.values()), met  # and are drawn apart there


def test_the_names_tasks_charts_are_not_clipped_on_a_phone(app_server, new_page):
    """Issue 25 leftovers: at 390 px in Korean the survival chart's y title ("온전히 나온 비율") stood 2-3 px past the
    chart's left edge and was cut (Hangul is drawn wider than Vega's estimate). Every text of every chart on the
    names task's Bottleneck tab and its first tab lies inside its SVG, in both languages. The models are the ones
    the test above trains (the same settings: found in the store, or trained here when this test runs alone)."""
    settings = "training_task=names&training_steps=40&training_hidden=16&training_embed=16&training_batch=32"
    names = {"en": "Names and numbers through the bottleneck", "ko": "병목을 지나는 이름과 수"}
    for lang in ("en", "ko"):
        page = new_page(PHONE, locale="ko-KR" if lang == "ko" else "en-US")
        _open(page, app_server, lang, f"{settings}&training_seed=9006&training_tabs=bottleneck")
        if page.get_by_role("button", name=_TRAIN[lang], exact=True).count():
            _train(page, _TRAIN[lang], TRAINED[lang])
        wait_for_text(page, TRAINED[lang], timeout=180_000)
        twin = page.get_by_role("button").filter(has_text=_TWIN[lang])
        if twin.count():
            _train(page, twin.first.inner_text().split("\n")[-1].strip(), names[lang])  # the label after its icon
        wait_for_text(page, names[lang], timeout=180_000)
        charts_drawn(page, 3)  # the map, the exact-match and the survival chart
        clipped = _clipped_text(page)
        assert not clipped, (lang, clipped)
        page.goto(page.url.replace("&training_tabs=bottleneck", ""))
        settle(page)
        charts_drawn(page, 2)  # the map and the loss curve of the first tab
        clipped = _clipped_text(page)
        assert not clipped, (lang, clipped)
        page.context.close()


_TRAIN = {"en": "Train", "ko": "학습 시작"}
_TWIN = {"en": "Train the comparison model", "ko": "비교 모델 학습"}


def _clipped_text(page) -> list[list]:
    """Every visible chart text drawn (partly) outside its SVG or the screen: [text, left, right, svg left, right]."""
    return page.evaluate(
        """() => {
            const out = [];
            for (const svg of document.querySelectorAll('[data-testid="stVegaLiteChart"] svg')) {
                if (!svg.checkVisibility()) continue;
                const s = svg.getBoundingClientRect();
                const left = Math.max(s.left, 0), right = Math.min(s.right, window.innerWidth);
                for (const e of svg.querySelectorAll('text')) {
                    const q = e.getBoundingClientRect();
                    if (!e.textContent.trim() || !q.width || !e.checkVisibility()) continue;
                    const out_of = q.left < left - 0.5 || q.right > right + 0.5;
                    if (out_of) out.push([e.textContent, q.left, q.right, left, right]);
                }
            }
            return out;
        }"""
    )


def test_the_survival_charts_y_title_is_drawn_whole_inside_its_svg(app_server, new_page):
    """Issue 25 leftovers: the survival chart's rotated y title ("온전히 나온 비율" / "came through intact") was cut at
    the chart's left edge on a phone: Vega leaves room for a rotated title as if it were fontSize wide, but the
    font's line box is about 1.4 em (s2s_core/training/charts.py Y_TITLE_PAD). At 390 and 1280 px, in both
    languages, the drawn title's bounding box lies inside its SVG (every side) and on the screen's width, and its
    text is at least 11 px. Same models as the two tests above (from the store, or trained here)."""
    settings = "training_task=names&training_steps=40&training_hidden=16&training_embed=16&training_batch=32"
    for lang in ("en", "ko"):
        for viewport in (PHONE, DESKTOP):
            page = new_page(viewport, locale="ko-KR" if lang == "ko" else "en-US")
            _open(page, app_server, lang, f"{settings}&training_seed=9006&training_tabs=bottleneck")
            if page.get_by_role("button", name=_TRAIN[lang], exact=True).count():
                _train(page, _TRAIN[lang], TRAINED[lang])
            wait_for_text(page, TRAINED[lang], timeout=180_000)
            twin = page.get_by_role("button").filter(has_text=_TWIN[lang])
            if twin.count():
                _train(
                    page, twin.first.inner_text().split("\n")[-1].strip(), translate(lang, "training.survival_heading")
                )
            wait_for_text(page, translate(lang, "training.survival_heading"), timeout=180_000)
            charts_drawn(page, 3)
            box = _axis_title_box(
                page, translate(lang, "training.chart.survival_title"), translate(lang, "training.chart.survival")
            )
            assert box is not None, (lang, viewport)
            title, svg = box["title"], box["svg"]
            where = (lang, viewport["width"], box)
            assert box["font"] >= 11, where
            assert title["width"] > 0 and title["height"] > 0, where
            assert svg["left"] <= title["left"] and title["right"] <= svg["right"], where  # not cut left or right
            assert svg["top"] <= title["top"] and title["bottom"] <= svg["bottom"], where  # its whole length drawn
            assert title["left"] >= 0 and title["right"] <= viewport["width"], where  # and on the screen
            page.context.close()


def _axis_title_box(page, chart_title: str, axis_title: str) -> dict | None:
    """The bounding boxes (screen px) of the axis title `axis_title` drawn in the visible chart titled `chart_title`,
    and of that chart's SVG; the title's font size in px. None when there is no such chart or axis title."""
    return page.evaluate(
        """([chart, axis]) => {
            const box = e => {
                const r = e.getBoundingClientRect();
                return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height};
            };
            const svg = [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg')].find(s =>
                s.checkVisibility()
                && [...s.querySelectorAll('.role-title text')].some(e => e.textContent === chart));
            const title = svg && [...svg.querySelectorAll('.role-axis-title text')].find(e => e.textContent === axis);
            if (!title) return null;
            return {title: box(title), svg: box(svg), font: parseFloat(getComputedStyle(title).fontSize)};
        }""",
        [chart_title, axis_title],
    )


def test_the_default_settings_are_trained_when_the_server_starts(app_server, new_page):
    """A class's first visitor finds the default model (and its comparison model) ready or on the way, without
    pressing anything: the server trained them in its worker pool when it started."""
    page = new_page()
    _open(page, app_server, "en", "")
    wait_for_text(page, TRAINED["en"], timeout=180_000)  # the page polls the warm job
    open_tab(page, "Bottleneck")
    wait_for_text(page, "At the longest sources", timeout=180_000)  # the twin without attention, too
    wait_idle(page)
    assert page.get_by_role("button", name="Train", exact=True).count() == 0
    assert " steps in " in main_text(page)


@pytest.mark.skipif(not full(), reason="screenshots of the trained page: `make screenshots` / `make test-all`")
def test_screenshots_of_the_trained_page(app_server, new_page):
    """The trained view (model, twin, map) at 1280 px and 390 px, English and Korean, into screenshots/ (full size
    only: a screenshot is for a person to look at, and the trained view's values are asserted by the tests above)."""
    OUT.mkdir(exist_ok=True)
    settings = "training_steps=100&training_hidden=32&training_batch=64&training_max_len=7&training_seed=3"
    page = new_page()
    _open(page, app_server, "en", settings)
    if page.get_by_role("button", name="Train").count():
        _train(page, "Train", TRAINED["en"])
    open_tab(page, "Bottleneck")
    twin = page.get_by_role("button", name="Train the comparison model (without attention)")
    if twin.count():
        _train(page, "Train the comparison model (without attention)", "At the longest sources")
    page.context.close()
    for lang in ("en", "ko"):
        for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page = new_page(viewport)
            _open(page, app_server, lang, settings)
            assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 4  # cached: no button to press
            full_height(page, viewport)
            path = OUT / f"training-trained-{lang}-{name}.png"
            page.screenshot(path=str(path), full_page=True)
            assert path.stat().st_size > 10_000
            page.context.close()
