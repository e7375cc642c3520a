"""The book's first part, « Apprendre à jouer »: the calculators, the team builder, the
turn stepper, the movement and end-of-match labs, the Ultimes' scenes and the worked
examples of the chapters."""
