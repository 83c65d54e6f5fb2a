"""The ``reliquary`` command line: thin commands over the engine, AI, lab and web."""
