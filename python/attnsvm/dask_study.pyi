from typing import Any, Callable, Dict, Mapping, Optional, Tuple

RunTask = Callable[[Dict[str, Any], str], Tuple[Dict[str, Any], float]]

def run_one(run: Dict[str, Any], data_dir: str = ...) -> Tuple[Dict[str, Any], float]: ...
def real_study_dask(
    settings: Optional[Mapping[str, Any]] = ...,
    *,
    client: Any = ...,
    data_dir: str = ...,
    retries: int = ...,
    progress: bool = ...,
    out: Optional[str] = ...,
    csv: Optional[str] = ...,
    task: RunTask = ...,
) -> Dict[str, Any]: ...
