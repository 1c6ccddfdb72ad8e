"""The presentation layer: results as DataFrames, tables and text (:mod:`.results`, :mod:`.display`,
:mod:`.team_display`, :mod:`.tournaments_view`), figures (:mod:`.plots`), HTML and Markdown reports
(:mod:`.report`) and the output folders they are written to (:mod:`.outputs`). It may import every layer below it:
:mod:`balance.core`, :mod:`balance.scenario`, :mod:`balance.games`, :mod:`balance.run` and :mod:`balance.analysis`
(core ← scenario ← games ← run ← analysis ← present ← cli, with :mod:`balance.api` at the top)."""
