# ruff: noqa: E501  (the glossary is a table of one-sentence definitions, one per line)
"""The glossary: every game term in one sentence, with an anchor (``glossaire.ipynb#id``) and
a link to the chapter that teaches it. Numbers in the definitions come from the engine.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from html import escape
from typing import Any

import ipywidgets as w
from IPython.display import HTML

from akvo.bots import LADDER, REGISTRY
from akvo.config import CHOICES
from akvo.match.board import START_ROW
from akvo.resolution import ATTAQUE_BONUS, DEFAULT_DICE, DEFENSE_BONUS, SOUFFLE_REDUCTION
from akvo.rules import (
    CRITICAL_MARGIN,
    DISTANCES,
    LANES,
    LETTERS,
    MAX_RESILIENCE,
    ROWS,
    TIE_BREAK_TURNS,
    TIERS,
    TURNS,
    miles,
)
from akvo.variants import VARIANT_RULINGS
from akvo_widgets.chapters import CHAPTERS
from akvo_widgets.kit import controls as c
from akvo_widgets.text.formatting import french, tier_numeral
from akvo_widgets.text.labels import SHEET_SIDES

GLOSSARY_FILE = "glossaire.ipynb"


#: The ladder's levels in words, weakest first, each with what it does (from the bots' registry).
_LADDER_WORDS = "\u00a0; ".join(
    f"« {REGISTRY[name].label} » {REGISTRY[name].description}" for name in LADDER
)


@dataclass(frozen=True, slots=True)
class Term:
    """One glossary entry: the term, its one-sentence definition, where it is taught."""

    term: str
    definition: str
    chapter: str

    @property
    def anchor(self) -> str:
        return slug(self.term)


def slug(text: str) -> str:
    """``Résilience`` → ``resilience``; ``Jeton double`` → ``jeton-double``."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


_TIERS = f"{tier_numeral(TIERS[0])} à {tier_numeral(TIERS[-1])}"
_AID = "aide-memoire.ipynb"
#: The rules variants the engine plays, counted from its configuration (never typed).
_VARIANT_COUNTS = Counter(VARIANT_RULINGS[field] for field in CHOICES)
_TIMES = {2: "deux", 3: "trois"}
_RULING_LIST = ", ".join(
    ruling + (f" ({_TIMES[n]})" if n > 1 else "")
    for ruling, n in sorted(_VARIANT_COUNTS.items(), key=lambda item: int(item[0][1:]))
)
_VARIANTS = f"{len(CHOICES)} ({_RULING_LIST})"
_RULINGS = "arbitrages-et-variantes.ipynb"

