"""The analysis layer: what the played games mean — tallies, intervals and findings (:mod:`.stats`), the paired and
sequential studies (:mod:`.studies`), the balance claims of a scenario (:mod:`.checks`), tournaments of strategies
(:mod:`.tournaments`), their ratings (:mod:`.ratings`) and team contrasts (:mod:`.contrasts`). It may import the
layers below it: :mod:`balance.core`, :mod:`balance.scenario`, :mod:`balance.games` and :mod:`balance.run` (core ←
scenario ← games ← run ← analysis ← present ← cli, with :mod:`balance.api` at the top)."""
