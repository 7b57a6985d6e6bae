"""The `sagat` command's command groups, one module each; every module's `add(subparsers)` adds its
commands to the top-level parser (sagat/cli.py), each with set_defaults(func=...) for the function
that runs it. What they share (the clock connection, the key, UserError) is sagat/cliutil.py's."""
