# sagat firmware: the package copied to the board (and imported by the host for its pure modules).
VERSION = "0.1.0"


def forget(*names):
    """Let modules leave RAM (code used only at boot, in the menu, for one request). An import
    binds a submodule in sys.modules *and* as an attribute of its package: both references go,
    else the module's code stays in the heap."""
    import sys

    for name in names:
        sys.modules.pop(name, None)
        dot = name.rfind(".")
        parent = sys.modules.get(name[:dot]) if dot > 0 else None
        if parent is not None and name[dot + 1 :] in parent.__dict__:
            delattr(parent, name[dot + 1 :])
