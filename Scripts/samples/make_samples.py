#!/usr/bin/env python3
"""Generates Magpie's bundled sample gallery: photo-like synthetic scenes.

Nothing here is a real photograph, so the set carries no third-party licence;
the scenes are built from fractal noise (clouds, ridges, foliage, water),
soft light and lens blur so they compress and resample like photographs do.

    .venv/bin/python Scripts/samples/make_samples.py samples/       # the gallery
    .venv/bin/python Scripts/samples/make_samples.py --photo 4000x3000 out.jpg

Needs Pillow and numpy (the benchmark virtualenv has both). Deterministic:
the same seed gives the same pixels.
"""
import argparse
import io
import os
import sys

import numpy as np
from PIL import Image, ImageFilter


def fractal_noise(rng, h, w, octaves=7, base=4, persistence=0.55):
    """Sum of upsampled random grids: 1/f-like texture in [0, 1]."""
    total = np.zeros((h, w), np.float32)
    amp, norm = 1.0, 0.0
    for o in range(octaves):
        gh, gw = max(2, (h * base << o) // max(h, w) + 2), max(2, (w * base << o) // max(h, w) + 2)
        grid = (rng.random((gh, gw)) * 255).astype(np.uint8)
        layer = np.asarray(Image.fromarray(grid).resize((w, h), Image.BICUBIC), np.float32) / 255.0
        total += amp * layer
        norm += amp
        amp *= persistence
    return total / norm


def ridge(rng, w, roughness=0.6, levels=10):
    """A 1D midpoint-displacement profile in [0, 1]."""
    n = 2**levels + 1
    line = np.zeros(n, np.float32)
    line[0], line[-1] = rng.random(), rng.random()
    step, scale = n - 1, 1.0
    while step > 1:
        half = step // 2
        for i in range(half, n, step):
            line[i] = (line[i - half] + line[i + half]) / 2 + (rng.random() - 0.5) * scale
        step, scale = half, scale * roughness
    line = (line - line.min()) / (np.ptp(line) + 1e-6)
    return np.interp(np.linspace(0, n - 1, w), np.arange(n), line).astype(np.float32)


def lerp(a, b, t):
    return a + (b - a) * t[..., None]


def landscape(rng, w, h):
    y = np.linspace(0, 1, h, dtype=np.float32)[:, None] * np.ones((1, w), np.float32)
    top = np.array(rng.choice([[40, 90, 170], [70, 110, 190], [230, 120, 60], [30, 50, 110]]), np.float32)
    horizon = np.array([230, 210, 190], np.float32) * (0.8 + 0.2 * rng.random())
    img = lerp(top, horizon, np.clip(y * 1.6, 0, 1))
    clouds = fractal_noise(rng, h, w, base=3)
    cover = np.clip((clouds - 0.45) * 3, 0, 1) * np.clip(1.4 - y * 2, 0, 1)
    img = lerp(img, np.array([245, 245, 250], np.float32), cover * 0.9)
    # Sun with glow.
    sx, sy = rng.uniform(0.15, 0.85) * w, rng.uniform(0.1, 0.35) * h
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.hypot(xx - sx, yy - sy) / max(w, h)
    img += (np.exp(-d * 18) * 120)[..., None] * np.array([1, 0.85, 0.6], np.float32)
    # Mountain ranges, farther ones hazier.
    for layer, (level, haze) in enumerate([(0.45, 0.55), (0.55, 0.3), (0.68, 0.0)]):
        prof = ridge(rng, w, roughness=0.55 + 0.05 * layer) * 0.22 * h + level * h
        mask = (yy > prof[None, :] - 0.12 * h + 0.12 * h * layer / 2).astype(np.float32)
        mask = np.asarray(Image.fromarray((mask * 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(1.2)), np.float32) / 255
        rock = fractal_noise(rng, h, w, base=8, octaves=8)
        base_col = np.array(rng.choice([[70, 90, 60], [90, 80, 70], [50, 70, 50], [110, 100, 90]]), np.float32)
        col = base_col[None, None, :] * (0.55 + 0.9 * rock[..., None])
        col = lerp(col, horizon, np.full((h, w), haze, np.float32))
        img = lerp(img, col, mask)
    # Lake at the bottom reflecting the sky.
    water_top = int(h * rng.uniform(0.78, 0.9))
    if water_top < h:
        refl = img[water_top - (h - water_top):water_top][::-1] if 2 * water_top > h else img[:h - water_top]
        ripples = fractal_noise(rng, h - water_top, w, base=20, octaves=4)
        img[water_top:] = refl * (0.6 + 0.25 * ripples[..., None]) + 20
    return img


def flowers(rng, w, h):
    bg = fractal_noise(rng, h, w, base=3, octaves=4)
    img = lerp(np.array([20, 60, 25], np.float32), np.array([120, 170, 90], np.float32), bg)
    # Bokeh: soft bright discs.
    bokeh = Image.new("L", (w, h))
    px = np.zeros((h, w), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for _ in range(25):
        cx, cy, r = rng.random() * w, rng.random() * h, rng.uniform(0.02, 0.07) * w
        px += (np.hypot(xx - cx, yy - cy) < r) * rng.uniform(0.2, 0.6)
    blurred = np.asarray(Image.fromarray(np.clip(px * 255, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(w / 150)), np.float32) / 255
    img = img + blurred[..., None] * np.array([200, 220, 160], np.float32)
    for _ in range(int(rng.integers(3, 7))):
        cx, cy, r = rng.random() * w, rng.uniform(0.2, 0.9) * h, rng.uniform(0.06, 0.16) * min(w, h)
        petals = int(rng.integers(5, 9))
        ang = np.arctan2(yy - cy, xx - cx)
        rad = np.hypot(xx - cx, yy - cy)
        edge = r * (0.65 + 0.35 * np.abs(np.cos(ang * petals / 2)))
        petal = np.clip((edge - rad) / 2.0, 0, 1)
        colour = np.array(rng.choice([[230, 60, 90], [250, 200, 40], [240, 240, 235], [160, 70, 200], [250, 120, 40]]), np.float32)
        shade = (0.7 + 0.3 * (1 - rad / (r + 1e-6)))[..., None]
        vein = 0.9 + 0.1 * fractal_noise(rng, h, w, base=30, octaves=3)[..., None]
        img = lerp(img, colour * shade * vein, petal)
        centre = np.clip((r * 0.22 - rad) / 1.5, 0, 1)
        img = lerp(img, np.array([120, 80, 20], np.float32) * (0.8 + 0.4 * fractal_noise(rng, h, w, base=60, octaves=2))[..., None], centre)
    return img


def city(rng, w, h):
    y = np.linspace(0, 1, h, dtype=np.float32)[:, None] * np.ones((1, w), np.float32)
    img = lerp(np.array([15, 20, 50], np.float32), np.array([200, 100, 70], np.float32), y ** 1.5)
    x = 0
    while x < w:
        bw = int(rng.uniform(0.04, 0.12) * w)
        top = int(rng.uniform(0.25, 0.7) * h)
        shade = rng.uniform(20, 60)
        img[top:, x:x + bw] = shade + 15 * fractal_noise(rng, h - top, min(bw, w - x) or 1, base=6, octaves=3)[..., None]
        win = max(3, bw // 8)
        for wy in range(top + win, h - win, win * 2):
            for wx in range(x + win, min(x + bw, w) - win, win * 2):
                if rng.random() < 0.45:
                    img[wy:wy + win, wx:wx + win] = np.array([255, 220, 140], np.float32) * rng.uniform(0.6, 1.0)
        x += bw + int(rng.uniform(0, 0.02) * w)
    glow = np.asarray(Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(w / 200)), np.float32)
    return img * 0.8 + glow * 0.35


SCENES = [landscape, flowers, city]


def render(seed, w, h, scene=None):
    rng = np.random.default_rng(seed)
    fn = scene or SCENES[seed % len(SCENES)]
    img = fn(rng, w, h)
    # Fine texture and sensor-like grain: what makes photographs cost bits.
    detail = (fractal_noise(rng, h, w, base=64, octaves=3, persistence=0.7) - 0.5) * 28
    grain = (rng.standard_normal((h, w, 1)) * 4).astype(np.float32) + detail[..., None]
    return Image.fromarray(np.clip(img + grain, 0, 255).astype(np.uint8), "RGB")


def with_alpha(img, rng):
    """A round-cornered cut-out with a soft drop shadow: real transparency."""
    w, h = img.size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = min(w, h) * 0.18
    dx = np.maximum(np.maximum(r - xx, xx - (w - 1 - r)), 0)
    dy = np.maximum(np.maximum(r - yy, yy - (h - 1 - r)), 0)
    inside = np.clip(r - np.hypot(dx, dy) + 0.5, 0, 1)
    hole = np.hypot(xx - w * 0.7, yy - h * 0.3) < min(w, h) * 0.12
    alpha = (inside * np.where(hole, 0.35, 1.0) * 255).astype(np.uint8)
    out = img.convert("RGBA")
    out.putalpha(Image.fromarray(alpha))
    return out


def animation(seed, w, h, frames):
    base = render(seed, w * 2, h)
    out = []
    for i in range(frames):
        off = int(i * w / frames)
        out.append(base.crop((off, 0, off + w, h)))
    return out


def exif_with_orientation(orientation):
    exif = Image.Exif()
    exif[0x0112] = orientation
    return exif.tobytes()


def make_gallery(folder):
    os.makedirs(folder, exist_ok=True)
    n = 0

    def save(img, name, **kw):
        nonlocal n
        path = os.path.join(folder, name)
        img.save(path, **kw)
        n += 1

    sizes = [(1600, 1067), (1200, 800), (1024, 768), (800, 1200), (1280, 720), (960, 960)]
    for i in range(14):
        w, h = sizes[i % len(sizes)]
        img = render(100 + i, w, h)
        kw = dict(quality=int(80 + (i % 3) * 5), subsampling=[2, 1, 0][i % 3])
        if i % 4 == 1:
            kw["progressive"] = True
        if i in (5, 11):
            # Stored turned; the EXIF tag says how to show it upright.
            kw["exif"] = exif_with_orientation(6 if i == 5 else 8)
            img = img.transpose(Image.ROTATE_90 if i == 5 else Image.ROTATE_270)
        save(img, f"photo-{i:02d}.jpg", **kw)
    for i in range(6):
        w, h = [(480, 360), (400, 400), (540, 360)][i % 3]
        img = render(200 + i, w, h)
        if i % 2:
            save(with_alpha(img, None), f"cutout-{i:02d}.png", optimize=True)
        else:
            save(img, f"still-{i:02d}.png", optimize=True)
    for i in range(6):
        w, h = [(1024, 768), (800, 800), (640, 480)][i % 3]
        img = render(300 + i, w, h)
        if i % 3 == 2:
            save(with_alpha(img, None), f"alpha-{i:02d}.webp", lossless=True, quality=80, method=4)
        else:
            save(img, f"photo-{i:02d}.webp", quality=78 + i)
    for i in range(3):
        frames = animation(400 + i, 200, 150, 8)
        save(frames[0], f"pan-{i:02d}.gif", save_all=True, append_images=frames[1:], duration=80, loop=0, optimize=False)
    for i in range(2):
        frames = animation(500 + i, 400, 300, 10)
        save(frames[0], f"pan-{i:02d}.webp", save_all=True, append_images=frames[1:], duration=90, loop=0, quality=75)
    for i in range(2):
        frames = [with_alpha(f, None) for f in animation(600 + i, 128, 128, 6)]
        save(frames[0], f"pan-{i:02d}.png", save_all=True, append_images=frames[1:], duration=100, loop=0)
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--photo", help="WxH: write one photo-like image to OUT instead of the gallery")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--scene", choices=[s.__name__ for s in SCENES])
    ap.add_argument("--quality", type=int, default=90)
    ap.add_argument("--progressive", action="store_true")
    ap.add_argument("--alpha", action="store_true")
    a = ap.parse_args()
    if a.photo:
        w, h = map(int, a.photo.lower().split("x"))
        scene = next((s for s in SCENES if s.__name__ == a.scene), landscape)
        img = render(a.seed, w, h, scene)
        if a.alpha:
            img = with_alpha(img, None)
        ext = os.path.splitext(a.out)[1].lower()
        kw = {}
        if ext in (".jpg", ".jpeg"):
            kw = dict(quality=a.quality, progressive=a.progressive)
        elif ext == ".webp":
            kw = dict(quality=a.quality)
        img.save(a.out, **kw)
        return
    count = make_gallery(a.out)
    total = sum(os.path.getsize(os.path.join(a.out, f)) for f in os.listdir(a.out))
    print(f"{count} images, {total / 1e6:.1f} MB in {a.out}")


if __name__ == "__main__":
    sys.exit(main())
