"""The book's part « Pour les concepteurs »: the laboratoire and the variants page."""
