"""The ``akvo`` command line: exact shot odds and rune duels in a terminal.

    akvo odds mage --tier 3 --distance 2 --attack-rune relance --resilience 1
    akvo odds chest --turn 4 --distance 3 --interception-distance 1 --vigie
    akvo duel mage --tier 2 --distance 2

Bad options print one line on stderr and exit with status 2 (no traceback), whether
argparse or the engine (:class:`~akvo.errors.AkvoError`) finds the problem.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import unicodedata
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn, TextIO

from akvo.arguments import add_rules_argument
from akvo.coach import cli as coach_cli
from akvo.config import CHOICES, RulesConfig
from akvo.errors import AkvoError, choose_among, did_you_mean, excerpt
from akvo.eval import cli as eval_cli
from akvo.extras import MissingExtra
from akvo.lab import cli as lab_cli
from akvo.lab import ladder_cli
from akvo.outputs import OutputNotWritten, check_writable
from akvo.rules import TIER_NUMERALS, tier_for_turn
from akvo.shots import (
    ATTACK_RUNES,
    DEFENCE_RUNES,
    RELANCE_POLICIES,
    RuneChoice,
    ShotOdds,
    Side,
    shot_on_chest,
    shot_on_mage,
)

USAGE_ERROR = 2
OUTPUT_ERROR = 1


class _UsageError(Exception):
    """Raised instead of argparse's exit, so that ``main`` can return 2 in-process."""


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting and names the closest choices or options
    to a typo (``--bots greedy greedyy`` → « did you mean greedy? »)."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is not None and value not in action.choices:
            known = [str(choice) for choice in action.choices]
            hint = did_you_mean(value, known)
            shown = ", ".join(map(repr, known))
            raise argparse.ArgumentError(
                action, f"invalid choice: {excerpt(value)}{choose_among(hint, shown)}"
            )

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            options = _option_strings(self, parsed)
            hints = [
                did_you_mean(extra.partition("=")[0], options)
                for extra in extras
                if extra.startswith("-")
            ]
            shown = " ".join(extras)
            self.error(f"unrecognized arguments: {shown}{next(filter(None, hints), '')}")
        return parsed


def _option_strings(parser: argparse.ArgumentParser, parsed: argparse.Namespace) -> list[str]:
    """The ``--options`` of the (sub)command ``parsed`` ran: the closest names to a typo."""
    options: list[str] = []
    for action in parser._actions:
        options += [o for o in action.option_strings if o.startswith("--")]
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(parsed, action.dest, None) or "")
            if chosen is not None:
                options += _option_strings(chosen, parsed)
    return options


def _rules(args: argparse.Namespace) -> RulesConfig:
    rules: RulesConfig = args.rules
    return rules.with_(prodige=args.prodige) if args.prodige else rules


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _rune_type(allowed: tuple[str, ...]) -> Callable[[str], RuneChoice]:
    """Parse a rune name: accents and case are ignored; 'none' means no rune."""
    aliases = {"none": None, "aucune": None, "defence": "defense", "attack": "attaque"}

    def parse(text: str) -> RuneChoice:
        word = _fold(text)
        rune = aliases.get(word, word)
        if rune is not None and rune not in allowed:
            hint = did_you_mean(word, allowed)
            raise argparse.ArgumentTypeError(
                f"{excerpt(text)} is not one of: none, {', '.join(allowed)}{hint}"
            )
        return rune  # type: ignore[return-value]

    return parse


def _interception_type(text: str) -> int | None:
    if _fold(text) in ("none", "aucune"):
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{excerpt(text)} is not a distance or 'none'") from None


