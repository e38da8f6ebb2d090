"""attnsvm.figure: the lab's embed as a self-contained notebook output (python/attnsvm/figure.py).

The browser test serves a page holding two figures' notebook HTML (the <iframe srcdoc> a notebook
shows) from a static server on 127.0.0.1 with no other file, opens it in Chromium and checks that
both figures play (their step counters advance) with no console error: the package's own copy of
the element and its wasm, no network. The same page opened from disk (file://) plays too.
"""

import html
import json
import os
import re
import shutil
import subprocess
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import attnsvm
from attnsvm.figure import LAB_SCENARIOS, PANELS, Figure, figure_script

REPO = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
HERE = Path(__file__).resolve().parent


def node_eval(code: str) -> str:
    return subprocess.run([NODE, "--input-type=module", "-e", code], cwd=REPO, check=True,
                          capture_output=True, text=True).stdout


@pytest.mark.skipif(not NODE or not (REPO / "web/src/lab/scenarios.js").exists(), reason="needs node and the web sources")
def test_scenarios_and_panels_are_the_labs():
    out = node_eval("const s = await import('./web/src/lab/scenarios.js'); const p = await import('./web/src/embed/params.js');"
                    "console.log(JSON.stringify({s: s.SCENARIO_ORDER, p: p.PANEL_IDS}))")
    web = json.loads(out)
    assert list(LAB_SCENARIOS) == [s for s in web["s"] if s not in ("real-images", "hierarchy")]
    assert list(PANELS) == web["p"]


def test_bad_arguments_say_what_is_wrong():
    with pytest.raises(ValueError, match=r"scenario 'pahts2d' is not a lab scenario; scenarios are paths2d, "):
        attnsvm.figure("pahts2d")
    with pytest.raises(ValueError, match=r"real-images needs the site's image data"):
        attnsvm.figure("real-images")
    with pytest.raises(ValueError, match=r"panels\[1\] = 'corrr' is not a panel; panels are plane, softmax"):
        attnsvm.figure("paths2d", panels=["plane", "corrr"])
    with pytest.raises(ValueError, match=r"seed = -1 must be an integer >= 0"):
        attnsvm.figure("paths2d", seed=-1)
    with pytest.raises(TypeError, match=r"state must be a lab hash"):
        attnsvm.figure("paths2d", state=3)
    with pytest.raises(ValueError, match=r"scenario 'rank' is not|scenario 'nope' is not"):
        attnsvm.figure(state="s=nope")


def test_the_html_is_one_self_contained_iframe():
    f = attnsvm.figure("paths2d", panels="plane,corr", state={"opt": "gd", "lr": 0.5}, seed=3, lab="https://lab.example/index.html")
    out = f._repr_html_()
    assert out.startswith("<iframe ") and out.endswith("</iframe>") and out.count("<iframe") == 1
    page = html.unescape(re.search(r'srcdoc="([^"]*)"', out).group(1))
    # the element with the attributes of docs/EMBEDDING.md, and the whole script inline
    assert '<attnsvm-figure scenario="paths2d" state="opt=gd&amp;lr=0.5" seed="3" panels="plane,corr" caption="scenario" lab="https://lab.example/index.html">' in page
    assert figure_script() in page and len(figure_script()) > 200_000
    assert not re.search(r"\bsrc=|https?://(?!lab\.example|www\.w3\.org)", page.replace(figure_script(), "")), "nothing outside is loaded"
    assert f.lab_url() == "https://lab.example/index.html#opt=gd&lr=0.5&s=paths2d&seed=3"
    bundle = f._repr_mimebundle_()
    assert set(bundle) == {"text/html", "image/svg+xml", "text/plain"}
    svg = bundle["image/svg+xml"]
    assert svg.startswith("<svg") and "paths2d" in svg and html.escape(f.lab_url()) in svg
    assert "<noscript><svg" in page  # a browser without JavaScript shows the picture


