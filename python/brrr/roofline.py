"""Roofline charts as SVG, with the standard library only.

`roofline_svg(kernels, bandwidth, peaks, title)` draws each kernel at its
arithmetic intensity (flop per byte it must move) and its throughput
(flop/s), against the memory roof (`bandwidth` bytes/s times intensity)
and one flat compute roof per precision in `peaks`. Kernels are coloured
by regime: compute, memory or overhead (too little work to hide a launch).
Kernels that do no arithmetic sit at the chart's left edge, at the height
their byte rate gives at that intensity, so their distance below the
memory roof is still their fraction of the copy rate. The largest kernels
by time are labelled.

`brrr-run model.so --profile --plot FILE.svg` draws measured kernels
against measured roofs: the copy rate, and each Tensor Core precision's rate
as brrr's own 8192^3 product reaches it on the card (`PROBES`);
`brrrc --report --plot FILE.svg` draws the compiler's floors against the
chip's datasheet rates (`datasheet_peaks`).
"""

import math
import os
from typing import Dict, List, NamedTuple, Optional
from xml.sax.saxutils import escape

COLOURS = {"compute": "#c0392b", "memory": "#2471a3", "overhead": "#7f8c8d"}


class Probe(NamedTuple):
    """A product that measures one Tensor Core precision's ceiling: an
    n x n x n matmul, compiled with `flags`. The 16- and 32-bit ones multiply
    two inputs; the 8-bit one multiplies an input by a constant weight
    (8-bit products take one), made by ConstantOfShape so that the model
    file stays small."""
    roof: str  # the datasheet_peaks key it replaces
    path: str  # an .onnxtext model in this package
    flags: List[str]
    hopper_only: bool = False  # 8-bit products run on the wgmma body only
    n: int = 8192

    @property
    def flops(self) -> int:
        return 2 * self.n ** 3


_PROBE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes")

#: The products whose measured rates are the Tensor Core roofs of a
#: profile's chart: f16 (f32 accumulation), f32 inputs as one tf32 product,
#: and int8 QDQ (s8 x s8 into s32) for the 8-bit rate.
PROBES = [
    Probe("f16/bf16 Tensor Cores", os.path.join(_PROBE_DIR, "gemm-f16.onnxtext"), []),
    Probe("tf32 Tensor Cores", os.path.join(_PROBE_DIR, "gemm-f32.onnxtext"),
          ["--precision=tf32"]),
    Probe("8-bit Tensor Cores", os.path.join(_PROBE_DIR, "gemm-int8.onnxtext"), [],
          hopper_only=True),
]


def datasheet_peaks(target: str) -> Dict[str, float]:
    """Dense datasheet rates (flop/s) of the chip a target runs on: H100 and
    H200 SXM for sm_90a, A100 SXM for sm_80."""
    if target.startswith("sm_90"):
        return {"8-bit Tensor Cores": 1979e12, "f16/bf16 Tensor Cores": 989e12,
                "tf32 Tensor Cores": 495e12, "f32": 67e12}
    return {"8-bit Tensor Cores": 624e12, "f16/bf16 Tensor Cores": 312e12,
            "tf32 Tensor Cores": 156e12, "f32": 19.5e12}


def roof_labels(measured: Dict[str, float], target: str) -> Dict[str, float]:
    """The chart's compute roofs: each measured rate under its name with
    "(measured)", every other datasheet rate with "(datasheet)"."""
    roofs = {}
    for name, rate in datasheet_peaks(target).items():
        if name in measured:
            roofs[f"{name} (measured)"] = measured[name]
        else:
            roofs[f"{name} (datasheet)"] = rate
    return roofs


class Kernel(NamedTuple):
    name: str
    flops: int
    bytes: int
    seconds: float  # measured time, or the floor
    regime: str  # "compute", "memory" or "overhead"


def regime_of(flops: int, nbytes: int, bandwidth: float, peak: float,
              overhead_us: float = 2.0) -> str:
    """The ceiling that bounds a kernel: overhead when its floor is under
    `overhead_us`, else memory or compute, whichever floor is longer."""
    t_mem, t_math = nbytes / bandwidth, flops / peak
    if max(t_mem, t_math) * 1e6 < overhead_us:
        return "overhead"
    return "memory" if t_mem >= t_math else "compute"


