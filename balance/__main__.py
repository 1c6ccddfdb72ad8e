"""`python -m balance` is the `balance` command."""
from .cli.entry import main

main()