def test_the_lab_link_follows_the_environment(monkeypatch):
    monkeypatch.setenv("ATTNSVM_LAB_URL", "https://course.example/attnsvm/index.html")
    assert attnsvm.figure("rank").lab_url() == "https://course.example/attnsvm/index.html#s=rank"


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(folder: Path):
    """A static server on 127.0.0.1 (with a favicon: the browser asks for one, and its 404 would be
    a console error that is not the figures')."""
    (folder / "favicon.ico").write_bytes(b"")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def figures_play(url: str, screenshot=None, pdf=None):
    cmd = [NODE, str(HERE / "figure_plays.mjs"), url]
    if screenshot:
        cmd += ["--screenshot", str(screenshot)]
    if pdf:
        cmd += ["--pdf", str(pdf)]
    done = subprocess.run(cmd, cwd=REPO, check=True, capture_output=True, text=True, timeout=180)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not NODE or not os.path.exists("/usr/bin/chromium"), reason="needs node and Chromium")
def test_two_figures_play_in_chromium_offline(tmp_path):
    figs = [attnsvm.figure("paths2d", panels="plane,corr", state="opt=ngd"),
            attnsvm.figure("local-convergence", panels=["corr", "softmax"], speed=5)]
    body = "".join(f"<h2>figure {k}</h2>{f._repr_html_()}<p style='height:300px'>text</p>" for k, f in enumerate(figs))
    (tmp_path / "index.html").write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>notes</title></head><body>{body}</body></html>")
    server, url = serve(tmp_path)
    try:
        shots = REPO / "artifacts/screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        report = figures_play(f"{url}/index.html", screenshot=shots / "python-figure.png")
    finally:
        server.shutdown()
    # and the same page opened from disk (file://: no server at all)
    from_disk = figures_play((tmp_path / "index.html").as_uri())
    for r in (report, from_disk):
        assert r["problems"] == []
        assert [f["scenario"] for f in r["figures"]] == ["paths2d", "local-convergence"]
        for f in r["figures"]:
            assert f["defined"] and f["advanced"] and f["last"] > f["first"] > 0, f
            assert f["frame"] == "about:srcdoc"


def check_stub(module_name: str) -> None:
    """The module's .pyi declares each public function and the Figure class's __init__ with the
    runtime's parameters (names, kinds, and defaults where the stub writes a literal)."""
    import ast
    import importlib
    import inspect

    module = importlib.import_module(module_name)
    tree = ast.parse((Path(module.__file__).with_suffix(".pyi")).read_text())
    stubs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    for c in (c for c in tree.body if isinstance(c, ast.ClassDef)):
        stubs.update({f"{c.name}.{f.name}": f for f in c.body if isinstance(f, ast.FunctionDef)})
    public = [n for n in module.__all__ if inspect.isfunction(getattr(module, n))]
    public += [f"{n}.__init__" for n in module.__all__ if inspect.isclass(getattr(module, n))]
    for name in public:
        obj = module
        for part in name.split("."):
            obj = getattr(obj, part)
        f = stubs[name].args
        pos = f.posonlyargs + f.args
        declared = [(p.arg, d) for p, d in zip(pos, [None] * (len(pos) - len(f.defaults)) + list(f.defaults))]
        declared += [(f.vararg.arg, None)] if f.vararg else []
        declared += list(zip([p.arg for p in f.kwonlyargs], f.kw_defaults))
        declared += [(f.kwarg.arg, None)] if f.kwarg else []
        runtime = list(inspect.signature(obj).parameters.values())
        assert [n for n, _ in declared] == [p.name for p in runtime], name
        for (n, d), p in zip(declared, runtime):
            if d is not None and not (isinstance(d, ast.Constant) and d.value is Ellipsis):
                assert ast.literal_eval(d) == p.default, f"{name}({n})"


def test_the_stub_matches():
    check_stub("attnsvm.figure")
