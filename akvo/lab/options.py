"""The lab's ``rules`` argument: text, a dict, a RulesConfig or None, as a RulesConfig."""

from __future__ import annotations

from akvo.config import RulesConfig


def parse_rules(text: str | dict[str, str] | RulesConfig | None) -> RulesConfig:
    """``"weather=coin,prodige=all"`` (or a dict, or a RulesConfig) → :class:`RulesConfig`.

    ``None`` or an empty text means the default rules; the text and the dict are read by
    :meth:`RulesConfig.from_text` / :meth:`RulesConfig.from_dict`, which name a bad pair.
    """
    if text is None:
        return RulesConfig()
    if isinstance(text, RulesConfig):
        return text
    if isinstance(text, dict):
        return RulesConfig.from_dict(text)
    return RulesConfig.from_text(text)


def rules_text(rules: RulesConfig) -> str:
    """The variants that differ from the default, as ``--rules`` text (empty: default)."""
    default = RulesConfig().to_dict()
    return ",".join(f"{k}={v}" for k, v in rules.to_dict().items() if default[k] != v)
