"""The runnable script behind the Training lab: the very files that trained the page's model, plus the
learner's settings and source, printing the numbers the page shows."""

from __future__ import annotations

import ast
import inspect
from dataclasses import fields

from s2s_core import grammar, rng
from s2s_core.training import config as config_module
from s2s_core.training import loop, model, tasks
from s2s_core.training.compute import SourceInput
from s2s_core.training.config import TrainConfig
from s2s_core.training.fields import MAX_DECODE
from s2s_core.training.tasks import KO_EN

MODULES = (config_module, rng, tasks, model, loop)  # dependency order


def _split(module) -> tuple[list[str], str]:
    """A module's imports (unparsed, s2s_core ones dropped) and its body without docstring and imports."""
    source = inspect.getsource(module)
    tree = ast.parse(source)
    imports: list[str] = []
    drop: set[int] = set()
    for node in tree.body:
        is_doc = (
            isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        )
        if isinstance(node, (ast.Import, ast.ImportFrom)) or is_doc:
            drop.update(range(node.lineno, node.end_lineno + 1))
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(("s2s_core", "__future__")):
                continue
            if not is_doc:
                imports.append(ast.unparse(node))
    body = "\n".join(line for i, line in enumerate(source.splitlines(), start=1) if i not in drop)
    return imports, body.strip("\n")


def script(config: TrainConfig, source: SourceInput | None = None) -> str:
    """A self-contained script: train with these settings, print held-out scores and decode the source."""
    imports: list[str] = []
    bodies = []
    # The Translation lab's task needs its grammar too (stdlib only), before the tasks that call it.
    modules = (config_module, grammar, *MODULES[1:]) if config.task == KO_EN else MODULES
    for i, module in enumerate(modules):
        mod_imports, body = _split(module)
        imports += [line for line in mod_imports if line not in imports]
        file = f"{module.__name__.rsplit('.', 1)[-1]}.py"  # the file's name only: the script is self-contained
        bodies.append((f'# %% {file} heading="ui.notebook.model"' if i == 0 else f"# %% {file}") + "\n" + body)
    settings = ", ".join(f"{f.name}={getattr(config, f.name)!r}" for f in fields(config))
    words = list(source.tokens) if source else []
    n_pad = source.n_pad if source else 0
    ns = "translation" if config.task == KO_EN else "training"
    notes = f"{ns}.notice_1" + (f" {ns}.caution" if config.attention != "none" else "")
    main = f"""
# %% Your settings heading="ui.notebook.inputs" notes="{notes}"
if __name__ == "__main__":
    torch.set_num_threads(1)  # the app trains on one thread: same thread count, same numbers
    config = TrainConfig({settings})
    run = train_loop(config, on_progress=lambda p: print(f"step {{p.step}}/{{p.total}} loss {{p.loss:.4f}}")
                     if p.evaluation is not None else None)
    final = run.evals[-1]
    print("steps done:", run.steps_done, "stopped by:", run.stopped_by)
    print("held-out teacher-forced loss:", round(final.tf_loss, 4))
    print("held-out teacher-forced token accuracy:", round(final.tf_token_acc, 4))
    print("held-out free-running token accuracy:", round(final.free_token_acc, 4))
    print("held-out exact match:", round(final.free_exact, 4))
    print("exact match by length:", {{n: round(acc, 4) for n, acc, _ in run.by_length}})

    # Free-running decoding of one source: every input after <sos> is the model's own previous output.
    words, n_pad = {words!r}, {n_pad}
    if words:
        src_itos, tgt_itos = source_vocab(config.task), target_vocab(config.task)
        tokens = words + [PAD] * n_pad
        src = torch.tensor([[src_itos.index(tok) for tok in tokens]])  # (1, S)
        lengths = torch.tensor([len(words)])  # (1,)
        expected = reference(config.task, words)  # None: a Korean sentence outside the toy grammar
        if expected is None:
            expected = []
            print("no reference: the sentence is outside the toy grammar")
        with torch.no_grad():
            trace = run.model.greedy(src, lengths, max_steps=min({MAX_DECODE}, (len(expected) or 2 * len(words)) + 3))
        out_ids = cut_at_eos(trace["preds"][0].tolist())
        print("expected:", expected + [EOS])
        print("output:", [tgt_itos[i] for i in out_ids])
        if trace["weights"] is not None:
            weights = trace["weights"][0, : len(out_ids)]  # (T, S) rows: output steps, columns: source positions
            print("attention:", [[round(w, 4) for w in row] for row in weights.tolist()])
"""
    header = f'# %% heading="{ns}.title" notes="{ns}.intro"\n'
    header += '"""Train the Training lab\'s tiny seq2seq with your settings (the same code the app ran)."""\n'
    header += "from __future__ import annotations\n\n" + "\n".join(imports) + "\n"
    return header + "\n\n" + "\n\n\n".join(bodies) + "\n\n" + main
