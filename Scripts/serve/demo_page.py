#!/usr/bin/env python3
"""The page, the second pass and the report of `make demo-serve`.

    MAGPIE_SERVE_KEY=HEX MAGPIE_SERVE_SALT=HEX demo_page.py page --origin PORT --out DIR
    demo_page.py revisit --balancer PORT --out DIR
    demo_page.py report --out DIR --metrics FILE FILE --origin-log FILE --exits A B

`page` signs 24 thumbnail URLs (24 sample images, six in each of four
variants) with the fleet's key and salt from the environment, as imgproxy
does: URL-safe base64, no padding, of HMAC-SHA256 under the key of the
salt followed by the path after the signature. It writes
DIR/page/index.html, whose images load from the page's own server
(the load balancer) and whose onload script writes each image's
naturalWidth, naturalHeight and `complete` as JSON into <pre id=result>,
and DIR/manifest.json: each URL with the size it must decode at, worked
out here from the sample's size by imgproxy's rules (no enlarging, sides
rounded half away from zero).

`revisit` asks the balancer for every URL twice in a row on one
connection with Chromium's Accept: round robin sends one of each pair to
each instance, so the instance that did not transform a URL must find it
in the shared Redis tier.

`report` checks the page's result (DIR/dom.html, from Chromium's
--dump-dom), the screenshot (DIR/demo-serve.png: Pillow opens it, and it is
not blank), the instances' /metrics, the origin's access log and the
revisit, prints the table, writes DIR/check.json and exits 1 when a check
failed.
"""
import argparse, base64, hashlib, hmac, html, http.client, json, os, re, sys, urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
# What Chromium sends for an <img>: the negotiated variant is AVIF.
ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
# name, options, output extension, source form, the type answered to
# ACCEPT, images. Without `f:` or an extension the format is negotiated.
VARIANTS = [
    ("fill 160x120 webp", "rs:fill:160:120/q:75", "@webp", "plain", "image/webp",
     ["photo-00.jpg", "photo-04.jpg", "pan-00.gif", "pan-01.gif", "alpha-02.webp", "still-00.png"]),
    ("fit 240x240 avif", "rs:fit:240:240/f:avif", "", "plain", "image/avif",
     ["photo-01.jpg", "photo-03.jpg", "photo-05.jpg", "photo-01.webp", "cutout-01.png", "still-02.png"]),
    ("fill 120x120 g:sm jpeg", "rs:fill:120:120/g:sm", "@jpg", "plain", "image/jpeg",
     ["photo-06.jpg", "photo-07.jpg", "photo-09.jpg", "photo-00.webp", "pan-00.png", "cutout-03.png"]),
    ("fit 320x0 negotiated", "rs:fit:320:0", "", "base64", "image/avif",
     ["photo-02.jpg", "photo-10.jpg", "photo-08.jpg", "photo-03.webp", "alpha-05.webp", "cutout-05.png"]),
]


def round_half_away(value):
    return int(value + 0.5)


def expected_size(options, width, height):
    """imgproxy's result size for `rs:TYPE:W:H` over a WIDTHxHEIGHT source, without enlarging."""
    kind, target_w, target_h = re.match(r"rs:(fill|fit):(\d+):(\d+)", options).groups()
    target_w, target_h = int(target_w), int(target_h)
    w_shrink = 1 if target_w in (0, width) else width / target_w
    h_shrink = 1 if target_h in (0, height) else height / target_h
    if target_w == 0:
        w_shrink = h_shrink
    elif target_h == 0:
        h_shrink = w_shrink
    else:
        w_shrink = h_shrink = (max if kind == "fit" else min)(w_shrink, h_shrink)
    least = min(w_shrink, h_shrink)
    if least < 1:
        w_shrink, h_shrink = w_shrink / least, h_shrink / least
    scaled = (max(1, round_half_away(width * (1 / w_shrink))), max(1, round_half_away(height * (1 / h_shrink))))
    if kind == "fit":
        return scaled
    return (min(target_w, scaled[0]), min(target_h, scaled[1]))


