import sys
import xml.etree.ElementTree as ET

report, svg = sys.argv[1], sys.argv[2]
rows = {}
for line in open(report):
    parts = line.split()
    if parts and parts[0].startswith("fusion_"):
        rows[parts[0]] = parts
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(svg).getroot()
circles = root.findall(".//s:circle[@class='kernel']", ns)
drawn = {c.find("s:title", ns).text.split(":")[0]: c for c in circles}
print("every reported kernel drawn:", set(drawn) == set(rows) and len(circles) == len(rows))
roofs = root.findall(".//s:line[@class='roof']", ns)
print("roofs:", len(roofs))
print("roof labels:", [t.text for t in root.findall(".//s:g[@class='roofs']/s:text", ns)])
print("labels:", len(root.findall(".//s:text[@class='label']", ns)))
# This small block is all overhead: every kernel's floor is under 2 us.
overhead = [n for n, r in rows.items() if "overhead" in r]
print("overhead-bound drawn grey:",
      bool(overhead) and all(drawn[n].get("stroke") == "#7f8c8d" for n in overhead))
