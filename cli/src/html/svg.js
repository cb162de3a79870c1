// What every board script may use: svgElement(parent, name, attrs) makes
// an SVG element with these attributes and appends it to parent.
function svgElement(parent, name, attrs) {
  var e = document.createElementNS('http://www.w3.org/2000/svg', name);
  for (var k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
