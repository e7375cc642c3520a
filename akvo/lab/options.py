"""Parse the lab's ``--rules weather=coin,prodige=all`` option into a RulesConfig."""

from __future__ import annotations

from akvo.config import RulesConfig
from akvo.errors import RulesError


def parse_rules(text: str | dict[str, str] | RulesConfig | None) -> RulesConfig:
    """``"weather=coin,prodige=all"`` (or a dict, or a RulesConfig) → :class:`RulesConfig`.

    An empty text means the default rules; a bad pair raises :class:`RulesError` naming it.
    """
    if text is None:
        return RulesConfig()
    if isinstance(text, RulesConfig):
        return text
    if isinstance(text, dict):
        return RulesConfig.from_dict(text)
    if not isinstance(text, str):
        raise RulesError(f"rules must be text like 'weather=coin', got {type(text).__name__}")
    pairs: dict[str, str] = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise RulesError(f"rules item {item!r} is not name=value (e.g. weather=coin)")
        name = name.strip().replace("-", "_")
        if name in pairs:
            raise RulesError(f"rules variant {name!r} is given twice")
        pairs[name] = value.strip()
    return RulesConfig.from_dict(pairs)


def rules_text(rules: RulesConfig) -> str:
    """The inverse of :func:`parse_rules` for the variants that differ from the default."""
    default = RulesConfig().to_dict()
    return ",".join(f"{k}={v}" for k, v in rules.to_dict().items() if default[k] != v)
