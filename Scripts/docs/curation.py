#!/usr/bin/env python3
"""Fails when a module's landing page leaves a top-level public symbol or
an article of its catalog out of its topic groups (DocC would file it
under a group of its own making).

    curation.py SYMBOL_GRAPH_DIR LANDING_PAGE.md
"""
import json
import pathlib
import re
import sys

graphs, landing = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
module = landing.stem
top = set()
for graph in graphs.glob(f"{module}.symbols.json"):
    for symbol in json.loads(graph.read_text())["symbols"]:
        if len(symbol["pathComponents"]) == 1:
            top.add(symbol["pathComponents"][0])
text = landing.read_text()
topics = text[text.index("## Topics"):] if "## Topics" in text else ""
curated = {link.split("/")[0] for link in re.findall(r"``([^`]+)``", topics)}
missing = sorted(name for name in top if name not in curated)
if not top:
    sys.exit(f"docs: {module}: no top-level symbols read from {graphs}")
if missing:
    sys.exit(f"docs: {module}: not in any topic group of {landing}: {', '.join(missing)}")
# Every article of the catalog has its place in a topic group too.
linked = set(re.findall(r"<doc:([^>]+)>", topics))
articles = sorted(p.stem for p in landing.parent.glob("*.md") if p != landing)
unlinked = [name for name in articles if name not in linked]
if unlinked:
    sys.exit(f"docs: {module}: articles in no topic group of {landing}: {', '.join(unlinked)}")
print(f"docs: {module}: {len(top)} top-level symbols and {len(articles)} articles, all in topic groups")
