# tests/lib/svg.sh: what an SVG that Graphviz rendered from
# `halo-provision --cluster --dot` draws (sourced after tests/lib/tap.sh).
#
#   svg_elements SVG CLASS  one line per element (<g>) whose class list has
#                           CLASS: "ID CLASSES STROKE | TEXT / TEXT ...",
#                           with the stroke of its path or polygon and its
#                           text lines (labels), in document order

svg_elements() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import sys
import xml.etree.ElementTree as ET

SVG = '{http://www.w3.org/2000/svg}'
for g in ET.parse(sys.argv[1]).getroot().iter(SVG + 'g'):
    if sys.argv[2] not in g.get('class', '').split():
        continue
    shape = g.find(SVG + 'path')
    if shape is None:
        shape = g.find(SVG + 'polygon')
    texts = ' / '.join(t.text or '' for t in g.findall(SVG + 'text'))
    print(g.get('id'), g.get('class'), shape.get('stroke') if shape is not None else '-', '|', texts)
PY
}
