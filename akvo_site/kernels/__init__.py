"""The server's kernels: the manager (queued starts), the pools that follow the readers,
the spare kernels and what happens when a page's kernel fails to start."""
