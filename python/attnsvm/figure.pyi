from os import PathLike
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

LAB_SCENARIOS: Tuple[str, ...]
PANELS: Tuple[str, ...]
DEFAULT_LAB: str

def figure_script() -> str: ...

class Figure:
    scenario: str
    panels: Optional[str]
    state: str
    seed: Optional[int]
    caption: Optional[str]
    autoplay: bool
    speed: Optional[int]
    height: int
    lab: str
    title: str
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
    ) -> None: ...
    def attributes(self) -> Dict[str, str]: ...
    def lab_url(self) -> str: ...
    def page(self) -> str: ...
    def html(self) -> str: ...
    def svg(self) -> str: ...
    def save(self, path: Union[str, PathLike[str]]) -> None: ...
    def _repr_html_(self) -> str: ...
    def _repr_mimebundle_(self, include: Any = ..., exclude: Any = ...) -> Dict[str, str]: ...

def figure(
    scenario: Optional[str] = None,
    panels: Union[None, str, Sequence[str]] = None,
    state: Union[None, str, Mapping[str, Any]] = None,
    **options: Any,
) -> Figure: ...
