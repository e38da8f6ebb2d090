"""Live figures of the lab in Jupyter: ``attnsvm.figure(scenario=..., panels=..., state=...)``.

A figure is the lab's embed (the ``<attnsvm-figure>`` element, docs/EMBEDDING.md): the engine in
WebAssembly plays a run in the reader's browser, pauses out of view, and links back to the lab with
the same state. The package carries the element's built script (``assets/attnsvm-figure.js``: the
figure's code, CSS, worker and the gzipped wasm engine in one file, copied from the site's
``dist/`` when the package is built), so a figure needs no network and no server:

- in a notebook or JupyterLab, ``_repr_html_`` is an ``<iframe srcdoc>`` holding a small page with
  the script and the element. The srcdoc frame shares the notebook's origin, so the element's
  Blob worker and its wasm start there, and its styles stay in the frame;
- the same HTML is what ``jupyter nbconvert --to html`` writes, so the exported page plays its
  figures without a kernel (opened from any static server, or from disk);
- for formats without JavaScript (LaTeX/PDF export, viewers that strip iframes) the output also
  carries a static SVG picture (``image/svg+xml``): the scenario's caption and its address in the
  lab. A printed page (or PDF from the browser) prints each live figure as pictures of its panels
  (the element's own print path, ``beforeprint``).

Each figure carries its own copy of the script (~0.6 MB in the .ipynb and the exported HTML): a
figure is self-contained, survives being copied into another page, and needs no first cell.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from typing import Any, Dict, Iterable, Mapping, Optional, Sequence, Union
from urllib.parse import parse_qsl, urlencode

__all__ = ["Figure", "figure", "figure_script", "LAB_SCENARIOS", "PANELS"]

# The lab's scenarios (web/src/lab/scenarios.js, SCENARIO_ORDER) a figure can show, and the panels
# of an embed (web/src/embed/params.js, PANEL_IDS); tests/python/test_figure.py checks both lists
# against the web sources. real-images is not here: it needs the site's image data next to it; nor
# hierarchy: its figure's code is a script of its own beside the element's (attnsvm-figure-hierarchy.js,
# and the experiments wasm), which a self-contained srcdoc figure cannot fetch.
LAB_SCENARIOS = (
    "paths2d", "paths2d-t5", "local-convergence", "rank", "multitoken", "prompt-global-local",
    "loss-function", "joint-pv", "mirror-descent", "md-convergence", "joint-wv", "overparam", "sphere",
    "seq2seq", "causal",
)
PANELS = ("plane", "softmax", "current", "corr", "norms", "spectrum", "weights", "readout", "path")

# Where "open in the lab" goes: the lab `npm start` serves (README), or a static copy of the site's
# dist/ (a course's web space): set ATTNSVM_LAB_URL or pass lab=.
DEFAULT_LAB = "http://127.0.0.1:5173/index.html"

_ASSET = "attnsvm-figure.js"


def _script_path() -> Path:
    here = Path(__file__).resolve().parent
    for p in (here / "assets" / _ASSET, here.parent.parent / "dist" / _ASSET):
        if p.is_file():
            return p
    raise FileNotFoundError(
        f"the figure's script {_ASSET} is not in the package ({here / 'assets'}): build the site's "
        "element (bash scripts/build-wasm.sh && npx vite build && npx vite build -c vite.element.config.js) "
        "and reinstall the package (scripts/test-python.sh does both)"
    )


_script_cache: Optional[str] = None


def figure_script() -> str:
    """The text of the ``<attnsvm-figure>`` script the package carries (read once)."""
    global _script_cache
    if _script_cache is None:
        text = _script_path().read_text(encoding="utf-8")
        if "attnsvm-figure" not in text:
            raise ValueError(f"{_script_path()} is not the attnsvm-figure script")
        # inlined in a <script>: a "</script" in a string or regex of the bundle would end it
        # ("<\/" means the same in JavaScript's strings, templates and regexes)
        _script_cache = re.sub(r"</(script)", r"<\\/\1", text, flags=re.IGNORECASE)
    return _script_cache


def _state_text(state: Union[None, str, Mapping[str, Any]]) -> str:
    if state is None:
        return ""
    if isinstance(state, str):
        return state.lstrip("#")
    if isinstance(state, Mapping):
        return urlencode([(str(k), _value_text(v)) for k, v in state.items()])
    raise TypeError(f"state must be a lab hash (str, e.g. 's=paths2d&opt=gd') or a dict, got {type(state).__name__}")


def _value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(v)


def _panels_text(panels: Union[None, str, Iterable[str]]) -> Optional[str]:
    if panels is None:
        return None
    names = [p.strip() for p in panels.split(",")] if isinstance(panels, str) else [str(p) for p in panels]
    for k, name in enumerate(names):
        if name not in PANELS:
            raise ValueError(f"panels[{k}] = {name!r} is not a panel; panels are {', '.join(PANELS)}")
    if not names:
        raise ValueError(f"panels is empty; panels are {', '.join(PANELS)}")
    return ",".join(names)


class Figure:
    """A live figure of the lab (see the module's docstring). Display it (the last expression of a
    cell, or ``IPython.display.display``); ``html()`` is its HTML, ``page()`` a whole page."""

    def __init__(
        self,
        scenario: Optional[str] = None,
        panels: Union[None, str, Sequence[str]] = None,
        state: Union[None, str, Mapping[str, Any]] = None,
        *,
        seed: Optional[int] = None,
        caption: Optional[str] = "scenario",
        autoplay: bool = True,
        speed: Optional[int] = None,
        height: int = 560,
        lab: Optional[str] = None,
        title: Optional[str] = None,
    ) -> None:
        state_text = _state_text(state)
        given = dict(parse_qsl(state_text))
        name = scenario if scenario is not None else given.get("s", "paths2d")
        if not isinstance(name, str) or name not in LAB_SCENARIOS:
            hint = " (real-images needs the site's image data: use the lab)" if name == "real-images" else ""
            raise ValueError(f"scenario {name!r} is not a lab scenario{hint}; scenarios are {', '.join(LAB_SCENARIOS)}")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise ValueError(f"seed = {seed!r} must be an integer >= 0")
        if speed is not None and (not isinstance(speed, int) or isinstance(speed, bool) or speed < 1):
            raise ValueError(f"speed = {speed!r} must be an integer >= 1 (iterations per frame)")
        if not isinstance(height, int) or height < 100:
            raise ValueError(f"height = {height!r} must be an integer >= 100 (CSS px before the figure sizes its frame)")
        self.scenario = name
        self.panels = _panels_text(panels)
        self.state = state_text
        self.seed = seed
        self.caption = caption
        self.autoplay = bool(autoplay)
        self.speed = speed
        self.height = height
        self.lab = lab or os.environ.get("ATTNSVM_LAB_URL") or DEFAULT_LAB
        self.title = title or f"attnsvm: {name}"

    # -- the element and its page ---------------------------------------------------------------
    def attributes(self) -> Dict[str, str]:
        """The ``<attnsvm-figure>`` attributes (docs/EMBEDDING.md)."""
        a: Dict[str, str] = {"scenario": self.scenario}
        if self.state:
            a["state"] = self.state
        if self.seed is not None:
            a["seed"] = str(self.seed)
        if self.panels:
            a["panels"] = self.panels
        if self.caption:
            a["caption"] = self.caption
        if not self.autoplay:
            a["autoplay"] = "off"
        if self.speed is not None:
            a["speed"] = str(self.speed)
        a["lab"] = self.lab
        return a

    def lab_url(self) -> str:
        """The lab with this figure's state (the figure's "open in the lab" link)."""
        params = dict(parse_qsl(self.state))
        params["s"] = self.scenario
        if self.seed is not None:
            params["seed"] = str(self.seed)
        return f"{self.lab}#{urlencode(params)}"

    def page(self) -> str:
        """A whole HTML page holding the figure and its script (what the iframe shows)."""
        attrs = " ".join(f'{k}="{html.escape(v, quote=True)}"' for k, v in self.attributes().items())
        return (
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(self.title)}</title>"
            "<style>html,body{margin:0;padding:0;background:transparent}attnsvm-figure{margin:0}</style>"
            "</head><body>"
            f"<attnsvm-figure {attrs}></attnsvm-figure>"
            f"<noscript>{self.svg()}</noscript>"
            f"<script>{figure_script()}</script>"
            f"<script>{_AUTO_HEIGHT}</script>"
            "</body></html>"
        )

    def html(self) -> str:
        """The figure as an ``<iframe srcdoc>`` (self-contained; what a notebook shows)."""
        return (
            f'<iframe class="attnsvm-figure-frame" title="{html.escape(self.title, quote=True)}" '
            f'srcdoc="{html.escape(self.page(), quote=True)}" '
            f'style="width:100%;height:{self.height}px;border:0;display:block" '
            'allow="fullscreen"></iframe>'
        )

    def svg(self) -> str:
        """A static picture for formats without JavaScript: the scenario, its caption and the lab's
        address of this state (the live figure's panels need the engine)."""
        return _static_svg(self.title, self._caption_text(), self.panels or "", self.lab_url())

    def _caption_text(self) -> str:
        if self.caption and self.caption != "scenario":
            return self.caption
        return f"Scenario {self.scenario} of the attnsvm lab: a live figure in a browser with JavaScript."

    # -- Jupyter's display protocol ---------------------------------------------------------------
    def _repr_html_(self) -> str:
        return self.html()

    def _repr_mimebundle_(self, include=None, exclude=None) -> Dict[str, str]:
        return {
            "text/html": self.html(),
            "image/svg+xml": self.svg(),
            "text/plain": f"<attnsvm figure {self.scenario}: {self.lab_url()}>",
        }

    def __repr__(self) -> str:
        return f"Figure(scenario={self.scenario!r}, panels={self.panels!r}, state={self.state!r})"

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes ``page()`` to a file (a page that plays when opened in a browser)."""
        Path(path).write_text(self.page(), encoding="utf-8")


def figure(
    scenario: Optional[str] = None,
    panels: Union[None, str, Sequence[str]] = None,
    state: Union[None, str, Mapping[str, Any]] = None,
    **options: Any,
) -> Figure:
    """A live figure of the lab for a notebook (docs/PYTHON.md, "Jupyter notebooks").

    scenario: a lab scenario (``LAB_SCENARIOS``; default ``paths2d`` or the ``s`` of ``state``).
    panels: which panels, in order (``PANELS``: plane, softmax, current, corr, norms, spectrum,
        weights, readout; a list or 'plane,corr'); default per scenario.
    state: the lab's state as its link's hash ('s=paths2d&opt=gd&lr=0.5') or a dict
        ({'opt': 'gd', 'lr': 0.5}); the keys are the lab's (docs/EMBEDDING.md).
    options: seed, caption ('scenario': the scenario's caption; None: none), autoplay, speed
        (iterations per frame), height (CSS px of the frame until the figure sizes it), lab (the
        lab's URL for "open in the lab"; default $ATTNSVM_LAB_URL or the lab `npm start` serves).

    Bad names raise ValueError here; a bad value of a state key is the figure's to report: it runs
    with the default, warns in the browser's console and shows a notice (docs/EMBEDDING.md).
    """
    return Figure(scenario, panels, state, **options)


# In the srcdoc page: size the iframe to the figure (the frame shares the notebook's origin, so it
# can reach its own <iframe>; when it cannot, e.g. a page opened from disk, the height stays).
_AUTO_HEIGHT = (
    "(function(){var f;try{f=window.frameElement}catch(e){}if(!f)return;"
    "var fit=function(){var h=Math.ceil(document.documentElement.getBoundingClientRect().height);"
    "if(h>50&&Math.abs(parseFloat(f.style.height)-h)>1)f.style.height=h+'px'};"
    "new ResizeObserver(fit).observe(document.body);fit()})();"
)


def _wrap(text: str, width: int) -> list:
    words, lines, line = text.split(), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    if line:
        lines.append(line)
    return lines


def _static_svg(title: str, caption: str, panels: str, link: str) -> str:
    e = lambda s: html.escape(s, quote=True)  # noqa: E731
    lines = _wrap(caption, 88)[:6]
    height = 96 + 18 * len(lines)
    text = "".join(
        f'<text x="16" y="{62 + 18 * k}" font-size="13" fill="#333">{e(t)}</text>' for k, t in enumerate(lines)
    )
    shown = f" (panels {e(panels)})" if panels else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="720" height="{height}" viewBox="0 0 720 {height}" '
        f'role="img" aria-label="{e(title)}: {e(caption)}">'
        f'<rect x="0.5" y="0.5" width="719" height="{height - 1}" rx="6" fill="#fafafa" stroke="#bbb"/>'
        f'<text x="16" y="32" font-size="16" font-weight="bold" fill="#111">{e(title)}{shown}</text>'
        f"{text}"
        f'<a href="{e(link)}"><text x="16" y="{height - 18}" font-size="12" fill="#1a5fb4" '
        f'text-decoration="underline">{e(_shorten(link, 100))}</text></a>'
        "</svg>"
    )


def _shorten(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "\u2026"

