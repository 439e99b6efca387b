"""How each system's test works, in our own words: a page per system under /rules/, which every
test panel links to."""
