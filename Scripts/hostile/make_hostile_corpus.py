#!/usr/bin/env python3
"""Writes a folder of valid and hostile images made from the test fixtures.

Every format the fixtures hold (JPEG, PNG, APNG, GIF, WebP, AVIF, HEIC,
JPEG XL, BMP, ICO, TIFF, SVG, PDF, MP4/MOV, WebM) is sniffed by its bytes. Each output file is one of: a valid copy,
a truncation at a random offset, random byte flips, or a header rewritten to
declare sizes near and over the decode limits (dimensions just under and
over --max-pixels, frame counts over --max-frames, huge chunk, box and
segment lengths, huge ICC and EXIF lengths). Python 3 standard library only.

    make_hostile_corpus.py OUT_DIR [--count N] [--seed S] [--max-pixels P] [--max-frames F]

The seed is random unless given and printed either way, so a failing run can
be made again. Writes OUT_DIR/manifest.json: each file's source, format and
mutation. Every corpus also holds the named hostile files of issue 36
(named_NN_FORMAT.EXT, see named_hostile()), whatever the seed.
"""
import argparse, json, os, random, struct, sys, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.normpath(os.path.join(HERE, "..", "..", "Tests", "MagpieTests", "Fixtures"))


def sniff(b):
    if b[:3] == b"\xff\xd8\xff": return "jpeg"
    if b[:8] == b"\x89PNG\r\n\x1a\n": return "apng" if b"acTL" in b[:4096] else "png"
    if b[:6] in (b"GIF87a", b"GIF89a"): return "gif"
    if b[:4] == b"RIFF" and b[8:12] == b"WEBP": return "webp"
    if b[4:8] == b"ftyp":
        brands = b[8:32]
        if b"avif" in brands or b"avis" in brands: return "avif"
        if any(x in brands for x in (b"heic", b"heix", b"mif1", b"heim", b"hevc")): return "heif"
    if b[:4] in (b"II*\x00", b"MM\x00*"): return "tiff"
    if b[:2] == b"\xff\x0a" or b[:12] == b"\x00\x00\x00\x0cJXL \r\n\x87\n": return "jxl"
    if b[:2] == b"BM" and len(b) >= 18 and struct.unpack("<I", b[14:18])[0] in (12, 16, 40, 52, 56, 64, 108, 124):
        return "bmp"
    if b[:5] == b"%PDF-": return "pdf"
    if b[:4] == b"\x1a\x45\xdf\xa3": return "webm"
    if b[4:8] == b"ftyp" and any(x in b[8:32] for x in (b"isom", b"mp41", b"mp42", b"qt  ")): return "mp4"
    if b.lstrip()[:5] in (b"<?xml", b"<svg ") and b"<svg" in b[:4096]: return "svg"
    if b[:4] in (b"\x00\x00\x01\x00", b"\x00\x00\x02\x00") and len(b) >= 6 and b[4:6] != b"\x00\x00": return "ico"
    return None


def sources(max_size):
    found = {}
    for root, _, names in os.walk(FIXTURES):
        if os.sep + "hostile" in root: continue
        for name in sorted(names):
            path = os.path.join(root, name)
            if os.path.getsize(path) > max_size: continue
            with open(path, "rb") as f: data = f.read()
            fmt = sniff(data)
            if fmt: found.setdefault(fmt, []).append((os.path.relpath(path, FIXTURES), data))
    return found


