import sys
import xml.etree.ElementTree as ET

from brrr import roofline

K = roofline.Kernel
kernels = [
    K("gemm", 2 * 4096 ** 3, 3 * 4096 * 4096 * 2, 190e-6, "compute"),
    K("softmax", 5 * 2 ** 24, 2 * 2 ** 25, 25e-6, "memory"),
    K("transpose", 0, 2 ** 22, 3e-6, "memory"),
    K("tiny", 100, 4096, 2e-6, "overhead"),
    K("skipped", 10, 10, 0.0, "overhead"),
]
peaks = {"f16/bf16 Tensor Cores": 989e12, "f32": 67e12}
svg = roofline.roofline_svg(kernels, 3.0e12, peaks, "test <model>", labels=2)
root = ET.fromstring(svg)  # well-formed XML
ns = {"s": "http://www.w3.org/2000/svg"}
points = root.findall(".//s:circle[@class='kernel']", ns)
print("kernels drawn:", len(points))
print("hollow (no arithmetic):", sum(p.get("fill") == "white" for p in points))
print("roofs:", len(root.findall(".//s:line[@class='roof']", ns)))
print("labels:", [t.text for t in root.findall(".//s:text[@class='label']", ns)])
print("title:", root.findall("s:text", ns)[0].text)
colours = {p.find("s:title", ns).text.split(":")[0]: p.get("stroke") for p in points}
print("gemm red:", colours["gemm"] == roofline.COLOURS["compute"])
print("regime:", roofline.regime_of(2 * 4096 ** 3, 3 * 4096 * 4096 * 2, 3e12, 989e12),
      roofline.regime_of(5 * 2 ** 24, 2 ** 26, 3e12, 989e12),
      roofline.regime_of(100, 4096, 3e12, 989e12))
# The gemm sits below the f16 roof, to the right of the ridge.
gemm = next(p for p in points if p.find("s:title", ns).text.startswith("gemm"))
soft = next(p for p in points if p.find("s:title", ns).text.startswith("softmax"))
print("gemm right of softmax:", float(gemm.get("cx")) > float(soft.get("cx")))
print("gemm above softmax:", float(gemm.get("cy")) < float(soft.get("cy")))
# The chart's roofs: measured rates replace their datasheet entries by
# name, the rest stay marked as datasheet figures; each probe is a
# model in the package.
import os  # noqa: E402
labels = roofline.roof_labels({"f16/bf16 Tensor Cores": 700e12}, "sm_90a")
print("roof labels:", sorted(labels))
print("measured f16:", labels["f16/bf16 Tensor Cores (measured)"] / 1e12)
print("sm_80 8-bit:", roofline.roof_labels({}, "sm_80")["8-bit Tensor Cores (datasheet)"] / 1e12)
print("probes:", [(p.roof, os.path.basename(p.path), os.path.isfile(p.path), p.flops)
                  for p in roofline.PROBES])
print("probe roofs are datasheet roofs:",
      all(p.roof in roofline.datasheet_peaks("sm_90a") for p in roofline.PROBES))
