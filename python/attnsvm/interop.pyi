from typing import Any, Dict, Optional, Tuple

import numpy as np

__all__: list[str]

def multihead_kq(attention: Any) -> Tuple[np.ndarray, np.ndarray]: ...
def weights_of(W: Any = None, K: Any = None, Q: Any = None,
               attention: Any = None) -> Tuple[np.ndarray, str]: ...
def check(X: Any, Y: Any, v: Any, *, W: Any = None, K: Any = None, Q: Any = None,
          attention: Any = None, Z: Any = None, query: Optional[int] = None) -> Dict[str, Any]: ...