def near_sizes(limit, side_max, rng):
    """(width, height) pairs with width * height just under, at and just over `limit`."""
    out = []
    for target in (limit - 1, limit, limit + 1, limit * 4, side_max * side_max):
        w = min(side_max, max(1, int(target ** 0.5) + rng.randint(-50, 50)))
        h = max(1, min(side_max, target // w + (1 if target > limit else 0)))
        out.append((w, h))
    out.append((side_max, side_max))
    out.append((0, rng.randint(1, 100)))
    return out


# PNG ----------------------------------------------------------------------
def png_chunks(b):
    pos, out = 8, []
    while pos + 8 <= len(b):
        length, = struct.unpack(">I", b[pos:pos + 4])
        ctype = b[pos + 4:pos + 8]
        out.append((pos, length, ctype))
        pos += 12 + length
        if ctype == b"IEND": break
    return out


def png_chunk(ctype, data):
    return struct.pack(">I", len(data)) + ctype + data + struct.pack(">I", zlib.crc32(ctype + data) & 0xFFFFFFFF)


def png_hostile(b, rng, a):
    chunks = png_chunks(b)
    choice = rng.randrange(5)
    if choice == 0:  # IHDR size near and over the pixel limit, CRC fixed
        w, h = rng.choice(near_sizes(a.max_pixels, 0x7FFFFFFF, rng))
        ihdr = bytearray(b[16:29]); ihdr[0:8] = struct.pack(">II", w, h)
        return b[:8] + png_chunk(b"IHDR", bytes(ihdr)) + b[33:], f"ihdr {w}x{h}"
    if choice == 1:  # a huge length on a random chunk
        pos, _, ctype = rng.choice(chunks)
        big = rng.choice([0x7FFFFFFF, 0xFFFFFFFF, 0x7FFFFFF0, len(b) + 1])
        return b[:pos] + struct.pack(">I", big) + b[pos + 4:], f"chunk {ctype.decode('latin1')} length {big}"
    if choice == 2:  # iCCP / eXIf / zTXt declaring huge lengths, or a zlib bomb in iCCP
        kind = rng.randrange(3)
        if kind == 0:
            extra = struct.pack(">I", 0x7FFFFF00) + b"iCCP" + b"x\x00\x00" + b"\x78\x9c"
            name = "iccp length 0x7FFFFF00"
        elif kind == 1:
            extra = png_chunk(b"eXIf", b"MM\x00\x2a\x00\x00\x00\x08\xff\xff" + b"\x01\x12\x00\x03\x7f\xff\xff\xff" * 8)
            name = "exif huge ifd count"
        else:
            bomb = zlib.compress(b"\x00" * (64 << 20), 9)
            extra = png_chunk(b"iCCP", b"bomb\x00\x00" + bomb)
            name = "iccp zlib bomb 64 MiB"
        return b[:33] + extra + b[33:], name
    if choice == 3 and any(c[2] == b"acTL" for c in chunks):  # acTL num_frames over the limit
        pos = next(c[0] for c in chunks if c[2] == b"acTL")
        n = rng.choice([a.max_frames + 1, 0x7FFFFFFF, 0xFFFFFFFF])
        data = struct.pack(">II", n, 0)
        return b[:pos] + png_chunk(b"acTL", data) + b[pos + 20:], f"actl frames {n}"
    # an APNG holding more frames than the limit: the last frame repeated
    return png_many_frames(b, chunks, a.max_frames + 1 + rng.randrange(5)), "apng frames over limit"


def png_many_frames(b, chunks, n):
    ihdr = b[16:29]
    w, h = struct.unpack(">II", ihdr[:8])
    idat = png_chunk(b"IDAT", zlib.compress(b"".join(b"\x00" + b"\x00" * (w * 8) for _ in range(h))))
    ihdr8 = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    tiny = zlib.compress(b"\x00\x00\x00\x00\x00")  # one transparent RGBA pixel row
    out = [b[:8], png_chunk(b"IHDR", ihdr8), png_chunk(b"acTL", struct.pack(">II", n, 0))]
    seq = 0
    out.append(png_chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, w, h, 0, 0, 1, 100, 0, 0))); seq += 1
    out.append(idat)
    for _ in range(n - 1):
        out.append(png_chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, 1, 1, 0, 0, 1, 100, 0, 0))); seq += 1
        out.append(png_chunk(b"fdAT", struct.pack(">I", seq) + tiny)); seq += 1
    out.append(png_chunk(b"IEND", b""))
    return b"".join(out)


