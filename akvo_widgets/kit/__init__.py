"""The ipywidgets building blocks of the pages: controls, the calculators' base, plots and
the file picker (over :mod:`akvo_widgets.text`)."""
