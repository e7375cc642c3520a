"""The French readings of the rulings that a variant switches: the book's variants page and
lab, and the online tables' form (which must not import a UI library to read them)."""

from __future__ import annotations

#: The two readings of each variant, default first, with their French labels.
READINGS: dict[str, tuple[tuple[str, str], ...]] = {
    "weather": (("Sac de 8 jetons (4 par camp)", "bag"), ("Pile ou face à chaque tour", "coin")),
    "prodige": (
        ("Prodige : exactement 4 dés identiques", "four"),
        ("Prodige : tous les dés lancés identiques (2 ou plus)", "all"),
    ),
    "grimoire": (
        ("@ Confusion, # Relance", "standard"),
        ("@ Relance, # Confusion", "swapped"),
    ),
    "rune_u": (
        ("La rune U rend l’Ultime de son porteur", "restores_ultime"),
        ("La rune U ne fait rien (elle sert aux noms)", "names_only"),
    ),
    "mouvement_rune": (
        ("Le Mouvement avant un tir est la rune du tireur", "is_the_rune"),
        ("Le Mouvement avant un tir s’ajoute à une rune de tir", "separate"),
    ),
    "ship_advance_runes": (
        ("Navire (AA) : une rune de Mouvement en tout", "one"),
        ("Navire (AA) : une rune de Mouvement par ordre", "per_order"),
    ),
    "rouleau_mouvement": (
        ("Rouleau : pas de rune de Mouvement sur son avance", "no_rune"),
        ("Rouleau : une rune de Mouvement pour 2 cases", "plus_one"),
    ),
}