# GIF ----------------------------------------------------------------------
def gif_many_frames(n, w=1, h=1):
    out = [b"GIF89a", struct.pack("<HHBBB", w, h, 0x80, 0, 0), b"\x00\x00\x00\xff\xff\xff"]
    out.append(b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")
    frame = b"\x21\xf9\x04\x00\x01\x00\x00\x00" + b"\x2c" + struct.pack("<HHHHB", 0, 0, 1, 1, 0) + b"\x02\x02\x44\x01\x00"
    out.append(frame * n)
    out.append(b"\x3b")
    return b"".join(out)


def gif_hostile(b, rng, a):
    choice = rng.randrange(4)
    if choice == 0:  # logical screen near and over the limit
        w, h = rng.choice(near_sizes(a.max_pixels, 0xFFFF, rng))
        return b[:6] + struct.pack("<HH", w, h) + b[10:], f"screen {w}x{h}"
    if choice == 1:  # every image descriptor declares a huge frame
        out, w, h = bytearray(b), rng.choice([0xFFFF, 10000, 4096]), rng.choice([0xFFFF, 10000, 4096])
        i = 13 + (3 << ((b[10] & 7) + 1) if b[10] & 0x80 else 0)
        for k in range(i, len(out) - 10):
            if out[k] == 0x2C and rng.random() < 0.5: out[k + 5:k + 9] = struct.pack("<HH", w, h)
        return bytes(out), f"descriptors {w}x{h}"
    if choice == 2:
        return gif_many_frames(a.max_frames + 1 + rng.randrange(5)), "gif frames over limit"
    # a screen of 1x1 with thousands of huge off-canvas frames
    body = gif_many_frames(3)
    return body.replace(struct.pack("<HHHH", 0, 0, 1, 1), struct.pack("<HHHH", 0, 0, 0xFFFF, 0xFFFF)), "huge off-canvas frames"


# JPEG ---------------------------------------------------------------------
def jpeg_hostile(b, rng, a):
    choice = rng.randrange(3)
    sof = next((i for i in range(2, len(b) - 9) if b[i] == 0xFF and b[i + 1] in (0xC0, 0xC1, 0xC2)), None)
    if choice == 0 and sof is not None:  # SOF dimensions near and over the limit
        w, h = rng.choice(near_sizes(a.max_pixels, 0xFFFF, rng))
        return b[:sof + 5] + struct.pack(">HH", h, w) + b[sof + 9:], f"sof {w}x{h}"
    if choice == 1:  # an ICC profile claimed to span 255 segments
        seg = b"ICC_PROFILE\x00" + bytes([1, 255]) + struct.pack(">I", 0x7FFFFFFF) + b"\x00" * 64
        return b[:2] + b"\xff\xe2" + struct.pack(">H", len(seg) + 2) + seg + b[2:], "icc 255 segments"
    # EXIF with an IFD entry count and offsets far past the segment
    exif = b"Exif\x00\x00MM\x00\x2a\x7f\xff\xff\xf0" + b"\xff\xff" + b"\x01\x12\x00\x03\x7f\xff\xff\xff\x7f\xff\xff\xff" * 4
    return b[:2] + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + b[2:], "exif huge offsets"


# WebP ---------------------------------------------------------------------
def riff_chunks(b):
    pos, out = 12, []
    while pos + 8 <= len(b):
        tag, size = b[pos:pos + 4], struct.unpack("<I", b[pos + 4:pos + 8])[0]
        out.append((pos, tag, size))
        pos += 8 + size + (size & 1)
    return out


def webp_hostile(b, rng, a):
    chunks = riff_chunks(b)
    choice = rng.randrange(4)
    vp8x = next((c for c in chunks if c[1] == b"VP8X"), None)
    if choice == 0 and vp8x:  # canvas near and over the limit (24-bit sides)
        w, h = rng.choice(near_sizes(a.max_pixels, 1 << 24, rng))
        p = vp8x[0] + 12
        return b[:p] + (max(w, 1) - 1).to_bytes(3, "little") + (max(h, 1) - 1).to_bytes(3, "little") + b[p + 6:], f"vp8x {w}x{h}"
    if choice == 1 and chunks:  # a huge chunk size
        pos, tag, _ = rng.choice(chunks)
        big = rng.choice([0xFFFFFFF0, 0x7FFFFFFF, len(b)])
        return b[:pos + 4] + struct.pack("<I", big) + b[pos + 8:], f"chunk {tag.decode('latin1')} size {big}"
    anmf = [c for c in chunks if c[1] == b"ANMF"]
    if choice == 2 and anmf:  # more frames than the limit: the last ANMF repeated
        pos, _, size = anmf[-1]
        frame = b[pos:pos + 8 + size + (size & 1)]
        n = a.max_frames + 1 + rng.randrange(5)
        body = b[12:pos] + frame * (n - len(anmf) + 1) + b[pos + len(frame):]
        return b"RIFF" + struct.pack("<I", len(body) + 4) + b"WEBP" + body, "webp frames over limit"
    iccp = b"ICCP" + struct.pack("<I", 0x7FFFFFF0) + b"\x00" * 16
    if vp8x:  # a huge ICCP chunk length, the ICC flag set
        p = vp8x[0] + 8
        head = bytes([b[p] | 0x20]) + b[p + 1:]
        return b[:p] + head[:10] + iccp + b[p + 10:], "iccp huge length"
    return b[:12] + iccp + b[12:], "iccp huge length (no vp8x)"


# ISO BMFF (AVIF, HEIC) -----------------------------------------------------
def bmff_hostile(b, rng, a):
    choice = rng.randrange(3)
    ispe = [i for i in range(len(b)) if b[i:i + 4] == b"ispe"]
    if choice == 0 and ispe:
        w, h = rng.choice(near_sizes(a.max_pixels, 0xFFFFFFFF, rng))
        out = bytearray(b)
        for i in ispe: out[i + 8:i + 16] = struct.pack(">II", w, h)
        return bytes(out), f"ispe {w}x{h}"
    boxes = [i - 4 for i in range(4, len(b) - 4) if b[i:i + 4] in (b"meta", b"iloc", b"iprp", b"ipco", b"mdat", b"iinf", b"colr", b"Exif")]
    if choice == 1 and boxes:
        p = rng.choice(boxes)
        big = rng.choice([0xFFFFFFFF, 0x7FFFFFFF, len(b) * 2, 1])
        return b[:p] + struct.pack(">I", big) + b[p + 4:], f"box {b[p + 4:p + 8].decode('latin1')} size {big}"
    colr = [i for i in range(len(b)) if b[i:i + 4] == b"colr"]
    if colr:  # an ICC colr box claiming to be huge
        p = colr[0] - 4
        return b[:p] + struct.pack(">I", 0x7FFFFFF0) + b[p + 4:], "colr huge"
    return b[: len(b) // 2], "half"


# BMP ----------------------------------------------------------------------
def bmp_hostile(b, rng, a):
    choice = rng.randrange(3)
    core = struct.unpack("<I", b[14:18])[0] == 12
    if choice == 0:  # dimensions near and over the limit, either row order
        w, h = rng.choice(near_sizes(a.max_pixels, 0xFFFF if core else 0x7FFFFFFF, rng))
        if core: return b[:18] + struct.pack("<HH", w, h) + b[22:], f"core {w}x{h}"
        h = -h if rng.random() < 0.5 else h
        return b[:18] + struct.pack("<ii", w, h) + b[26:], f"info {w}x{h}"
    if choice == 1 and not core:  # a colour count and a pixel offset far past the file
        used, offset = rng.choice([0xFFFFFFFF, 1 << 31, 257]), rng.choice([0xFFFFFFFF, len(b) * 3, 0])
        out = b[:10] + struct.pack("<I", offset) + b[14:46] + struct.pack("<I", used) + b[50:]
        return out, f"colours {used} offset {offset}"
    # the pixels read as run-length codes
    return b[:30] + struct.pack("<I", rng.choice([1, 2])) + b[34:], "rle codes"


# ICO / CUR ------------------------------------------------------------------
def ico_hostile(b, rng, a):
    count = struct.unpack("<H", b[4:6])[0]
    choice = rng.randrange(3)
    if choice == 0:  # a directory declaring many more entries than it holds
        n = rng.choice([0xFFFF, a.max_frames + 1, count + 1])
        return b[:4] + struct.pack("<H", n) + b[6:], f"{n} entries declared"
    if choice == 1 and count:  # an entry's offset and length far past the file
        i = 6 + 16 * rng.randrange(count)
        big = rng.choice([0xFFFFFFFF, 0x7FFFFFFF, len(b) * 2])
        return b[:i + 8] + struct.pack("<II", big, rng.choice([big, len(b) - 1])) + b[i + 16:], f"entry size {big}"
    # every entry's BMP height doubled again (mask and colours disagree)
    out = bytearray(b)
    for k in range(count):
        at = struct.unpack("<I", b[6 + 16 * k + 12:6 + 16 * k + 16])[0]
        if at + 12 <= len(out) and out[at:at + 4] == b"\x28\x00\x00\x00":
            out[at + 8:at + 12] = struct.pack("<i", rng.choice([0x7FFFFFFF, -0x7FFFFFFF, 0]))
    return bytes(out), "entry heights"


def named_hostile():
    """The hostile files every run holds, whatever the seed: the ones issue
    36 names (each refused from its headers before any pixel memory)."""
    bmp = b"BM" + struct.pack("<IHHI", 54, 0, 0, 54) + struct.pack("<IiiHHIIiiII", 40, 100000, 100000, 1, 24, 0, 0, 0, 0, 0, 0)
    # 65,535 directory entries, all present, each pointing at one tiny PNG.
    png = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)) + \
        png_chunk(b"IDAT", zlib.compress(b"\x00\x00\x00\x00\x00")) + png_chunk(b"IEND", b"")
    n = 0xFFFF
    ico = struct.pack("<HHH", 0, 1, n) + struct.pack("<BBBBHHII", 1, 1, 0, 0, 1, 32, len(png), 6 + 16 * n) * n + png
    # A billion laughs through <use>: ten uses of ten uses, 30 deep.
    laughs = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" ' \
        'height="64"><defs><rect id="a0" width="1" height="1"/>'
    for level in range(1, 31):
        laughs += f'<g id="a{level}">' + f'<use xlink:href="#a{level - 1}"/>' * 10 + "</g>"
    laughs += '</defs><use xlink:href="#a30"/></svg>'
    return [("bmp", bmp, "bmp declaring 100000x100000"), ("ico", ico, "ico of 65535 entries"),
            ("svg", laughs.encode(), "svg billion-laughs use chain"),
            ("pdf", huge_page_pdf(), "pdf page of 10^6 pt")] + million_strips_tiff()


