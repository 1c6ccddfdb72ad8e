"""Balance claims a scenario makes (its ``[checks]`` table) and how ``balance check`` decides them.

``model``: the validated ``[checks]`` table. ``confseq``: the anytime-valid intervals the decisions use.
``claims``: each claim's estimate, interval and decision from a run's results. ``run``: the sequential check of a
scenario (``balance.check``). ``baseline``: what moved against a saved earlier run.
"""
