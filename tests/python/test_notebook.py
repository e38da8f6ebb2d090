"""The lecture notes (python/examples/lecture-notes.ipynb) run top to bottom in a kernel of this
Python (the venv with attnsvm), and their HTML export (nbconvert, the lab template) opened in
Chromium from a static server on 127.0.0.1 plays both figures with no console error.

The export loads require.js and MathJax from Debian's copies (libjs-requirejs, libjs-mathjax:
nbconvert's defaults point there), served next to the page as a site would; nothing else is
loaded from outside the page.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
nbconvert = pytest.importorskip("nbconvert")

from test_figure import NODE, figures_play, serve  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
NOTES = REPO / "python/examples/lecture-notes.ipynb"
JS = Path("/usr/share/javascript")


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """The notes executed by nbclient in a kernel running this interpreter (a kernelspec written
    to a private JUPYTER_PATH, so the kernel imports the same attnsvm as the tests)."""
    home = tmp_path_factory.mktemp("jupyter")
    spec = home / "kernels" / "attnsvm-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "attnsvm (tests)", "language": "python"}))
    old = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = str(home)
    try:
        nb = nbformat.read(NOTES, as_version=4)
        client = nbclient.NotebookClient(nb, kernel_name="attnsvm-test", timeout=600,
                                         resources={"metadata": {"path": str(home)}})
        client.execute()  # CellExecutionError (with the cell and its traceback) if a cell fails
    finally:
        if old is None:
            os.environ.pop("JUPYTER_PATH", None)
        else:
            os.environ["JUPYTER_PATH"] = old
    return nb


def outputs(nb, mime):
    return [o["data"][mime] for c in nb.cells if c.cell_type == "code"
            for o in c.get("outputs", []) if o.get("output_type") in ("execute_result", "display_data") and mime in o.get("data", {})]


def stdout(nb):
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                   if o.get("output_type") == "stream")


def test_the_notes_run_top_to_bottom(executed):
    errors = [o for c in executed.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == []
    figs = outputs(executed, "text/html")
    assert len(figs) == 2 and all(f.startswith("<iframe") and "srcdoc=" in f for f in figs)
    assert len(outputs(executed, "image/svg+xml")) == 2  # the static pictures for PDF and no-JS viewers
    text = stdout(executed)
    assert "status: optimal" in text and "smallest margin:" in text
    # attnsvm's training and the PyTorch layer reach the optimal tokens (the notes assert that torch's
    # W is attnsvm's up to rounding)
    assert text.count("verdict: globally_optimal") == 2 and "||W_torch - W_attnsvm|| / ||W||:" in text
    assert "Warning" not in text


@pytest.mark.skipif(not NODE or not os.path.exists("/usr/bin/chromium"), reason="needs node and Chromium")
@pytest.mark.skipif(not (JS / "requirejs/require.min.js").exists() or not (JS / "mathjax/MathJax.js").exists(),
                    reason="apt-get install libjs-requirejs libjs-mathjax (scripts/ensure-deps.sh)")
def test_the_html_export_plays_in_chromium(executed, tmp_path):
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="lab")
    # a site serves its own copies (or a CDN's): here Debian's, next to the page
    exporter.require_js_url = "js/requirejs/require.min.js"
    exporter.mathjax_url = "js/mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe"
    body, _ = exporter.from_notebook_node(executed, resources={"metadata": {"name": "lecture-notes"}})
    (tmp_path / "lecture-notes.html").write_text(body, encoding="utf-8")
    (tmp_path / "js").mkdir()
    for lib in ("requirejs", "mathjax"):
        os.symlink(JS / lib, tmp_path / "js" / lib)
    assert body.count("<iframe") == 2
    server, url = serve(tmp_path)
    try:
        shots = REPO / "artifacts/screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        report = figures_play(f"{url}/lecture-notes.html", screenshot=shots / "python-notebook-export.png",
                              pdf=tmp_path / "notes.pdf")
    finally:
        server.shutdown()
    assert report["problems"] == []
    assert [f["scenario"] for f in report["figures"]] == ["paths2d", "local-convergence"]
    for f in report["figures"]:
        assert f["advanced"] and f["last"] > f["first"] > 0, f
    # printed, each figure is pictures of its two panels (made on beforeprint in its srcdoc frame)
    assert report["printed"] == [{"prints": 1, "pictures": 2}, {"prints": 1, "pictures": 2}]
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(tmp_path / "notes.pdf"), "-"], capture_output=True, text=True, check=True).stdout
        assert "Att-SVM" in text and "#s=paths2d" in text.replace("\n", "")  # the prose, and a figure's link to the lab
    shutil.rmtree(tmp_path / "js")
