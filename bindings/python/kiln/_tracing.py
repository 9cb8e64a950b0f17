"""kiln.trace: zones of every call made inside a `with` block."""

import os

from . import _runtime


class trace:
    """Traces every call made inside the `with` block: one zone per call
    and per dispatch, each pointing at the code behind it.

        with kiln.trace("chrome", "t.json"): m.main(x)   # Perfetto
        with kiln.trace("console"): m.main(x)            # stderr

    `stage`: the captured stage whose text dispatch zones point at (""
    the earliest each export has); `workgroup_zones`: a zone per worker's
    share of each dispatch; `print_source` (console): the lines around each
    export's entry, once. One trace runs at a time."""

    def __init__(self, provider, path=None, stage="", workgroup_zones=False,
                 print_source=False):
        if provider == "chrome":
            if path is None:
                raise ValueError("a chrome trace needs a path")
            self._spec = f"chrome={os.fspath(path)}"
        elif path is not None:
            raise ValueError(f"the {provider} tracer takes no path")
        else:
            self._spec = provider
        self._options = (stage, workgroup_zones, print_source)

    def __enter__(self):
        _runtime.start_trace(self._spec, *self._options)
        return self

    def __exit__(self, *exc):
        _runtime.stop_trace()