TERMS: tuple[Term, ...] = (
    Term(
        "Arbitrage",
        "Décision numérotée (R1 à R28) qui tranche un point où le livret est muet, ambigu ou contradictoire.",
        _RULINGS,
    ),
    Term(
        "Avancer",
        "Ordre qui fait avancer une unité d’une case vers la plage adverse, si la case est libre.",
        "avancer-et-se-bloquer.ipynb",
    ),
    Term(
        "Blocage",
        "Une unité qui a une autre unité juste devant elle ne peut pas avancer, mais peut toujours tirer.",
        "avancer-et-se-bloquer.ipynb",
    ),
    Term(
        "Bot",
        f"Adversaire joué par le moteur, en {len(LADDER)} niveaux, du plus faible au plus fort\u00a0: {_LADDER_WORDS}\u00a0; hors de cette échelle, « {REGISTRY['random'].label} » {REGISTRY['random'].description}.",
        "jouer-un-match.ipynb",
    ),
    Term(
        "Camp",
        "L’une des deux équipes, A ou B, chacune avec ses six mages et sa plage.",
        "plateau-et-mise-en-place.ipynb",
    ),
    Term(
        "Camp avantagé",
        "Le camp désigné par le jeton météo du tour : il active sa première unité avant l’autre.",
        "tour-de-jeu.ipynb",
    ),
    Term(
        "Case d’eau",
        f"Une des {len(ROWS)} cases d’un couloir, entre les deux plages ; on la repère par sa rangée.",
        "plateau-et-mise-en-place.ipynb",
    ),
    Term(
        "Coffre",
        "Coffre de larimar posé sur une plage, un par couloir : le toucher sans être intercepté marque des points.",
        "tir-sur-un-coffre.ipynb",
    ),
    Term(
        "Confusion",
        "Catégorie de rune (symbole @, R19) : l’adversaire lance un dé de moins à son prochain jet de la résolution.",
        "runes-et-ultimes.ipynb",
    ),
    Term(
        "Couloir",
        f"Une des {len(LANES)} colonnes du plan d’eau ; une unité n’en change jamais, et chaque personnage a le sien (R1).",
        "plateau-et-mise-en-place.ipynb",
    ),
    Term(
        "Critique",
        f"Jet dont le total dépasse le seuil d’au moins {CRITICAL_MARGIN} : recul de deux cases, deux points, ou recul du tireur en défense.",
        "des.ipynb",
    ),
    Term(
        "Départage",
        f"Quand le score est à égalité après le tour {TURNS[-1]} : les tours {TIE_BREAK_TURNS[0]} et {TIE_BREAK_TURNS[-1]}, joués au palier {tier_numeral(TIERS[-1])}, puis les mages dans la moitié adverse, puis le match nul (R25).",
        "fin-du-match.ipynb",
    ),
    Term(
        "Défense",
        f"Catégorie de rune (symbole U) : +{DEFENSE_BONUS} à son jet de défense ou d’interception ; c’est aussi le jet de la cible d’un tir.",
        "runes-et-ultimes.ipynb",
    ),
    Term(
        "Défense critique",
        "Défense ou interception critique : l’attaque est annulée et le tireur recule d’une case.",
        "tir-sur-un-mage.ipynb",
    ),
    Term(
        "Distance",
        f"Nombre de cases qui séparent le tireur de sa cible, en lignes droites ; un tir se fait de 1 à {DISTANCES[-1]} (R4).",
        "matrice-du-vent.ipynb",
    ),
    Term(
        "Double-jeton",
        "Jeton d’ordre du navire qui porte deux ordres à la fois : Avancer / Avancer, Avancer / Tirer (son orientation dit quel mage central tire) ou Tirer / Tirer.",
        "tour-de-jeu.ipynb",
    ),
    Term(
        "Égide",
        "Ultime du Barreur : jusqu’à la fin du tour, tous ses alliés ont +1 en défense.",
        "ultimes-en-jeu.ipynb",
    ),
    Term(
        "Feuille de score",
        f"Feuille du livret où chaque camp, côté « {SHEET_SIDES[0]} » ou « {SHEET_SIDES[1]} », écrit le nom de son équipe, ceux de ses six mages et le score final.",
        "equipes.ipynb",
    ),
    Term(
        "Grimoire",
        f"Table des {len(LETTERS)} runes, une par lettre, avec leur nom et le symbole de leur catégorie.",
        "runes-et-ultimes.ipynb",
    ),
    Term(
        "Interception",
        "Jet de défense du mage adverse du couloir contre un tir sur son coffre ; réussi, il arrête le tir.",
        "tir-sur-un-coffre.ipynb",
    ),
    Term(
        "Jet",
        f"{DEFAULT_DICE} dés à six faces additionnés, plus les modificateurs, comparés à un seuil.",
        "des.ipynb",
    ),
    Term(
        "Jeton météo",
        "Jeton révélé à chaque tour qui donne le sens du vent et le camp avantagé (R8).",
        "tour-de-jeu.ipynb",
    ),
    Term(
        "Liste d’équipe",
        "Les 26 lettres de runes d’une équipe, par groupes de quatre dans l’ordre des couloirs, plus deux lettres bonus (R27).",
        "equipes.ipynb",
    ),
    Term(
        "Mage",
        "Un des six personnages d’une équipe : Pédalair, Kitesurfeur, Barreur, Lanceur, Surfeur, Plongeur.",
        "equipes.ipynb",
    ),
    Term(
        "Mage central",
        "Le Barreur ou le Lanceur : ils partagent le navire, mais ont chacun leurs runes, leur Ultime et leur Résilience.",
        "plateau-et-mise-en-place.ipynb",
    ),
    Term(
        "Mage latéral",
        "Le Pédalair, le Kitesurfeur, le Surfeur ou le Plongeur : chacun est seul sur son pion, dans son couloir.",
        "plateau-et-mise-en-place.ipynb",
    ),
    Term(
        "Matrice",
        "Tableau qui donne les seuils d’Attaque (X) et de Défense (U) selon le palier du vent et la distance.",
        "matrice-du-vent.ipynb",
    ),
    Term(
        "Mile",
        f"Unité de distance de la matrice : un mile, c’est une case ; un tir porte de {miles(DISTANCES[0])} à {miles(DISTANCES[-1])} (R4).",
        "matrice-du-vent.ipynb",
    ),
    Term(
        "Modificateur",
        f"Bonus ajouté aux dés : +{ATTAQUE_BONUS} pour une rune d’Attaque ou de Défense, +1 pour Vigie ou Égide, +1 par point de Résilience.",
        "des.ipynb",
    ),
    Term(
        "Moitié adverse",
        "Les rangées de la moitié du plan d’eau côté adversaire ; elles départagent une égalité persistante (R25).",
        "fin-du-match.ipynb",
    ),
    Term(
        "Mouvement",
        "Catégorie de rune (symbole →) : une case de plus sur un ordre Avancer, ou une case d’avance juste avant un tir ; par défaut, aucune sur l’avance de Rouleau (R20).",
        "avancer-et-se-bloquer.ipynb",
    ),
    Term(
        "Navire",
        "Unité centrale de chaque camp, qui occupe deux couloirs et porte le Barreur et le Lanceur.",
        "plateau-et-mise-en-place.ipynb",
    ),
    Term(
        "Ordre",
        "Avancer ou Tirer : programmé en secret pour chaque unité, puis révélé et joué.",
        "tour-de-jeu.ipynb",
    ),
    Term(
        "Palier",
        f"Force du vent, de {_TIERS} : elle monte tous les deux tours et fixe la ligne de la matrice (R7).",
        "matrice-du-vent.ipynb",
    ),
    Term(
        "Phare",
        f"Piste du vent à {len(TURNS)} niveaux : le marqueur monte d’un niveau à chaque tour.",
        "tour-de-jeu.ipynb",
    ),
    Term(
        "Plage",
        f"Bord du plan d’eau de chaque camp, avec ses coffres ; les unités partent de la {START_ROW[0]}e case d’eau devant elle.",
        "plateau-et-mise-en-place.ipynb",
    ),
    Term(
        "Point",
        "Marqué en capturant un coffre : 1, ou 2 si l’attaque était critique ; seuls les coffres en donnent (R26).",
        "tir-sur-un-coffre.ipynb",
    ),
    Term(
        "Prodige",
        f"Jet dont les {DEFAULT_DICE} dés montrent la même face : le mage récupère une rune dépensée, qu’il peut rejouer dès la résolution suivante (R13, R23).",
        "des.ipynb",
    ),
    Term(
        "Recul",
        "Déplacement subi vers sa propre plage : une case, deux après une attaque critique.",
        "tir-sur-un-mage.ipynb",
    ),
    Term(
        "Relance",
        "Catégorie de rune (symbole #, R19) : relancer un dé de son propre jet, après l’avoir vu (R15).",
        "des.ipynb",
    ),
    Term(
        "Résilience",
        f"Point gagné à chaque recul subi, jusqu’à {MAX_RESILIENCE} : chacun donne +1 en défense et en interception (R11).",
        "tir-sur-un-mage.ipynb",
    ),
    Term(
        "Résolution",
        "Un tir avec son éventuelle interception : chaque camp y joue une rune au plus, et par défaut la rune de Mouvement jouée juste avant le tir en est une (R18).",
        "runes-et-ultimes.ipynb",
    ),
    Term(
        "Rouleau",
        "Ultime du Surfeur : quand son tir fait reculer le Surfeur adverse de son couloir, il avance aussitôt d’une case (deux avec une rune de Mouvement, en variante, R20).",
        "ultimes-en-jeu.ipynb",
    ),
    Term(
        "Rune",
        "Pierre magique à usage unique, personnelle ou bonus, dont la catégorie donne l’effet ; jouée, elle est dépensée.",
        "runes-et-ultimes.ipynb",
    ),
    Term(
        "Rune bonus",
        "Une des deux runes d’équipe que n’importe quel mage du camp peut jouer (R21).",
        "equipes.ipynb",
    ),
    Term(
        "Rune U",
        "La rune « Ultime » du grimoire : la dépenser rend à son porteur son pouvoir Ultime (R22).",
        "runes-et-ultimes.ipynb",
    ),
    Term(
        "Seuil",
        "Nombre que le total d’un jet doit atteindre, lu dans la matrice : X pour l’attaque, U pour la défense.",
        "des.ipynb",
    ),
    Term(
        "Souffle portant",
        f"Ultime du Pédalair : juste avant un tir allié, la distance baisse de {SOUFFLE_REDUCTION}, sans descendre sous 1.",
        "ultimes-en-jeu.ipynb",
    ),
    Term(
        "Tir",
        "Ordre qui vise un mage adverse ou le coffre adverse de son couloir, à portée.",
        "tir-sur-un-mage.ipynb",
    ),
    Term(
        "Tir diagonal",
        "Tir vers un couloir voisin : il ajoute 1 à la distance.",
        "matrice-du-vent.ipynb",
    ),
    Term(
        "Tourbillon",
        "Ultime du Kitesurfeur : jusqu’à la fin du tour, qui l’attaque ou se défend contre son tir lance un dé de moins.",
        "ultimes-en-jeu.ipynb",
    ),
    Term(
        "Trident",
        "Ultime du Plongeur : jusqu’à trois tirs au lieu d’un, sur des mages seulement.",
        "ultimes-en-jeu.ipynb",
    ),
    Term(
        "Ultime",
        "Pouvoir propre à chaque personnage, utilisable une fois par match ; ce n’est pas une rune (R24).",
        "ultimes-en-jeu.ipynb",
    ),
    Term(
        "Unité",
        "Un pion sur le plan d’eau : quatre personnages latéraux et le navire, soit cinq par camp.",
        "plateau-et-mise-en-place.ipynb",
    ),
    Term(
        "Variante",
        f"Autre lecture d’un arbitrage, que le moteur sait jouer pour comparer ; il en connaît {_VARIANTS}.",
        _RULINGS,
    ),
    Term(
        "Vigie",
        "Ultime du Lanceur : jusqu’à la fin du tour, tous ses alliés ont +1 en attaque.",
        "ultimes-en-jeu.ipynb",
    ),
)
BY_ANCHOR = {t.anchor: t for t in TERMS}
_TITLES = {ch.file: ch.title for ch in CHAPTERS}