def _add_situation(parser: argparse.ArgumentParser, *, chest: bool) -> None:
    wind = parser.add_mutually_exclusive_group(required=True)
    wind.add_argument("--tier", type=int, help="wind tier 1–4 (palier I–IV)")
    wind.add_argument("--turn", type=int, help="turn 1–10; sets the tier (R7)")
    parser.add_argument(
        "--distance",
        type=int,
        required=True,
        help="distance to the chest" if chest else "distance to the target mage",
    )
    if chest:
        parser.add_argument(
            "--interception-distance",
            type=_interception_type,
            default=None,
            metavar="N|none",
            help="interceptor–shooter distance; none or outside 1–4: no interception (R17)",
        )
    parser.add_argument("--souffle", action="store_true", help="Souffle portant: distance −2")
    parser.add_argument("--vigie", action="store_true", help="Vigie active: attack +1")
    parser.add_argument(
        "--tourbillon-attacker",
        action="store_true",
        help="the shooter is the Kitesurfeur with Tourbillon: defence rolls 1 die fewer",
    )
    parser.add_argument(
        "--resilience",
        type=int,
        default=0,
        help="Résilience 0–3 of the " + ("interceptor" if chest else "target"),
    )
    parser.add_argument("--egide", action="store_true", help="Égide active: defence +1")
    parser.add_argument(
        "--tourbillon-defender",
        action="store_true",
        help=(
            "the interceptor is the Kitesurfeur with Tourbillon: no effect, a chest shot"
            " does not attack it (R24)"
            if chest
            else "the target is the Kitesurfeur with Tourbillon: attack rolls 1 die fewer"
        ),
    )
    parser.add_argument(
        "--policy",
        choices=RELANCE_POLICIES,
        default=None,
        help=f"Relance policy of both sides (R15; default {RELANCE_POLICIES[0]})",
    )
    for side in ("attack", "defence"):
        parser.add_argument(
            f"--{side}-policy", choices=RELANCE_POLICIES, default=None, help="overrides --policy"
        )
    parser.add_argument(
        "--prodige",
        choices=CHOICES["prodige"],
        default=None,
        help="prodige variant (R13): four equal dice, or all dice equal",
    )
    add_rules_argument(parser)


def _add_runes(parser: argparse.ArgumentParser) -> None:
    """``--attack-rune`` and ``--defence-rune``: the runes each side may play (R20)."""
    for flags, allowed in (
        (("--attack-rune",), ATTACK_RUNES),
        (("--defence-rune", "--defense-rune"), DEFENCE_RUNES),
    ):
        names = tuple(rune for rune in allowed if rune)
        parser.add_argument(
            *flags,
            type=_rune_type(names),
            default=None,
            metavar="RUNE",
            help=f"none, {', '.join(names[:-1])} or {names[-1]}",
        )


def _build_parser() -> _Parser:
    parser = _Parser(prog="akvo", description="Exact odds of Akvolition shots.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    odds = commands.add_parser("odds", help="outcome table of one shot")
    duel = commands.add_parser("duel", help="rune duel of one shot (payoff matrix, equilibria)")
    for command, with_runes in ((odds, True), (duel, False)):
        kinds = command.add_subparsers(dest="kind", required=True, parser_class=_Parser)
        for kind in ("mage", "chest"):
            sub = kinds.add_parser(kind, help=f"a shot on a {kind}")
            _add_situation(sub, chest=kind == "chest")
            if with_runes:
                _add_runes(sub)
    lab_cli.add_parser(commands)
    lab_cli.add_tournament_parser(commands)
    ladder_cli.add_parser(commands)
    coach_cli.add_parser(commands)
    eval_cli.add_parser(commands)
    return parser


def _side(args: argparse.Namespace, role: str, **standing: Any) -> Side:
    """The ``attack`` or ``defence`` side: its ``--{role}-rune`` and Relance policy
    (``--{role}-policy``, else ``--policy``), with its standing effects."""
    policy = getattr(args, f"{role}_policy") or args.policy or RELANCE_POLICIES[0]
    return Side(rune=getattr(args, f"{role}_rune", None), policy=policy, **standing)


def _sides(args: argparse.Namespace) -> tuple[Side, Side]:
    attack = _side(
        args, "attack", vigie=args.vigie, tourbillon=args.tourbillon_attacker, souffle=args.souffle
    )
    defence = _side(
        args,
        "defence",
        resilience=args.resilience,
        egide=args.egide,
        tourbillon=args.tourbillon_defender,
    )
    return attack, defence


def _tier(args: argparse.Namespace) -> int:
    return tier_for_turn(args.turn) if args.turn is not None else int(args.tier)


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}%"