def sign(key, salt, path):
    digest = hmac.new(key, salt + path.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def page(args):
    from PIL import Image
    key_hex, salt_hex = os.environ["MAGPIE_SERVE_KEY"], os.environ["MAGPIE_SERVE_SALT"]
    key, salt = bytes.fromhex(key_hex), bytes.fromhex(salt_hex)
    entries, sections = [], []
    for name, options, output, form, content_type, images in VARIANTS:
        figures = []
        for image in images:
            with Image.open(os.path.join(ROOT, "samples", image)) as source:
                width, height = source.size
            source_url = "http://127.0.0.1:%d/%s" % (args.origin, image)
            if form == "plain":
                tail = "/plain/" + urllib.parse.quote(source_url, safe="") + output
            else:
                tail = "/" + base64.urlsafe_b64encode(source_url.encode()).rstrip(b"=").decode() + output
            signed = "/" + options + tail
            path = "/" + sign(key, salt, signed) + signed
            w, h = expected_size(options, width, height)
            entry = {"id": "img%d" % len(entries), "image": image, "variant": name, "path": path,
                     "source": [width, height], "expected": [w, h], "type": content_type,
                     "negotiated": not output and "f:" not in options}
            entries.append(entry)
            figures.append(
                '<figure><img id="%s" src="%s" data-w="%d" data-h="%d" alt="%s">'
                '<figcaption>%s <span class="size">%dx%d</span></figcaption></figure>'
                % (entry["id"], html.escape(path), w, h, image, image, w, h))
        sections.append('<section><h2>%s <code>%s</code></h2><div class="row">%s</div></section>'
                        % (name, options, "".join(figures)))
    folder = os.path.join(args.out, "page")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(HERE, "demo_page.html")) as template:
        text = template.read().replace("@SECTIONS@", "\n".join(sections)).replace("@COUNT@", str(len(entries)))
    with open(os.path.join(folder, "index.html"), "w") as out:
        out.write(text)
    with open(os.path.join(args.out, "manifest.json"), "w") as out:
        json.dump({"key": key_hex, "salt": salt_hex, "origin": args.origin, "entries": entries}, out, indent=1)


def revisit(args):
    with open(os.path.join(args.out, "manifest.json")) as file:
        entries = json.load(file)["entries"]
    connection = http.client.HTTPConnection("127.0.0.1", args.balancer, timeout=30)
    results = []
    for entry in entries:
        answers = []
        for _ in range(2):
            connection.request("GET", entry["path"], headers={"Accept": ACCEPT})
            response = connection.getresponse()
            body = response.read()
            answers.append({"status": response.status, "bytes": len(body), "vary": response.getheader("Vary"),
                            "type": response.getheader("Content-Type"),
                            "instance": response.getheader("X-Magpie-Instance")})
        results.append({"id": entry["id"], "answers": answers})
    connection.close()
    with open(os.path.join(args.out, "revisit.json"), "w") as out:
        json.dump(results, out, indent=1)


def metrics(path):
    """requests, transforms and hits per tier from one instance's /metrics text."""
    found = {"requests": 0, "transforms": 0, "memory": 0, "redis": 0}
    with open(path) as file:
        for line in file:
            match = re.match(r'magpie_serve_(\w+)(?:\{(.*)\})? (\S+)$', line.strip())
            if not match:
                continue
            name, labels, value = match.group(1), match.group(2) or "", float(match.group(3))
            if name == "requests_total":
                found["requests"] += int(value)
            elif name == "stage_seconds_count" and labels == 'stage="transform"':
                found["transforms"] = int(value)
            elif name == "cache_hits_total":
                tier = re.match(r'tier="(\w+)"', labels).group(1)
                found[tier] = found.get(tier, 0) + int(value)
    return found


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("page")
    one.add_argument("--origin", type=int, required=True)
    one.add_argument("--out", required=True)
    two = commands.add_parser("revisit")
    two.add_argument("--balancer", type=int, required=True)
    two.add_argument("--out", required=True)
    three = commands.add_parser("report")
    three.add_argument("--out", required=True)
    three.add_argument("--metrics", nargs=2, required=True)
    three.add_argument("--origin-log", required=True)
    three.add_argument("--exits", nargs=2, type=int, required=True)
    parsed = parser.parse_args()
    if parsed.command == "page":
        page(parsed)
    elif parsed.command == "revisit":
        revisit(parsed)
    else:
        from demo_report import report
        sys.exit(report(parsed, [metrics(path) for path in parsed.metrics]))