#: JupyterLab floats each <dt> and <dd> side by side at fixed widths: a long term (« Camp
#: avantagé ») then prints over its definition on a phone. Each term goes on its own line.
#: (Kept out of :func:`french`, whose spaces before « : » and « ; » would void the CSS.)
_STYLE = """<style>
.akvo-glossary dt { float: none; width: auto; margin: 0.9em 0 0.1em; font-weight: 700; }
.akvo-glossary dd { float: none; width: auto; margin: 0 0 0 1em; }
</style>"""


def glossary_html() -> str:
    """The whole glossary as a definition list; each term has its anchor id."""
    items = []
    for term in sorted(TERMS, key=lambda t: slug(t.term)):
        title = _TITLES.get(term.chapter, term.chapter)
        link = f"<a href='{term.chapter}' target='_self'>{escape(title)}</a>"
        items.append(
            f"<dt id='{term.anchor}'>{escape(term.term)}</dt>"
            f"<dd>{escape(term.definition)} <span class='akvo-glossary-where'>→ {link}</span></dd>"
        )
    return _STYLE + french(f"<dl class='akvo-glossary'>{''.join(items)}</dl>")


#: Voilà draws the page after the browser has looked for the #fragment: scroll to it then.
_SCROLL = """<script>(function () {
  var id = decodeURIComponent(location.hash.slice(1)), tries = 0;
  if (!id) return;
  var timer = setInterval(function () {
    var e = document.getElementById(id);
    tries += 1;
    if (e && e.getClientRects().length) {
      e.scrollIntoView();
      if (Math.abs(e.getBoundingClientRect().top) < 2 || tries > 100) clearInterval(timer);
    } else if (tries > 100) {
      clearInterval(timer);
    }
  }, 150);
})();</script>"""


def glossary() -> HTML:
    """The glossary page's one output (its terms carry the ids other pages link to)."""
    return HTML(glossary_html() + _SCROLL)


class TermFinder(w.VBox):
    """Pick a term: its definition and the chapter that teaches it."""

    def __init__(self, anchor: str = "arbitrage") -> None:
        options = [(t.term, t.anchor) for t in sorted(TERMS, key=lambda t: slug(t.term))]
        self.term = c.dropdown("Terme", options, anchor, "akvo-glossary-term")
        self.result = c.html("akvo-glossary-definition")
        super().__init__([c.panel([self.term, self.result], "akvo-glossary-finder")])
        self.term.observe(self._update, names="value")
        self._update()

    def _update(self, _change: Any = None) -> None:
        self.result.value = french(escape(BY_ANCHOR[self.term.value].definition))
