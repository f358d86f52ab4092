"""Animation playback, Magpie next to holding every frame decoded.

Two generated animations (a 500-frame 480x270 GIF and a 300-frame 800x600
lossy animated WebP, made once with Pillow into bench/work) are played by
`magpie play FILE --seconds 30 --rate 60` on a real clock, frames decoded
ahead into the frame buffer's default budget. Reported: the share of
frames shown on time, the player's CPU seconds per second of playback, the
buffer's peak bytes and the process's peak RSS; beside them, in the same
run, the peak RSS of Pillow holding every frame as RGBA and of Magpie's own
eager decode (`magpie bench decode`), and the bytes of all frames. Each
animation is also converted to lossy WebP (quality 75) by `magpie convert`,
which streams frames from the frame source into the encoder, and by
Pillow's `save(save_all=True)` at the same effort (method 4): wall time,
peak RSS and output bytes of both. Each animation is then played again with
`--mode reverse` and `--mode bounce` (rows with a "mode" key), which decode
backward through the keyframe index: on time, CPU and memory as forward.
Targets: at least 99 % of frames on time (the aim is 100 % in every mode),
peak memory under 25 % of all frames decoded.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import network_bench  # noqa: E402

WORK = network_bench.WORK
SECONDS = 30

HOLD_ALL = """
import sys
from PIL import Image, ImageSequence
im = Image.open(sys.argv[1])
frames = [frame.convert("RGBA") for frame in ImageSequence.Iterator(im)]
print(len(frames))
"""

# Method 4 is libwebp's default effort, what Magpie's encoder uses;
# Pillow's own default, 0, is faster and writes files about 1.5x larger.
CONVERT = """
import sys
from PIL import Image
Image.open(sys.argv[1]).save(sys.argv[2], save_all=True, quality=75, method=4)
"""


def make_fixtures():
    """The two animations, made once: moving gradients and shapes, so
    frames differ and compress like real footage."""
    from PIL import Image, ImageDraw

    out = {}
    specs = [("anim-500x480x270.gif", 500, 480, 270, 40), ("anim-300x800x600.webp", 300, 800, 600, 33)]
    for name, count, width, height, duration in specs:
        path = os.path.join(WORK, name)
        out[name] = {"path": path, "frames": count, "width": width, "height": height}
        if os.path.exists(path):
            continue
        frames = []
        for i in range(count):
            im = Image.linear_gradient("L").resize((width, height)).convert("RGB")
            r, g, b = im.split()
            im = Image.merge("RGB", (r.point(lambda v, i=i: (v + 3 * i) % 256), g, b.point(lambda v, i=i: (255 - v + i) % 256)))
            draw = ImageDraw.Draw(im)
            x = (i * 7) % width
            draw.ellipse([x, height // 4, x + width // 6, height // 4 + height // 3], fill=(250, 240, 30))
            draw.rectangle([width - x - 40, height // 2, width - x, height // 2 + 60], fill=(20, 30, 200))
            frames.append(im if name.endswith(".webp") else im.convert("P", palette=Image.ADAPTIVE, colors=64))
        if name.endswith(".gif"):
            frames[0].save(path, save_all=True, append_images=frames[1:], duration=duration, loop=0)
        else:
            frames[0].save(path, save_all=True, append_images=frames[1:], duration=duration, loop=0, quality=75)
    return out


def peak_rss_and_stdout(command):
    return timed(command)[1:]


def timed(command):
    """(wall seconds, peak RSS in KB, stdout) of one run of `command`."""
    out = subprocess.run(["/usr/bin/time", "-f", "wall=%e maxrss=%M"] + command, capture_output=True, text=True,
                         timeout=SECONDS * 4 + 120)
    if out.returncode != 0:
        raise RuntimeError(f"{command[0]} exited {out.returncode}: {out.stderr[-300:]}")
    figures = out.stderr.rsplit("wall=", 1)[-1].split()
    return float(figures[0]), int(figures[1].split("=")[1]), out.stdout


def convert_figures(magpie, python, path):
    """Best of two runs each of Magpie's and Pillow's conversion to WebP."""
    target = os.path.join(WORK, "converted.webp")
    ours = min(timed([magpie, "convert", path, target, "--quality", "75"])[:2] for _ in range(2))
    our_bytes = os.path.getsize(target)
    pillow = min(timed([python, "-c", CONVERT, path, target])[:2] for _ in range(2))
    return {"convert_s": ours[0], "convert_peak_rss_bytes": ours[1] * 1024, "convert_bytes": our_bytes,
            "pillow_convert_s": pillow[0], "pillow_convert_peak_rss_bytes": pillow[1] * 1024,
            "pillow_convert_bytes": os.path.getsize(target)}


MODES = ["reverse", "bounce"]


def play(magpie, fixture, row, mode="forward"):
    """Plays `fixture` in `mode` into `row`: the JSON line's figures, peak
    RSS, on-time percent and CPU seconds per second."""
    command = [magpie, "play", fixture["path"], "--seconds", str(SECONDS), "--rate", "60"]
    if mode != "forward":
        command += ["--mode", mode]
    rss, stdout = peak_rss_and_stdout(command)
    played = json.loads(stdout.strip().splitlines()[-1])
    row.update(played)
    row["play_peak_rss_bytes"] = rss * 1024
    row["on_time_percent"] = round(100.0 * played["frames_on_time"] / max(1, played["frames_due"]), 2)
    row["cpu_s_per_s"] = round(played["cpu_s"] / SECONDS, 4)


def run_modes(magpie, name, fixture):
    """The reverse and bounce rows of one animation."""
    rows = []
    for mode in MODES:
        row = {"file": name, "mode": mode, "frames": fixture["frames"], "width": fixture["width"],
               "height": fixture["height"], "all_frames_bytes": fixture["frames"] * fixture["width"] * fixture["height"] * 4}
        try:
            play(magpie, fixture, row, mode)
            row["meets_target"] = meets_target(row)
        except Exception as e:  # reported, not fatal
            row["error"] = str(e)
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def meets_target(row):
    """The aim: at least 99 % of frames on time, peak RSS under a quarter of all frames."""
    return row["on_time_percent"] >= 99 and row["play_peak_rss_bytes"] < 0.25 * row["all_frames_bytes"]


def run(magpie, python):
    rows = []
    for name, fixture in make_fixtures().items():
        row = {"file": name, "frames": fixture["frames"], "width": fixture["width"], "height": fixture["height"]}
        row["all_frames_bytes"] = fixture["frames"] * fixture["width"] * fixture["height"] * 4
        try:
            play(magpie, fixture, row)
            listfile = os.path.join(WORK, name + ".list")
            with open(listfile, "w") as f:
                f.write(fixture["path"] + "\n")
            eager_rss, eager_out = peak_rss_and_stdout([magpie, "bench", "decode", listfile, "1", "0"])
            eager = json.loads(eager_out.strip().splitlines()[-1])
            if "skip" in eager:
                # Refused before allocating: over the all-frames limit.
                row["eager_refused"] = eager["skip"]
            else:
                row["eager_peak_rss_bytes"] = eager_rss * 1024
            row["pillow_peak_rss_bytes"] = peak_rss_and_stdout([python, "-c", HOLD_ALL, fixture["path"]])[0] * 1024
            row.update(convert_figures(magpie, python, fixture["path"]))
            row["meets_target"] = meets_target(row)
        except Exception as e:  # reported, not fatal
            row["error"] = str(e)
        print(json.dumps(row), flush=True)
        rows.append(row)
        rows += run_modes(magpie, name, fixture)
    return rows


def markdown(rows):
    mb = 1 << 20
    lines = [f"Animation playback: {SECONDS} s at 60 ticks/s on a real clock, frames decoded ahead into the "
             "buffer's default 20 MB budget (aim: >= 99 % on time, peak RSS < 25 % of all frames)", "",
             "| animation | on time | CPU s per s | buffer peak | peak RSS playing | all frames | "
             "Magpie eager decode RSS | Pillow, every frame RSS | target |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        label = f"{r['frames']} frames {r['width']}x{r['height']} {r['file'].rsplit('.', 1)[-1].upper()}"
        if "mode" in r:
            label += f", {r['mode']}"
        if "error" in r:
            lines.append(f"| {label} | failed: {r['error'][:80]} | | | | | | | |")
            continue
        if "mode" in r:
            # Played only: the eager and Pillow figures are the forward row's.
            lines.append(f"| {label} | {r['on_time_percent']:.1f} % | {r['cpu_s_per_s']:.3f} | "
                         f"{r['buffer_peak_bytes'] / mb:.1f} MB | {r['play_peak_rss_bytes'] / mb:.1f} MB | "
                         f"{r['all_frames_bytes'] / mb:.1f} MB | | | {'met' if r['meets_target'] else 'missed'} |")
            continue
        eager = (f"{r['eager_peak_rss_bytes'] / mb:.1f} MB" if "eager_peak_rss_bytes" in r
                 else "refused: over the 256 MiB all-frames limit")
        lines.append(f"| {label} | {r['on_time_percent']:.1f} % | {r['cpu_s_per_s']:.3f} | "
                     f"{r['buffer_peak_bytes'] / mb:.1f} MB | {r['play_peak_rss_bytes'] / mb:.1f} MB | "
                     f"{r['all_frames_bytes'] / mb:.1f} MB | {eager} | "
                     f"{r['pillow_peak_rss_bytes'] / mb:.1f} MB | {'met' if r['meets_target'] else 'missed'} |")
    lines += ["", "Converting each animation to lossy WebP (quality 75, libwebp method 4 for both), best of 2: "
              "Magpie streams frames from the frame source into the encoder", "",
              "| animation | all frames | Magpie | Magpie peak RSS | Magpie file | Pillow | Pillow peak RSS | "
              "Pillow file | time vs Pillow |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        if "error" in r or "mode" in r:
            continue
        label = f"{r['frames']} frames {r['width']}x{r['height']} {r['file'].rsplit('.', 1)[-1].upper()}"
        lines.append(f"| {label} | {r['all_frames_bytes'] / mb:.1f} MB | {r['convert_s']:.2f} s | "
                     f"{r['convert_peak_rss_bytes'] / mb:.1f} MB | {r['convert_bytes'] / mb:.2f} MB | "
                     f"{r['pillow_convert_s']:.2f} s | {r['pillow_convert_peak_rss_bytes'] / mb:.1f} MB | "
                     f"{r['pillow_convert_bytes'] / mb:.2f} MB | "
                     f"{r['convert_s'] / r['pillow_convert_s']:.2f}x |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    for line in markdown(run(sys.argv[1], sys.executable)).splitlines():
        print(line)
