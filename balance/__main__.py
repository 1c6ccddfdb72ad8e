"""`python -m balance` is the `balance` command."""
from .cli import main

main()
