"""The online tables' HTTP API and pages (:mod:`.api`, its files in ``static/``) and the
coach of a seat (:mod:`.coach`), over :mod:`akvo.online`."""