def roofline_svg(kernels: List[Kernel], bandwidth: float, peaks: Dict[str, float],
                 title: str, labels: int = 8, width: int = 900,
                 height: int = 560) -> str:
    """The chart as an SVG document (a string). `peaks`: {precision: flop/s}."""
    left, right, top, bottom = 80, 30, 50, 70
    pw, ph = width - left - right, height - top - bottom
    x_min = 2.0 ** -4
    intensities = [k.flops / k.bytes for k in kernels if k.flops and k.bytes]
    x_max = 2.0 ** math.ceil(math.log2(max(intensities + [max(peaks.values()) / bandwidth * 8])))
    y_max = 10 ** math.ceil(math.log10(max(peaks.values()) * 1.5))
    rates = [_rate(k, x_min) for k in kernels if k.seconds > 0]
    y_min = 10 ** math.floor(math.log10(min(rates + [bandwidth * x_min / 10])))

    def px(x):
        return left + pw * (math.log(x / x_min) / math.log(x_max / x_min))

    def py(y):
        return top + ph * (1 - math.log(y / y_min) / math.log(y_max / y_min))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="15">'
           f'{escape(title)}</text>']
    # Grid and axes: powers of 2 of intensity, decades of flop/s.
    out.append('<g class="axes" stroke="#ddd">')
    e = math.ceil(math.log2(x_min))
    while 2.0 ** e <= x_max:
        x = px(2.0 ** e)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + ph}"/>')
        label = f"2^{e}" if e < 0 else f"{2 ** e}"
        out.append(f'<text x="{x:.1f}" y="{top + ph + 16}" text-anchor="middle" '
                   f'stroke="none" fill="#333">{label}</text>')
        e += 2
    d = math.floor(math.log10(y_min))
    while 10.0 ** d <= y_max:
        y = py(10.0 ** d)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" '
                   f'stroke="none" fill="#333">{_si(10.0 ** d)}</text>')
        d += 1
    out.append('</g>')
    out.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" '
               'stroke="#333"/>')
    out.append(f'<text x="{left + pw / 2}" y="{height - 24}" text-anchor="middle">'
               'arithmetic intensity (flop per byte of the fewest bytes moved)</text>')
    out.append(f'<text x="18" y="{top + ph / 2}" text-anchor="middle" '
               f'transform="rotate(-90 18 {top + ph / 2})">throughput (flop/s)</text>')
    # Roofs: memory (diagonal) up to the highest peak, one line per peak.
    top_peak = max(peaks.values())
    ridge = top_peak / bandwidth
    out.append(f'<g class="roofs" stroke-width="2" fill="none">')
    out.append(f'<line class="roof" x1="{px(x_min):.1f}" y1="{py(bandwidth * x_min):.1f}" '
               f'x2="{px(ridge):.1f}" y2="{py(top_peak):.1f}" stroke="#2471a3"/>')
    out.append(f'<text x="{px(x_min) + 8:.1f}" y="{py(bandwidth * x_min) - 8:.1f}" '
               f'fill="#2471a3" stroke="none">copy {bandwidth / 1e12:.2f} TB/s</text>')
    for name, peak in sorted(peaks.items(), key=lambda kv: -kv[1]):
        x0 = px(peak / bandwidth)
        out.append(f'<line class="roof" x1="{x0:.1f}" y1="{py(peak):.1f}" '
                   f'x2="{left + pw:.1f}" y2="{py(peak):.1f}" stroke="#c0392b" '
                   'stroke-dasharray="6 3"/>')
        out.append(f'<text x="{left + pw - 4:.1f}" y="{py(peak) - 5:.1f}" '
                   f'text-anchor="end" fill="#c0392b" stroke="none">{escape(name)} '
                   f'{_si(peak)}flop/s</text>')
    out.append('</g>')
    # Kernels, biggest first so that small ones stay visible on top.
    total = sum(k.seconds for k in kernels) or 1.0
    ordered = sorted(kernels, key=lambda k: -k.seconds)
    out.append('<g class="kernels">')
    for k in ordered:
        if k.seconds <= 0:
            continue
        x = px(max(k.flops / k.bytes, x_min) if k.flops and k.bytes else x_min)
        y = py(_rate(k, x_min))
        r = 3 + 12 * math.sqrt(k.seconds / total)
        colour = COLOURS.get(k.regime, "#000")
        fill = colour if k.flops else "white"
        out.append(f'<circle class="kernel" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" '
                   f'fill="{fill}" fill-opacity="0.75" stroke="{colour}">'
                   f'<title>{escape(k.name)}: {k.seconds * 1e6:.2f} us, {k.regime}</title>'
                   '</circle>')
    for k in ordered[:labels]:
        if k.seconds <= 0:
            continue
        x = px(max(k.flops / k.bytes, x_min) if k.flops and k.bytes else x_min)
        y = py(_rate(k, x_min))
        out.append(f'<text class="label" x="{x + 8:.1f}" y="{y - 6:.1f}" fill="#222">'
                   f'{escape(k.name)} {100 * k.seconds / total:.0f}%</text>')
    out.append('</g>')
    # Legend.
    lx, ly = left + 12, top + 16
    for i, (regime, colour) in enumerate(COLOURS.items()):
        out.append(f'<circle cx="{lx}" cy="{ly + 16 * i}" r="5" fill="{colour}"/>'
                   f'<text x="{lx + 10}" y="{ly + 16 * i + 4}">{regime}-bound</text>')
    out.append(f'<circle cx="{lx}" cy="{ly + 48}" r="5" fill="white" stroke="#333"/>'
               f'<text x="{lx + 10}" y="{ly + 52}">no arithmetic (at the left edge)</text>')
    out.append(f'<text x="{lx - 5}" y="{ly + 72}" fill="#555">area: share of the '
               'time</text>')
    out.append('</svg>')
    return "\n".join(out) + "\n"


def _rate(k: Kernel, x_min: float) -> float:
    """The kernel's height: flop/s, or for no arithmetic, its byte rate at
    the chart's smallest intensity."""
    if k.seconds <= 0:
        return 0.0
    if k.flops and k.bytes and k.flops / k.bytes >= x_min:
        return k.flops / k.seconds
    return max(k.bytes / k.seconds * x_min, 1.0)


def _si(v: float) -> str:
    for factor, prefix in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if v >= factor:
            return f"{v / factor:g}{prefix}"
    return f"{v:g}"


def write(path: str, kernels: List[Kernel], bandwidth: float, peaks: Dict[str, float],
          title: str, labels: Optional[int] = 8) -> None:
    with open(path, "w") as f:
        f.write(roofline_svg(kernels, bandwidth, peaks, title, labels or 0))
