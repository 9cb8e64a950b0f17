"""Calls and compiles from several Python threads."""

import threading
import time

import numpy as np

import kiln
from conftest import ADD, MATMUL


def test_calls_from_two_threads_at_once(matmul_module):
    rng = np.random.default_rng(0)
    inputs = [(rng.standard_normal((512, 512), np.float32),
               rng.standard_normal((512, 512), np.float32))
              for _ in range(2)]
    expected = [a @ b for a, b in inputs]
    errors = []
    start = threading.Barrier(2)

    def work(k):
        try:
            start.wait()
            for _ in range(5):
                result = matmul_module.main(*inputs[k])
                np.testing.assert_allclose(result, expected[k], rtol=1e-3,
                                           atol=1e-3)
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_a_call_releases_the_interpreter():
    module = kiln.compile(MATMUL.replace("512", "2048"), threads=1)
    a = np.ones((2048, 2048), np.float32)
    window = []
    done = threading.Event()

    def call():
        start = time.perf_counter()
        module.main(a, a)  # about 0.1 s
        window[:] = [start, time.perf_counter()]
        done.set()

    worker = threading.Thread(target=call)
    ticks = []
    worker.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
    worker.join()
    # Held through the call, the GIL would leave this thread no tick well
    # inside it (past a switch interval from either end).
    start, end = window
    inside = [t for t in ticks if start + 0.02 < t < end - 0.005]
    assert end - start > 0.05
    assert len(inside) > 100


def test_compiles_in_two_threads_keep_their_options():
    modules = {}

    def compile_at(level):
        modules[level] = kiln.compile(ADD, debug_level=level)

    threads = [threading.Thread(target=compile_at, args=(level,))
               for level in (0, 3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert modules[0].debug_level == 0 and not modules[0].sources
    assert modules[3].debug_level == 3 and modules[3].sources
