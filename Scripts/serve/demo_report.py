"""`demo_page.py report`: the checks and the table of `make demo-serve`."""
import collections, json, os, re

# A screenshot whose thumbnails drew has over 100,000 colours; the same
# page with the images hidden (its text alone, antialiased) about 700.
MINIMUM_COLOURS = 5000


def page_result(out, entries, failures):
    """The onload script's JSON from Chromium's --dump-dom, checked against the manifest."""
    try:
        with open(os.path.join(out, "dom.html")) as file:
            dom = file.read()
    except OSError as error:
        failures.append("no DOM from Chromium: %s" % error)
        return []
    match = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
    if not match or match.group(1).strip() == "pending":
        failures.append("the page's onload script never ran (no result in Chromium's DOM)")
        return []
    result = {item["id"]: item for item in json.loads(match.group(1))}
    good = 0
    for entry in entries:
        got = result.get(entry["id"])
        want = entry["expected"]
        if not got:
            failures.append("%s (%s): not on the page" % (entry["image"], entry["variant"]))
        elif not got["complete"] or [got["naturalWidth"], got["naturalHeight"]] != want:
            failures.append("%s (%s): decoded %dx%d, complete %s; requested %dx%d" % (
                entry["image"], entry["variant"], got["naturalWidth"], got["naturalHeight"], got["complete"],
                want[0], want[1]))
        else:
            good += 1
    print("page: %d of %d images decoded in Chromium at the requested size" % (good, len(entries)))
    return list(result.values())


def screenshot(out, failures):
    path = os.path.join(out, "demo-serve.png")
    try:
        from PIL import Image
        with Image.open(path) as image:
            image.load()
            size = image.size
            colours = image.convert("RGB").getcolors(maxcolors=1 << 24)
    except Exception as error:  # a missing file or one Pillow cannot read
        failures.append("screenshot %s: %s" % (path, error))
        return {}
    count = len(colours or [])
    if count < MINIMUM_COLOURS:
        failures.append("screenshot %s is blank or has no thumbnails: %d colours (want %d or more)"
                        % (path, count, MINIMUM_COLOURS))
    print("screenshot: %s, %dx%d, %d colours" % (path, size[0], size[1], count))
    return {"path": path, "width": size[0], "height": size[1], "colours": count}


def origin_counts(log, entries, failures):
    counts = collections.Counter()
    with open(log) as file:
        for line in file:
            uri = line.split(" ", 1)[0]
            if uri != "/__magpie-origin":
                counts[uri.lstrip("/")] += 1
    print("origin (nginx access log): requests per source image, %d in all" % sum(counts.values()))
    for entry in entries:
        count = counts.get(entry["image"], 0)
        print("  %-14s %-24s %d" % (entry["image"], entry["variant"], count))
        if count != 1:
            failures.append("the origin served %s %d times; one transform across the fleet fetches it once"
                            % (entry["image"], count))
    extra = set(counts) - {entry["image"] for entry in entries}
    if extra:
        failures.append("the origin served files no URL names: %s" % sorted(extra))
    return dict(counts)


def revisit_check(out, entries, failures):
    """Each URL's two answers: 200 from two instances, the format asked for, Vary: Accept when negotiated."""
    with open(os.path.join(out, "revisit.json")) as file:
        revisits = {item["id"]: item["answers"] for item in json.load(file)}
    for entry in entries:
        answers = revisits.get(entry["id"], [])
        name = "%s (%s)" % (entry["image"], entry["variant"])
        varies = [answer["vary"] is not None and "accept" in answer["vary"].lower() for answer in answers]
        if len(answers) != 2 or any(answer["status"] != 200 for answer in answers):
            failures.append("revisit %s: statuses %s" % (name, [answer["status"] for answer in answers]))
        elif answers[0]["instance"] == answers[1]["instance"]:
            failures.append("revisit %s: both requests went to %s" % (name, answers[0]["instance"]))
        elif any(answer["type"] != entry["type"] for answer in answers):
            failures.append("revisit %s: %s, not %s" % (name, [answer["type"] for answer in answers], entry["type"]))
        elif entry["negotiated"] and not all(varies):
            failures.append("revisit %s: a negotiated format without Vary: Accept through the balancer" % name)
    return revisits


def report(args, instances):
    out = args.out
    failures = []
    with open(os.path.join(out, "manifest.json")) as file:
        entries = json.load(file)["entries"]
    result = page_result(out, entries, failures)
    shot = screenshot(out, failures)
    revisits = revisit_check(out, entries, failures)
    print()
    print("%-9s %9s %11s %12s %11s %10s" % ("instance", "requests", "transforms", "memory hits", "redis hits",
                                           "SIGTERM"))
    for number, (counts, status) in enumerate(zip(instances, args.exits), 1):
        print("%-9s %9d %11d %12d %11d %10s" % (number, counts["requests"], counts["transforms"],
                                                counts["memory"], counts["redis"], "exit %d" % status))
        if status != 0:
            failures.append("instance %d exited %d on SIGTERM" % (number, status))
        if counts["transforms"] == 0:
            failures.append("instance %d transformed nothing: the balancer did not spread the page" % number)
    total = {name: sum(counts[name] for counts in instances) for name in ("requests", "transforms", "memory", "redis")}
    print("%-9s %9d %11d %12d %11d" % ("fleet", total["requests"], total["transforms"], total["memory"],
                                       total["redis"]))
    print("(%d URLs: Chromium loads each once, then each is asked for twice more, once per instance)"
          % len(entries))
    print()
    if total["transforms"] != len(entries):
        failures.append("the fleet made %d transforms for %d URLs" % (total["transforms"], len(entries)))
    if total["redis"] != len(entries):
        failures.append("%d Redis hits; each URL's second instance should find it there (%d)"
                        % (total["redis"], len(entries)))
    if total["requests"] != 3 * len(entries):
        failures.append("the fleet answered %d requests, not %d" % (total["requests"], 3 * len(entries)))
    origin = origin_counts(args.origin_log, entries, failures)
    with open(os.path.join(out, "check.json"), "w") as file:
        json.dump({"failures": failures, "page": result, "screenshot": shot, "instances": instances,
                   "origin": origin, "revisits": revisits}, file, indent=1)
    for failure in failures:
        print("FAIL: " + failure)
    print("demo-serve: %s" % ("every check passed" if not failures else "%d checks failed" % len(failures)))
    return 1 if failures else 0
