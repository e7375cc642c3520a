"""The book's one list of pages: order, titles, parts and the rulebook sections each teaches.

Everything that needs the chapter list reads it here: the home page's table of contents
(:func:`toc`), each chapter's previous / next links (:func:`nav`), the notebook tests, the
browser tests and the site benchmark. Adding a page is one :class:`Chapter` entry (and its
notebook in ``book/``).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from IPython.display import HTML

#: The home page, outside the chapter list.
HOME = "index.ipynb"
HOME_TITLE = "Akvolition, le livre"

#: The sections of the rulebook (in its order) that the book must teach.
RULEBOOK_SECTIONS = (
    "présentation",
    "matériel",
    "mise en place",
    "séquence d’un tour",
    "déplacements et blocages",
    "tirs",
    "critiques et prodiges",
    "Résilience",
    "runes",
    "Ultimes",
    "fin de match",
    "jeu en équipes",
    "listes d’équipes",
)

#: The parts of the book, in order.
PARTS = ("Apprendre à jouer", "Jouer", "Pour les concepteurs", "Référence")


@dataclass(frozen=True, slots=True)
class Chapter:
    """One page of the book: its notebook, its title (the page's H1) and what it teaches."""

    file: str
    title: str
    summary: str
    part: str = PARTS[0]
    sections: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.part not in PARTS:
            raise ValueError(f"{self.file}: unknown part {self.part!r}")
        unknown = set(self.sections) - set(RULEBOOK_SECTIONS)
        if unknown:
            raise ValueError(f"{self.file}: unknown rulebook sections {sorted(unknown)}")


CHAPTERS: tuple[Chapter, ...] = (
    Chapter(
        "plateau-et-mise-en-place.ipynb",
        "Le jeu, le plateau et la mise en place",
        "le matériel, les couloirs, la ligne de départ et les joueurs",
        sections=("présentation", "matériel", "mise en place", "jeu en équipes"),
    ),
    Chapter(
        "equipes.ipynb",
        "Les équipes",
        "les listes d’équipes, les runes de chaque mage et la feuille de score",
        sections=("listes d’équipes", "runes"),
    ),
    Chapter(
        "tour-de-jeu.ipynb",
        "Le tour de jeu",
        "le phare, la météo, les ordres secrets et l’activation en alternance",
        sections=("séquence d’un tour",),
    ),
    Chapter(
        "avancer-et-se-bloquer.ipynb",
        "Avancer et se bloquer",
        "case par case, sans jamais croiser, et la rune de Mouvement",
        sections=("déplacements et blocages",),
    ),
    Chapter(
        "des.ipynb",
        "Les dés",
        "jets, seuils, critiques et prodiges",
        sections=("critiques et prodiges",),
    ),
    Chapter(
        "matrice-du-vent.ipynb",
        "La matrice du vent",
        "paliers, distances et tirs en diagonale",
        sections=("tirs",),
    ),
    Chapter(
        "tir-sur-un-mage.ipynb",
        "Tirer sur un mage",
        "défense, recul et Résilience",
        sections=("tirs", "Résilience"),
    ),
    Chapter(
        "tir-sur-un-coffre.ipynb",
        "Tirer sur un coffre",
        "interception et points",
        sections=("tirs",),
    ),
    Chapter(
        "runes-et-ultimes.ipynb",
        "Runes et Ultimes",
        "le grimoire, la règle d’une rune et le duel de runes",
        sections=("runes", "Ultimes"),
    ),
    Chapter(
        "ultimes-en-jeu.ipynb",
        "Les Ultimes en jeu",
        "Trident, Rouleau, Souffle portant et les autres, sur le plateau",
        sections=("Ultimes",),
    ),
    Chapter(
        "fin-du-match.ipynb",
        "La fin du match",
        "huit tours, le départage et le match nul",
        sections=("fin de match",),
    ),
    Chapter(
        "premier-tour.ipynb",
        "Votre premier tour",
        "un tour guidé, coup par coup, sur le vrai moteur",
        part="Jouer",
        sections=("séquence d’un tour",),
    ),
    Chapter(
        "jouer-un-match.ipynb",
        "Jouer un match",
        "un match entier contre un bot ou à deux sur le même écran",
        part="Jouer",
        sections=("séquence d’un tour", "fin de match"),
    ),
    Chapter(
        "jouer-en-ligne.ipynb",
        "Jouer en ligne",
        "une table pour 2, 4 ou 6 joueurs, chacun sur son téléphone, ordres secrets compris",
        part="Jouer",
        sections=("jeu en équipes",),
    ),
    Chapter(
        "rejouer-un-match.ipynb",
        "Revoir un match",
        "enregistrer, charger et revoir un match coup par coup, avec les chances de chaque option",
        part="Jouer",
    ),
    Chapter(
        "exercices.ipynb",
        "Exercices",
        "choisir le meilleur tir, noté avec les chances exactes",
        part="Jouer",
    ),
    Chapter(
        "laboratoire.ipynb",
        "Le laboratoire",
        "des milliers de matchs joués par des bots, taux de victoire et intervalles",
        part="Pour les concepteurs",
    ),
    Chapter(
        "arbitrages-et-variantes.ipynb",
        "Arbitrages et variantes",
        "chaque arbitrage R1–R28, ses alternatives et l’effet des variantes sur les chances",
        part="Pour les concepteurs",
    ),
    Chapter(
        "aide-memoire.ipynb",
        "Aide-mémoire",
        "une page à imprimer pour la table de jeu",
        part="Référence",
        # From a turn's sequence to the end of a match, the movement rules aside.
        sections=tuple(s for s in RULEBOOK_SECTIONS[3:11] if s != "déplacements et blocages"),
    ),
    Chapter(
        "glossaire.ipynb",
        "Glossaire",
        "chaque terme du jeu en une phrase, avec le chapitre qui l’enseigne",
        part="Référence",
    ),
    Chapter(
        "concordance.ipynb",
        "Concordance des règles",
        "chaque phrase du livret, son chapitre, ses arbitrages, son code et ses tests",
        part="Référence",
    ),
    Chapter(
        "annexe-jeux-voisins.ipynb",
        "Annexe\u00a0: les dés des jeux voisins",
        "Vague Attaque et Akeruption, calculés exactement",
        part="Référence",
    ),
)

_BY_FILE = {c.file: c for c in CHAPTERS}

#: The reference pages every chapter's navigation links to, so that any term, rule or
#: ruling is two clicks away from any page: this link, then the entry on that page.
REFERENCE_PAGES = (
    "glossaire.ipynb",
    "aide-memoire.ipynb",
    "arbitrages-et-variantes.ipynb",
    "concordance.ipynb",
)


def chapter(file: str) -> Chapter:
    """The manifest entry of a notebook file name."""
    try:
        return _BY_FILE[file]
    except KeyError:
        raise ValueError(f"{file!r} is not a chapter of the book") from None


def previous_of(file: str) -> Chapter | None:
    index = CHAPTERS.index(chapter(file))
    return CHAPTERS[index - 1] if index else None


def next_of(file: str) -> Chapter | None:
    index = CHAPTERS.index(chapter(file))
    return CHAPTERS[index + 1] if index + 1 < len(CHAPTERS) else None


def number(file: str) -> int:
    """The chapter's number in the book (1-based, across parts)."""
    return CHAPTERS.index(chapter(file)) + 1


def _anchor(href: str, text: str, css: str = "") -> str:
    """A same-tab link: JupyterLab's output renderer opens links without a target in a new
    tab, so every link of the book's generated HTML says ``target="_self"``."""
    css_attr = f' class="{css}"' if css else ""
    return f'<a{css_attr} href="{escape(href)}" target="_self">{text}</a>'


def _link(target: Chapter, css: str, label: str) -> str:
    text = f"{label}\u00a0: {number(target.file)}. {escape(target.title)}"
    return _anchor(target.file, text, css)


def nav_html(file: str) -> str:
    """Previous chapter · contents · next chapter (the last chapter leads back home)."""
    before, after = previous_of(file), next_of(file)
    links = []
    if before:
        links.append(_link(before, "akvo-nav-previous", "← Chapitre précédent"))
    links.append(_anchor(HOME, "Sommaire", "akvo-nav-home"))
    if after:
        links.append(_link(after, "akvo-nav-next", "Chapitre suivant →"))
    else:
        links.append(_anchor(HOME, "Retour au sommaire →", "akvo-nav-next"))
    items = "".join(f"<li>{link}</li>" for link in links)
    references = " · ".join(
        _anchor(page, escape(chapter(page).title), "akvo-nav-reference")
        for page in REFERENCE_PAGES
        if page != file
    )
    return (
        f'<nav class="akvo-nav" aria-label="Chapitres"><ul>{items}</ul>'
        f'<p class="akvo-nav-references">Référence\u00a0: {references}</p></nav>'
    )


def toc_html() -> str:
    """The table of contents, part by part, numbered across the book."""
    blocks = []
    for part in PARTS:
        entries = [c for c in CHAPTERS if c.part == part]
        if not entries:
            continue
        items = "".join(
            f'<li value="{number(c.file)}">{_anchor(c.file, escape(c.title))}'
            f"\u00a0: {escape(c.summary)}</li>"
            for c in entries
        )
        blocks.append(f"<h3>{escape(part)}</h3><ol>{items}</ol>")
    return f'<nav class="akvo-toc" aria-label="Sommaire">{"".join(blocks)}</nav>'


def nav(file: str) -> HTML:
    """The navigation block that ends a chapter (one line in its notebook)."""
    return HTML(nav_html(file))


def toc() -> HTML:
    """The home page's table of contents (one line in ``index.ipynb``)."""
    return HTML(toc_html())
