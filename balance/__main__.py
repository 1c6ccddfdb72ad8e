"""`python -m balance` is the `balance` command."""
from .entry import main

main()
