from typing import Any, Callable, Dict, Mapping, Optional, Tuple

RunTask = Callable[[Dict[str, Any], str], Tuple[Dict[str, Any], float]]

def run_one(run: Dict[str, Any], data_dir: str = "") -> Tuple[Dict[str, Any], float]: ...
def real_study_dask(
    settings: Optional[Mapping[str, Any]] = None,
    *,
    client: Any = None,
    data_dir: str = "",
    retries: int = 2,
    progress: bool = True,
    out: Optional[str] = None,
    csv: Optional[str] = None,
    task: RunTask = ...,
) -> Dict[str, Any]: ...
