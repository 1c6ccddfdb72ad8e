"""The run layer: playing a scenario's games — the runner and its checkpoints (:mod:`.runner`), the local and Dask
executors (:mod:`.executor`), chunks of games on the kernel (:mod:`.chunks`), the step-by-step player of several
scenarios together (:mod:`.stepper`), compiling kernels ahead of use (:mod:`.warm`), the benchmark (:mod:`.bench`) and
the agreement check of kernel and reference engine (:mod:`.agreement`). It may import :mod:`balance.core`,
:mod:`balance.scenario` and :mod:`balance.games` (core ← scenario ← games ← run ← analysis ← present ← cli, with
:mod:`balance.api` at the top)."""