def _roll_text(odds: ShotOdds, which: str) -> str:
    r = odds.attack if which == "attack" else odds.defence
    if r is None:
        return "none"
    text = f"{r.dice} dice {r.modifier:+d} vs {r.threshold}"
    if r.reroll:
        text += f", Relance ({r.reroll})"
    return text


def _print_odds(odds: ShotOdds, out: TextIO) -> None:
    target = "a mage" if odds.kind == "mage" else "a chest"
    header = f"Shot on {target}: tier {TIER_NUMERALS[odds.tier]}, distance {odds.distance}"
    if odds.kind == "chest":
        header += (
            ", no interception"
            if odds.interception_distance is None
            else f", interception at {odds.interception_distance}"
        )
    print(header, file=out)
    second = "interception" if odds.kind == "chest" else "defence"
    print(f"attack roll: {_roll_text(odds, 'attack')}", file=out)
    print(f"{second} roll: {_roll_text(odds, 'defence')}", file=out)
    print("", file=out)
    width = max(len(k) for k in odds.outcomes)
    print(f"{'outcome':<{width}}  {'percent':>8}  exact", file=out)
    for name, p in odds.outcomes.items():
        print(f"{name:<{width}}  {_percent(p):>8}  {p}", file=out)
    print("", file=out)
    if odds.kind == "mage":
        lines = [
            ("P(push)", odds.p_push, _percent(odds.p_push)),
            ("expected push (cells)", odds.expected_push, f"{float(odds.expected_push):.4f}"),
        ]
    else:
        lines = [
            ("P(score)", odds.p_score, _percent(odds.p_score)),
            ("expected points", odds.expected_points, f"{float(odds.expected_points):.4f}"),
        ]
    lines += [
        ("attack prodige", odds.attack_prodige, _percent(odds.attack_prodige)),
        (f"{second} prodige", odds.defence_prodige, _percent(odds.defence_prodige)),
    ]
    width = max(len(label) for label, _, _ in lines)
    for label, exact, shown in lines:
        print(f"{label:<{width}}  {shown:>8}  {exact}", file=out)


def _print_duel(args: argparse.Namespace, out: TextIO) -> None:
    from akvo.duel import rune_duel  # scipy is imported only for duels

    attack, defence = _sides(args)
    duel = rune_duel(
        args.kind,
        _tier(args),
        args.distance,
        interception_distance=getattr(args, "interception_distance", None),
        attack=attack,
        defence=defence,
        rules=_rules(args),
    )
    metric = "P(push)" if duel.kind == "mage" else "expected points"
    names = [str(o or "none") for o in duel.defender_options]
    print(f"Rune duel, payoff = {metric} (attacker rows maximise)", file=out)
    width = max(len(str(o or "none")) for o in duel.attacker_options)
    print(" " * width + "".join(f"  {n:>9}" for n in names), file=out)
    for option, row in zip(duel.attacker_options, duel.payoff, strict=True):
        cells = "".join(f"  {float(v):>9.4f}" for v in row)
        print(f"{option or 'none':<{width}}{cells}", file=out)
    print("", file=out)
    choice = duel.attacker_options[duel.sequential_attacker_choice] or "none"
    print(
        f"attacker declares first (R18): play {choice}, value "
        f"{float(duel.sequential_value):.4f} ({duel.sequential_value})",
        file=out,
    )
    print(f"simultaneous zero-sum value: {duel.value:.4f}", file=out)
    mixes = (
        ("attacker mix", duel.attacker_options, duel.attacker_strategy),
        ("defender mix", duel.defender_options, duel.defender_strategy),
    )
    for label, options, strategy in mixes:
        shares = ", ".join(
            f"{o or 'none'} {w * 100:.1f}%" for o, w in zip(options, strategy, strict=True) if w
        )
        print(f"{label}: {shares}", file=out)


