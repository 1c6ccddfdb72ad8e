"""The core layer: what every other layer builds on and that knows nothing of games or scenarios — the Numba set-up
(the on-disk cache, the thread count, the ``rules_jit`` decorators and the patches to Numba they rely on), the
counter-based random streams, the index tables of rule kernels, the defaults shared by the run and the command line,
and the compile and progress notices. It imports nothing else of ``balance``; every layer above may import it
(core ← scenario ← games ← run ← analysis ← present ← cli, with :mod:`balance.api` at the top)."""