def million_strips_tiff():
    """The TIFF fixture whose directory declares a million strips in 134
    bytes (Scripts/fixtures/make_tiff_fixtures.py), when the fixtures hold it."""
    path = os.path.join(FIXTURES, "tiff", "hostile-million-strips.tif")
    if not os.path.exists(path): return []
    with open(path, "rb") as f: return [("tiff", f.read(), "tiff declaring a million strips")]


def huge_page_pdf():
    """A one-page PDF whose MediaBox is 10^6 x 10^6 points."""
    content = b"0 0 1 rg 0 0 10 10 re f"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1000000 1000000] /Contents 4 0 R >>",
               b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 5\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


# TIFF (little-endian, first directory) -----------------------------------
def tiff_hostile(b, rng, a):
    if b[:2] != b"II" or len(b) < 8: return b[: len(b) // 2], "half"
    ifd = struct.unpack_from("<I", b, 4)[0]
    if ifd + 2 > len(b): return b[: len(b) // 2], "half"
    out = bytearray(b)
    count = struct.unpack_from("<H", b, ifd)[0]
    w, h = rng.choice(near_sizes(a.max_pixels, 0xFFFFFFFF, rng))
    huge = rng.choice([0xFFFFFFFF, 0x7FFFFFFF, 1_000_000])
    for e in range(ifd + 2, min(len(b) - 11, ifd + 2 + 12 * count), 12):
        tag, kind = struct.unpack_from("<HH", b, e)
        if tag in (256, 257) and kind == 4:  # ImageWidth, ImageLength as LONG
            struct.pack_into("<I", out, e + 8, w if tag == 256 else h)
        elif tag in (273, 279) and rng.random() < 0.5:  # a strip array's count
            struct.pack_into("<I", out, e + 4, huge)
    return bytes(out), f"ifd {w}x{h}, strip counts maybe {huge}"


HOSTILE = {"bmp": bmp_hostile, "ico": ico_hostile, "tiff": tiff_hostile, "png": png_hostile, "apng": png_hostile, "gif": gif_hostile, "jpeg": jpeg_hostile,
           "webp": webp_hostile, "avif": bmff_hostile, "heif": bmff_hostile}
EXTENSIONS = {"apng": "png", "heif": "heic"}


def mutate(fmt, data, rng, a):
    kind = rng.choices(["valid", "truncate", "flip", "header"], weights=[1, 3, 3, 3])[0]
    if kind == "valid": return data, "valid"
    if kind == "truncate":
        cut = rng.randrange(1, max(2, len(data)))
        return data[:cut], f"truncate at {cut}"
    if kind == "flip" or fmt not in HOSTILE:
        out = bytearray(data)
        n = rng.choice([1, 1, 2, 4, 16, 64])
        for _ in range(n):
            i = rng.randrange(len(out))
            out[i] = rng.randrange(256) if rng.random() < 0.5 else out[i] ^ (1 << rng.randrange(8))
        return bytes(out), f"flip {n} bytes"
    body, what = HOSTILE[fmt](data, rng, a)
    if rng.random() < 0.2:  # and sometimes cut short as well
        body = body[: rng.randrange(1, len(body))]
        what += " then truncated"
    return body, "header: " + what


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--max-pixels", type=int, default=100_000_000)
    p.add_argument("--max-frames", type=int, default=10_000)
    p.add_argument("--max-source-bytes", type=int, default=400_000)
    a = p.parse_args()
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1 << 32)
    print(f"make_hostile_corpus: seed {seed}", flush=True)
    rng = random.Random(seed)
    found = sources(a.max_source_bytes)
    formats = sorted(found)
    os.makedirs(a.out, exist_ok=True)
    manifest = {"seed": seed, "files": []}
    for n in range(a.count):
        fmt = formats[n % len(formats)]
        src, data = rng.choice(found[fmt])
        body, what = mutate(fmt, data, rng, a)
        name = f"{n:05d}_{fmt}.{EXTENSIONS.get(fmt, fmt)}"
        with open(os.path.join(a.out, name), "wb") as f: f.write(body)
        manifest["files"].append({"name": name, "format": fmt, "source": src, "mutation": what})
    for n, (fmt, body, what) in enumerate(named_hostile()):
        name = f"named_{n:02d}_{fmt}.{EXTENSIONS.get(fmt, fmt)}"
        with open(os.path.join(a.out, name), "wb") as f: f.write(body)
        manifest["files"].append({"name": name, "format": fmt, "source": "named", "mutation": "header: " + what})
    with open(os.path.join(a.out, "manifest.json"), "w") as f: json.dump(manifest, f, indent=1)
    print(f"make_hostile_corpus: wrote {a.count} files ({', '.join(formats)}) to {a.out}")


if __name__ == "__main__":
    sys.exit(main())