def _check_before_work(args: argparse.Namespace) -> None:
    """Every command's ``--out`` and ``--scheduler``, checked before any work starts: a
    missing folder or an unwritable path (:func:`akvo.outputs.check_writable`; folders are
    not created) and a scheduler that does not answer within a few seconds
    (:func:`akvo.lab.run.check_scheduler`) end the command at once, nothing written."""
    if getattr(args, "out", None) is not None:
        check_writable(Path(args.out))
    if getattr(args, "scheduler", None) is not None:
        from akvo.lab.run import check_scheduler

        check_scheduler(args.scheduler)


def _print_shot(args: argparse.Namespace, out: TextIO) -> None:
    """``akvo odds``: the outcome distribution of one shot."""
    attack, defence = _sides(args)
    rules = _rules(args)
    if args.kind == "mage":
        odds = shot_on_mage(_tier(args), args.distance, attack, defence, rules=rules)
    else:
        odds = shot_on_chest(
            _tier(args), args.distance, args.interception_distance, attack, defence, rules=rules
        )
    _print_odds(odds, out)


#: What runs each command, in one table (a new command adds one line here).
RUNNERS: dict[str, Callable[[argparse.Namespace, TextIO], None]] = {
    "odds": _print_shot,
    "duel": _print_duel,
    "simulate": lab_cli.run,
    "tournament": lab_cli.run_tournament,
    "ladder": ladder_cli.run,
    "analyse": coach_cli.run,
    "train": eval_cli.run,
}


def _run(args: argparse.Namespace, out: TextIO) -> None:
    _check_before_work(args)
    RUNNERS[args.command](args, out)


def _say(text: str) -> None:
    """One line on stderr, whatever its encoding can print."""
    stream = sys.stderr
    encoding = getattr(stream, "encoding", None) or "ascii"
    safe = text.encode(encoding, "replace").decode(encoding, "replace")
    try:
        stream.write(safe + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass


def _silence_stdout() -> None:
    """After a closed pipe, point stdout at /dev/null so the exit flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 output failed, 2 bad options).

    The output is built first and written once: a closed pipe (``| head``) ends quietly,
    an unwritable output or an encoding that cannot print it gives one line on stderr.
    Output files and schedulers are checked before any work starts (status 2, nothing
    written); a file that still fails to be written once the work is done is saved in the
    temporary folder, the printed output kept, and the line names where (status 1).
    """
    parser = _build_parser()
    buffer = io.StringIO()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help exits 0 through argparse (already printed)
            return exc.code if isinstance(exc.code, int) else 0
        try:
            _run(args, buffer)
        except OutputNotWritten as exc:  # the work is done: print it, then say where it went
            sys.stdout.write(buffer.getvalue() + (exc.unsaved or ""))
            sys.stdout.flush()
            _say(f"akvo: error: {exc}")
            return OUTPUT_ERROR
        sys.stdout.write(buffer.getvalue())
        sys.stdout.flush()
    except (_UsageError, AkvoError, MissingExtra) as exc:
        _say(f"akvo: error: {exc}")
        return USAGE_ERROR
    except BrokenPipeError:
        _silence_stdout()
        return OUTPUT_ERROR
    except UnicodeEncodeError as exc:
        _say(
            f"akvo: error: the output's encoding ({exc.encoding}) cannot print this text; "
            "set PYTHONIOENCODING=utf-8"
        )
        return OUTPUT_ERROR
    except OSError as exc:
        _say(f"akvo: error: cannot write the output: {exc.strerror or exc}")
        return OUTPUT_ERROR
    return 0
