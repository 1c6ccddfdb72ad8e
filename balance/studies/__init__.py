"""Balance studies: paired runs of scenario variants on common random numbers (``compare``, ``sweep``, ``cards``)
and anytime-valid decisions about them (:mod:`.sequential`)."""
