"""French wording of the engine's facts: numbers, labels, readings, errors, values.

Imports :mod:`akvo` only, never a UI library: the kernel's pages and the server's online
tables (:mod:`akvo_site`) both read it.
"""
