"""The book's part « Référence »: the aide-mémoire, the glossary, the concordance and the
neighbouring games' dice."""
