"""The book's play pages: a match against a bot or a friend, replays, a guided first turn and
exercises. Controllers own a :class:`akvo.match.MatchState` and hold no rule: every legal
move, every chance outcome and every number comes from :mod:`akvo`.
"""
