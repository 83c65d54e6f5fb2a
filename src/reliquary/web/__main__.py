"""``python -m reliquary.web``: the same as ``reliquary serve``."""

from ..cli.web_cmds import serve

if __name__ == "__main__":
    serve()
